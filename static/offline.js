// Entering deals with no signal (see static/sw.js and docs/LIVE.md): the deals waiting to send,
// listed on the game's pages; a kept deal opened again; the game's pages kept on the phone; and
// the page shown for a page never opened here. Loaded by app.js only once the service worker
// looks after the page (a first visit never needs it), or on the offline page.
(function () {
  "use strict";
  var hf = window.hf;
  var worker = "serviceWorker" in navigator ? navigator.serviceWorker : null;
  if (!hf || !worker) { return; }
  var form = document.querySelector("form[data-preview]");
  var LINE = /\/deals\/next\/(\d+)$/;
  var items = [];

  function live() { return document.querySelector("[data-live]"); }
  function sideName(side) {
    var el = live();
    var names = el && el.dataset.sides ? JSON.parse(el.dataset.sides) : [];
    return names[side] || word("a_side");
  }

  worker.addEventListener("message", function (event) {
    if (event.data && event.data.type === "outbox") { items = event.data.items || []; showOutbox(); }
  });
  worker.ready.then(function () {
    hf.tell({ type: "list" });
    if (hf.signal) { hf.tell({ type: "flush" }); }
    keepForNoSignal();
  });
  // The first answer after no signal sends the deals waiting (live.js says so).
  document.addEventListener("hf:signal", function () { hf.tell({ type: "flush" }); });
  // Only a hint to try now: whether a request gets through is what counts.
  window.addEventListener("online", function () { hf.tell({ type: "flush" }); });
  // A scoreboard brought up to date in place (live.js).
  // What the server states is asked anew there: its deals have changed.
  document.addEventListener("hf:page", function () { showOutbox(true); keepForNoSignal(); });

  // A game's scoreboard, deal form and rule card are kept on the phone for no signal; a page
  // shown with signal has them fetched anew, so the kept form is for the next deal. So is the
  // home page, whose list of this phone's games now includes this one.
  function keepForNoSignal() {
    if (!live()) { return; }
    var links = document.querySelectorAll("a[href$='/rules'], a[href$='/deals/new'], a[href*='/deals/next/'], [data-board]");
    var urls = Array.prototype.map.call(links, function (a) {
      return a.getAttribute("href") || a.dataset.board;
    });
    // And what the phone's scorer is told of the game, to score deals with no signal.
    urls.push("/t/" + live().dataset.game + "/scorer");
    hf.tell({ type: "keep", again: hf.signal, urls: urls.concat(["/"]) });
  }

  // --- Deals waiting to send: listed on the game's pages, with what to do about each. ---
  function mine() {
    var el = live();
    var game = el && el.dataset.game;
    // The deal on this very form is not listed again above it.
    var here = document.querySelector("form[data-preview] input[name=idempotency_key]");
    return items.filter(function (item) { return item.game === game && !(here && here.value === item.key); })
      .sort(function (a, b) { return a.at - b.at; });
  }
  // One of the server's sentences of the queue (services/queue_words.py), as provisional.js has
  // them from what the server states of the game; "" until it has them.
  function word(name, fill) { return hf.queueWord ? hf.queueWord(name, fill) : ""; }
  // What the server answered a deal sent (sw_outbox.js keeps its status): a side's line has
  // words of its own for some. A deal kept by a worker from before says it in its own message.
  function answered(item) {
    if (!item.status) { return item.message || ""; }
    var line = LINE.test(item.url) && word("line_" + item.status);
    return line || word("sent_" + item.status) || word("sent_other");
  }
  function showOutbox(fresh) {
    var box = document.querySelector("[data-outbox]");
    var list = document.querySelector("[data-outbox-list]");
    if (!box || !list) { return; }
    var waiting = mine();
    var stuck = null; // a deal the server refused: those after it wait for the person
    list.textContent = "";
    waiting.forEach(function (item) {
      var li = document.createElement("li");
      var line = item.url.match(LINE);
      var kind = line ? "line" : /\/edit$/.test(item.url) ? "correction" : "deal";
      var fill = { deal: item.number || "", side: line ? sideName(Number(line[1])) : "" };
      var said = word("said_" + kind, fill);
      var when = new Date(item.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      var head = document.createElement("b");
      head.textContent = word("entered", { what: word("row_" + kind, fill), at: when }) + ": ";
      li.appendChild(head);
      var behind = stuck && item.state === "waiting" ? word("behind", { deal: stuck }) : "";
      li.appendChild(document.createTextNode(item.state === "waiting" ? behind || word("waiting") : answered(item)));
      if (item.state !== "waiting" && !stuck) { stuck = item.number || "?"; }
      if (item.state !== "waiting") {
        var open = document.createElement("a");
        open.className = "button";
        open.href = item.url + "?kept=" + item.key;
        open.textContent = word("open");
        li.appendChild(document.createTextNode(" "));
        li.appendChild(open);
      }
      var drop = document.createElement("button");
      drop.type = "button";
      drop.className = "button";
      drop.textContent = word("discard");
      drop.setAttribute("aria-label", word("discard_label", { what: said }));
      drop.addEventListener("click", function () {
        if (window.confirm(word("discard_sure", { what: said }))) {
          hf.tell({ type: "discard", key: item.key });
        }
      });
      li.appendChild(document.createTextNode(" "));
      li.appendChild(drop);
      list.appendChild(li);
    });
    // Shown once the server's words are here (provisional.js asks for them, and lists again).
    box.hidden = waiting.length === 0 || !word("waiting");
    // Counted (provisional.js): the scoreboard's figures, the form's number.
    if (hf.counting) { hf.counting(fresh); } else if (live() && waiting.length) { hf.load("provisional.js?v="); }
    document.dispatchEvent(new CustomEvent("hf:waiting"));
    if (waiting.some(function (item) { return item.state === "waiting"; })) {
      clearTimeout(showOutbox.retry);
      showOutbox.retry = setTimeout(function () { hf.tell({ type: "flush" }); }, 5000);
    }
  }

  // The deals (and corrections) of this game waiting on this phone to be sent, oldest first: the
  // phone's scorer counts them (scorer.js withWaiting).
  hf.waiting = function () {
    return mine().filter(function (item) { return item.state === "waiting" && !LINE.test(item.url); });
  };
  // Every deal and line of this game waiting on this phone, whatever its state (but this very
  // form's); every one on the phone; and the list drawn again (provisional.js).
  hf.queued = mine;
  hf.items = function () { return items; };
  hf.relist = function () { showOutbox(); };

  // --- The deal form: a form shown from the phone gets a key of its own. ---
  // A form shown from the phone (sw.js keeps pages without their idempotency key) gets a
  // fresh one, so two deals entered on one kept form stay two deals. The server always fills
  // one in (deals.form_key), so a key missing is the only kind to replace.
  var key = form && form.querySelector("input[name=idempotency_key]");
  if (key && !key.value) { key.value = hf.freshKey(); }

  var kept = new URLSearchParams(window.location.search).get("kept");
  if (form && kept) {
    worker.addEventListener("message", function fill(event) {
      var item = ((event.data && event.data.items) || []).filter(function (i) { return i.key === kept; })[0];
      if (!item) { return; }
      worker.removeEventListener("message", fill);
      // Everything as it was entered, with this page's CSRF token: the server then shows what
      // happened meanwhile (a deal saved, a correction made) beside these figures.
      new URLSearchParams(item.body).forEach(function (value, name) {
        if (name === "csrf_token") { return; }
        form.querySelectorAll("[name='" + CSS.escape(name) + "']").forEach(function (el) {
          if (el.type === "radio") { el.checked = el.value === value; } else { el.value = value; }
        });
      });
      // Sent at once: the server's answer shows the deal saved meanwhile (or the refused
      // figure) beside these, and the person decides there. It stays kept until saved.
      // Sent as it was, even where the phone's scorer refuses it (scorer_form.js): the server's
      // answer is what the person fixes it by.
      if (item.state !== "waiting" && form.requestSubmit) {
        form.dataset.resend = "";
        form.requestSubmit();
        return;
      }
      form.dispatchEvent(new Event("change"));
    });
  }
})();

// The page shown for a page never opened here, with no signal: what this phone does have.
(function () {
  "use strict";
  var list = document.querySelector("[data-kept]");
  if (!list || !window.caches) { return; }
  // A game is named by its kept scoreboard's title (its address is only its secret).
  function titled(cache, request) {
    return cache.match(request).then(function (r) { return r ? r.text() : ""; }).then(function (html) {
      var title = (html.match(/<title>([^<]*)<\/title>/) || [])[1] || "A game";
      var text = new DOMParser().parseFromString(title, "text/html").documentElement.textContent;
      return { path: new URL(request.url).pathname, name: text.split(" · ")[0] };
    });
  }
  caches.open("pages-v1").then(function (cache) {
    return cache.keys().then(function (requests) {
      // A game's scoreboard: /t/ and its secret, one segment of whatever shape the server gives.
      var games = requests.filter(function (r) { return /^\/t\/[^/]+$/.test(new URL(r.url).pathname); });
      var rules = requests.map(function (r) { return new URL(r.url).pathname; })
        .filter(function (path) { return /^\/rules/.test(path); }).sort()
        .map(function (path) { return { path: path, name: "Rules: " + (path.split("/")[2] || "all rule sets") }; });
      return Promise.all(games.map(function (r) { return titled(cache, r); })).then(function (named) {
        return named.concat(rules);
      });
    });
  }).then(function (pages) {
    pages.forEach(function (page) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = page.path;
      a.textContent = page.name;
      li.appendChild(a);
      list.appendChild(li);
    });
    document.querySelector("[data-kept-section]").hidden = list.children.length === 0;
  });
})();
