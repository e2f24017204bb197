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
    return names[side] || "A side";
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
  document.addEventListener("hf:page", function () { stated = null; showOutbox(); keepForNoSignal(); });

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
  function showOutbox() {
    var box = document.querySelector("[data-outbox]");
    var list = document.querySelector("[data-outbox-list]");
    if (!box || !list) { return; }
    var waiting = mine();
    list.textContent = "";
    waiting.forEach(function (item) {
      var li = document.createElement("li");
      // Worded to read with any side's name ("Line for Us, deal 4"), which is never lowercased.
      var what = /\/edit$/.test(item.url) ? "Correction of deal " : "Deal ";
      var said = what.toLowerCase();
      var line = item.url.match(LINE);
      if (line) {
        what = "Line for " + sideName(Number(line[1])) + ", deal ";
        said = "the line for " + sideName(Number(line[1])) + ", deal ";
      }
      var when = new Date(item.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      var head = document.createElement("b");
      head.textContent = what + (item.number || "") + ", entered at " + when + ": ";
      li.appendChild(head);
      li.appendChild(document.createTextNode(
        item.state === "waiting" ? "waiting to send." : item.message));
      if (item.state !== "waiting") {
        var open = document.createElement("a");
        open.className = "button";
        open.href = item.url + "?kept=" + item.key;
        open.textContent = "Open it";
        li.appendChild(document.createTextNode(" "));
        li.appendChild(open);
      }
      var drop = document.createElement("button");
      drop.type = "button";
      drop.className = "button";
      drop.textContent = "Discard";
      drop.setAttribute("aria-label", "Discard " + said + (item.number || ""));
      drop.addEventListener("click", function () {
        if (window.confirm("Discard " + said + (item.number || "") + "? Its figures are lost.")) {
          hf.tell({ type: "discard", key: item.key });
        }
      });
      li.appendChild(document.createTextNode(" "));
      li.appendChild(drop);
      list.appendChild(li);
    });
    box.hidden = waiting.length === 0;
    renumber();
    provisionally();
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

  // --- The scoreboard counts the deals waiting to send: each a row marked so, and the totals,
  // the opening minimums, who deals and the next deal's number as they will be once they are
  // sent (provisional). The server's figures replace them when it has the deals. ---
  var stated = null;
  var asking = false;
  var shown = {}; // a new deal's key -> its number and each side's deal total, as shown waiting
  function board() { return !form && document.getElementById("totals"); }
  function saying(text) {
    var status = document.querySelector("[data-live-status]");
    if (status) { status.textContent = text; }
  }
  function keep(node) {
    if (node && !("saved" in node.dataset)) { node.dataset.saved = node.innerHTML; }
    return node;
  }
  function restore() {
    document.querySelectorAll("[data-waiting]").forEach(function (node) { node.remove(); });
    document.querySelectorAll("[data-saved]").forEach(function (node) {
      node.innerHTML = node.dataset.saved;
      delete node.dataset.saved;
    });
  }
  function withScorer() {
    if (asking || !live()) { return; }
    asking = true;
    hf.load("scorer.js?v=");
    hf.load("scorer_game.js?v="); // the engine's second part, run after the first
    new Promise(function (resolve) {
      if (window.hfScorer) { resolve(); } else { document.addEventListener("hf:scorer", resolve); }
    }).then(function () { return window.hfScorer.ask(live().dataset.game); })
      .then(function (found) { stated = found; renumber(); provisionally(); })
      .catch(function () { /* nothing kept to score with: the deals are listed as waiting */ })
      .then(function () { asking = false; });
  }
  function provisionally() {
    if (!board()) { return; }
    restore();
    var waiting = hf.waiting();
    if (!waiting.length && !Object.keys(shown).length) { return; }
    if (!stated || !window.hfScorer) { return withScorer(); }
    var S = window.hfScorer;
    var game = S.withWaiting(stated, waiting);
    if (!waiting.length) { return compare(S.play(stated, S.saved(stated), null, false)); }
    var p = game.progress;
    var sides = document.querySelectorAll("#totals li.side");
    var note = document.createElement("p");
    note.className = "hint";
    note.dataset.waiting = "";
    note.textContent = "With the deals waiting to send on this phone (provisional until they are sent):";
    var totals = document.getElementById("totals");
    totals.insertBefore(note, totals.querySelector(".sides"));
    sides.forEach(function (side, i) {
      var total = keep(side.querySelector(".total"));
      total.lastChild.textContent = S.figure(p.totals[i]);
      var minimum = keep(side.querySelector(".minimum"));
      if (minimum) { minimum.hidden = p.finished; minimum.querySelector("b").textContent = p.minimums[i]; }
    });
    var next = p.deals.length + 1;
    var dealer = keep(document.querySelector("p.dealer"));
    if (dealer) { dealer.textContent = "Deal " + next + ": " + S.dealer(stated, next) + " deals"; }
    var enter = keep(document.querySelector("a[href$='/deals/new']"));
    if (enter) { enter.textContent = "Enter deal " + next; }
    if (p.finished) {
      var names = p.winners.map(function (i) { return stated.game.sides[i].name; }).join(" and ");
      note.textContent += " the game is over, won by " + names + " with " + S.figure(p.totals[p.winners[0]]) + ".";
    }
    var list = document.getElementById("deals-h").parentNode;
    var none = keep(list.querySelector("p.quiet"));
    if (none) { none.textContent = ""; }
    game.rows.forEach(function (row) {
      var box = document.createElement("div");
      box.className = "deal waiting";
      box.dataset.waiting = "";
      var item = box.appendChild(document.createElement("p"));
      item.className = "deal-row";
      var head = document.createElement("span");
      head.className = "deal-no";
      head.textContent = (row.number <= stated.game.deals.length ? "Correction of deal " : "Deal ") +
        row.number + " · waiting to send";
      item.appendChild(head);
      if (row.counted) {
        var result = p.deals[row.number - 1];
        if (row.number > stated.game.deals.length) {
          shown[row.key] = { number: row.number, totals: result.scores.map(function (score) { return score.total; }) };
        }
        stated.game.sides.forEach(function (side, i) {
          var figures = document.createElement("span");
          figures.className = "deal-side";
          figures.textContent = side.name + " " + S.signed(result.scores[i].total) + " → " + S.figure(result.totals[i]);
          item.appendChild(figures);
        });
      } else {
        item.appendChild(document.createTextNode(": not counted, this phone finds: " +
          row.refusals.map(function (r) { return r.message; }).join(" ")));
      }
      list.appendChild(box);
    });
  }
  // Sent: the server's figures are on the page now. Where they differ from what this phone
  // showed while the deal waited, the server's stand, and the phone says so.
  function compare(progress) {
    var differ = [];
    Object.keys(shown).forEach(function (key) {
      var was = shown[key];
      var result = progress.deals[was.number - 1];
      if (items.some(function (item) { return item.key === key; })) { delete shown[key]; return; }
      if (!result) { return; } // sent, but not on this page yet: compared once it is
      delete shown[key];
      if (result.scores.some(function (score, i) { return score.total !== was.totals[i]; })) {
        differ.push(was.number);
      }
    });
    if (differ.length) {
      saying("The server's figures for deal " + differ.join(", ") + " differ from this phone's; the " +
        "server's are shown.");
    }
  }

  // --- The deal form: the next free number, and a kept deal filled back in. ---
  var number = form && form.querySelector("input[name=number]");
  var opened = number ? Number(number.value) : 0;
  // A form shown from the phone (sw.js keeps pages without their idempotency key) gets a
  // fresh one, so two deals entered on one kept form stay two deals. The server always fills
  // one in (deals.form_key), so a key missing is the only kind to replace.
  var key = form && form.querySelector("input[name=idempotency_key]");
  if (key && !key.value) { key.value = hf.freshKey(); }

  var kept = new URLSearchParams(window.location.search).get("kept");
  function renumber() {
    // A kept deal opened again goes with the number it was entered as: if that deal was saved
    // meanwhile, the server shows both, and the person decides.
    if (!number || kept || form.dataset.line) { return; }
    var next = opened;
    mine().forEach(function (item) {
      if (!/\/edit$/.test(item.url) && !LINE.test(item.url) && item.number >= next) { next = item.number + 1; }
    });
    // Who deals it, as the phone's scorer works it out from what the server states (the table
    // and its first dealer, scorer.js dealer); the server's own words while it is the deal the
    // page was opened for.
    var dealer = document.querySelector("[data-dealer]");
    if (dealer && !("server" in dealer.dataset)) { dealer.dataset.server = dealer.textContent; }
    if (dealer && next === opened) { dealer.textContent = dealer.dataset.server; }
    else if (dealer && stated && window.hfScorer) {
      dealer.textContent = "Deal " + next + ": " + window.hfScorer.dealer(stated, next) + " deals";
    } else if (dealer) { withScorer(); }
    if (Number(number.value) === next) { return; }
    number.value = String(next);
    var heading = document.querySelector("h1");
    var save = form.querySelector("button[type=submit]");
    if (heading) { heading.textContent = "Enter deal " + next; }
    if (save) { save.textContent = "Save deal " + next; }
  }

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
      if (item.state !== "waiting" && form.requestSubmit) { form.requestSubmit(); return; }
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
      var games = requests.filter(function (r) { return /^\/t\/[\w-]{22}$/.test(new URL(r.url).pathname); });
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
