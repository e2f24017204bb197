// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";

  // +/- steppers for small counts.
  document.querySelectorAll("button.step").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var input = document.getElementById(button.dataset.for);
      var value = parseInt(input.value, 10);
      value = (isNaN(value) ? 0 : value) + parseInt(button.dataset.step, 10);
      input.value = String(Math.max(0, value));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  });

  // New game: show two side rows, and more on request.
  var rows = document.querySelectorAll("[data-side-row].optional");
  var add = document.querySelector("[data-add-side]");
  if (add && rows.length) {
    rows.forEach(function (row) { row.classList.add("hidden"); });
    add.hidden = false;
    add.addEventListener("click", function () {
      var next = document.querySelector("[data-side-row].hidden");
      if (next) {
        next.classList.remove("hidden");
        next.querySelector("input").focus();
      }
      if (!document.querySelector("[data-side-row].hidden")) { add.hidden = true; }
    });
  }

  // A double tap on a save button sends the form once.
  document.querySelectorAll("form[method=post]").forEach(function (f) {
    f.addEventListener("submit", function () {
      var button = f.querySelector("button[type=submit]");
      if (button) { setTimeout(function () { button.disabled = true; }, 0); }
    });
  });
  // Coming back with the back button shows the page as it was left: save works again.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = false; });
  });

  // Invite the table, share the result: the phone's share sheet for a [data-share] button where
  // it has one, else the clipboard, where the phone lets a page write it.
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var copies = navigator.clipboard && window.isSecureContext;
    var shares = button.hasAttribute("data-share") && navigator.share;
    if (!copies && !shares) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      var said = button.parentNode.querySelector("[data-copied]");
      var text = document.getElementById(button.dataset.copy).value;
      function say(words) { if (said) { said.textContent = words; } }
      function copy() {
        if (!copies) { return say("Select the text and copy it."); }
        navigator.clipboard.writeText(text).then(function () { say("Copied."); },
          function () { say("Select the text and copy it."); });
      }
      if (!shares) { return copy(); }
      // Closing the share sheet is the person's choice, not a failure to copy around.
      navigator.share({ text: text }).then(function () { say("Shared."); },
        function (error) { if (error.name !== "AbortError") { copy(); } });
    });
  });

  // Marking a side as going out fills in the books going out needs, where fewer are entered:
  // a side that went out holds at least those, so it only adds any more it has.
  document.querySelectorAll("[data-going-out-hint]").forEach(function (hint) { hint.hidden = false; });
  // Unmarked again, it takes back what it filled in (unless changed since).
  var goingOut = document.querySelectorAll("input[name=went_out]");
  function markGoingOut() {
    var chosen = Array.prototype.filter.call(goingOut, function (c) { return c.checked; })[0];
    document.querySelectorAll("fieldset[data-going-out]").forEach(function (side) {
      var needs = JSON.parse(side.dataset.goingOut || "{}");
      var out = chosen && chosen.value === side.dataset.side;
      Object.keys(needs).forEach(function (id) {
        var input = document.getElementById(id);
        var held = parseInt(input.value, 10);
        var value = null;
        if (out && (isNaN(held) || held < needs[id])) {
          input.dataset.before = input.value;
          value = String(needs[id]);
        } else if (!out && "before" in input.dataset) {
          if (input.value === String(needs[id])) { value = input.dataset.before; }
          delete input.dataset.before;
        }
        if (value !== null) {
          input.value = value;
          input.dispatchEvent(new Event("input", { bubbles: true }));
        }
      });
    });
  }
  goingOut.forEach(function (choice) { choice.addEventListener("change", markGoingOut); });

  // Deal form: the server's breakdown, refreshed as figures are entered.
  var form = document.querySelector("form[data-preview]");
  var target = document.getElementById("breakdown");
  if (!form || !target) { return; }
  var timer = null;
  var asked = 0;
  function refresh() {
    var mine = ++asked;
    fetch(form.dataset.preview, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) { if (mine === asked) { target.innerHTML = html; } })
      .catch(function () { /* offline or refused: the saved figure is checked on submit */ });
  }
  form.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  });
  form.addEventListener("change", function () { clearTimeout(timer); refresh(); });
  // A blank form has nothing to break down yet; a correction (or a page come back to) has.
  var typed = Array.prototype.some.call(form.elements, function (el) {
    return (el.inputMode === "numeric" && el.value !== "") || (el.checked && el.value !== "");
  });
  if (typed) { refresh(); }
})();

// Every phone at the table in step, and entering deals with no signal (see static/sw.js).
(function () {
  "use strict";
  var worker = "serviceWorker" in navigator ? navigator.serviceWorker : null;
  var store = window.localStorage;
  var live = document.querySelector("[data-live]");
  var form = document.querySelector("form[data-preview]");
  var token = document.querySelector("input[name=csrf_token]");
  var items = [];

  function tell(message) {
    if (worker && worker.controller) { worker.controller.postMessage(message); }
  }
  if (worker) {
    worker.register("/sw.js").catch(function () { /* no worker: the pages still work online */ });
    worker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "outbox") { items = event.data.items || []; showOutbox(); }
    });
    worker.ready.then(function () {
      tell({ type: "list" });
      if (signal) { tell({ type: "flush" }); }
      keepForNoSignal();
    });
  }

  // A game's scoreboard, deal form and rule card are kept on the phone for no signal; a page
  // shown with signal has them fetched anew, so the kept form is for the next deal. So is the
  // home page, whose list of this phone's games now includes this one.
  function keepForNoSignal() {
    if (!document.querySelector("[data-live]")) { return; }
    var links = document.querySelectorAll("a[href$='/rules'], a[href$='/deals/new'], a[href*='/deals/next/'], [data-board]");
    var urls = Array.prototype.map.call(links, function (a) {
      return a.getAttribute("href") || a.dataset.board;
    });
    tell({ type: "keep", again: signal, urls: urls.concat(["/"]) });
  }

  // "No signal" is what happens to this page's requests, never what navigator.onLine says: on
  // a club's wifi with no internet behind it, it says online while every request fails. A page
  // the worker showed from the phone starts without signal (sw.js marks it); any request that
  // gets an answer means signal, and the first one after none sends the deals waiting.
  var signal = !document.documentElement.hasAttribute("data-from-phone");
  function heard(yes) {
    var back = yes && !signal;
    signal = yes;
    var note = document.querySelector("[data-offline]");
    if (note) { note.hidden = yes; }
    if (back) { tell({ type: "flush" }); }
  }
  heard(signal);
  function request(url, options) {
    return fetch(url, options).then(
      function (response) { heard(true); return response; },
      function (error) { heard(false); throw error; });
  }
  // Only a hint to try now: whether a request gets through is what counts.
  window.addEventListener("online", function () { tell({ type: "flush" }); });

  // 32 hex digits (getRandomValues works on plain http too, where randomUUID does not).
  function freshKey() {
    return Array.prototype.map.call(crypto.getRandomValues(new Uint8Array(16)), function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  }
  function device() {
    var id = store.getItem("hf-device");
    if (!/^[0-9a-f]{32}$/.test(id || "")) {
      id = freshKey();
      store.setItem("hf-device", id);
    }
    return id;
  }

  // A side's own line of the next deal (its address ends /deals/next/<side>).
  var LINE = /\/deals\/next\/(\d+)$/;
  function sideName(side) {
    var names = live && live.dataset.sides ? JSON.parse(live.dataset.sides) : [];
    return names[side] || "A side";
  }
  function myName() {
    var shown = document.querySelector("[data-me-name]");
    return store.getItem("hf-name") || (shown ? shown.textContent : "") || "Someone";
  }
  // A line sent from this phone, remembered so that the phone can say when another phone's
  // later line for the same side took its place.
  function sentKey(deal, side) { return "hf-line:" + (live ? live.dataset.game : "") + ":" + deal + ":" + side; }
  if (form && form.dataset.line) {
    form.addEventListener("submit", function () {
      form.elements.device.value = device();
      form.elements.sent_by.value = myName();
      // When it was entered, kept with it if it waits on the phone with no signal.
      if (!form.elements.entered_at.value) { form.elements.entered_at.value = String(Date.now()); }
      store.setItem(sentKey(form.elements.number.value, form.dataset.line), "1");
    });
    // Shown again refused, or meeting a deal saved or a later line: this line was not kept.
    if (document.querySelector("#problems, .conflict")) {
      store.removeItem(sentKey(form.elements.number.value, form.dataset.line));
    }
  }

  // --- Deals waiting to send: listed on the game's pages, with what to do about each. ---
  function mine() {
    var game = live && live.dataset.game;
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
      var what = /\/edit$/.test(item.url) ? "Correction of deal " : "Deal ";
      var line = item.url.match(LINE);
      if (line) { what = sideName(Number(line[1])) + "'s line for deal "; }
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
      drop.setAttribute("aria-label", "Discard " + what.toLowerCase() + (item.number || ""));
      drop.addEventListener("click", function () {
        if (window.confirm("Discard " + what.toLowerCase() + (item.number || "") + "? Its figures are lost.")) {
          tell({ type: "discard", key: item.key });
        }
      });
      li.appendChild(document.createTextNode(" "));
      li.appendChild(drop);
      list.appendChild(li);
    });
    box.hidden = waiting.length === 0;
    renumber();
    if (waiting.some(function (item) { return item.state === "waiting"; })) {
      clearTimeout(showOutbox.retry);
      showOutbox.retry = setTimeout(function () { tell({ type: "flush" }); }, 5000);
    }
  }

  // --- The deal form: a fresh key for a form shown from the phone, the next free number, a
  // kept deal filled back in, and telling the table who is entering. ---
  var number = form && form.querySelector("input[name=number]");
  var key = form && form.querySelector("input[name=idempotency_key]");
  var opened = number ? Number(number.value) : 0;
  if (key && !/^[0-9a-f]{32}$/.test(key.value)) { key.value = freshKey(); }

  var kept = new URLSearchParams(window.location.search).get("kept");
  function renumber() {
    // A kept deal opened again goes with the number it was entered as: if that deal was saved
    // meanwhile, the server shows both, and the person decides.
    if (!number || kept || form.dataset.line) { return; }
    var next = opened;
    mine().forEach(function (item) {
      if (!/\/edit$/.test(item.url) && !LINE.test(item.url) && item.number >= next) { next = item.number + 1; }
    });
    if (Number(number.value) === next) { return; }
    number.value = String(next);
    var heading = document.querySelector("h1");
    var save = form.querySelector("button[type=submit]");
    if (heading) { heading.textContent = "Enter deal " + next; }
    if (save) { save.textContent = "Save deal " + next; }
    var dealer = document.querySelector("[data-dealer]");
    if (dealer) {
      var table = JSON.parse(dealer.dataset.table);
      dealer.textContent = "Deal " + next + ": " +
        table[(Number(dealer.dataset.first) + next - 1) % table.length] + " deals";
    }
  }

  if (form && kept) {
    worker && worker.addEventListener("message", function fill(event) {
      var item = (event.data.items || []).filter(function (i) { return i.key === kept; })[0];
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

  var me = document.querySelector("[data-me]");
  if (form && live && live.dataset.entering && me) {
    var shown = me.querySelector("[data-me-name]");
    var input = me.querySelector("input");
    var name = store.getItem("hf-name") || shown.textContent;
    shown.textContent = name;
    input.value = store.getItem("hf-name") || "";
    me.hidden = false;
    input.addEventListener("change", function () {
      name = input.value.trim() || "Someone";
      store.setItem("hf-name", input.value.trim());
      shown.textContent = name;
      say();
    });
    var say = function (leaving) {
      var data = new FormData();
      if (token) { data.append("csrf_token", token.value); }
      data.append("device", device());
      data.append("deal", number ? number.value : live.dataset.deal);
      data.append("name", name);
      if (leaving) {
        data.append("leaving", "1");
        return navigator.sendBeacon && navigator.sendBeacon(live.dataset.entering, data);
      }
      if (document.hidden) { return; }
      request(live.dataset.entering, { method: "POST", body: data, credentials: "same-origin" })
        .then(function (response) { if (response.status === 404) { clearInterval(saying); } })
        .catch(function () { /* no signal: said again in a few seconds */ });
    };
    say();
    var saying = setInterval(say, 5000);
    window.addEventListener("pagehide", function () { say(true); });
  }

  // --- Live: ask the server every second whether the game changed (an unchanged game is an
  // empty 304), and who else is entering a deal. ---
  if (!live || !window.fetch) { return; }
  var etag = null;
  var gone = false;
  var version = live.dataset.version;
  var shownLines = live.dataset.lines;
  var news = "";
  function status(text) {
    var el = document.querySelector("[data-live-status]");
    if (el && el.textContent !== text) { el.textContent = text; }
  }
  function entering(state) {
    var names = state.entering.map(function (e) { return e.name + " is entering deal " + e.deal; });
    return (names.length ? names.join(". ") + ". " : "") + lines(state);
  }
  // "Us: in · Them: counting", once a side's line is in; and what concerns this phone's line.
  var replaced = "";
  function lines(state) {
    var parts = state.parts || [];
    if (!parts.length) { return replaced; }
    var names = live && live.dataset.sides ? JSON.parse(live.dataset.sides) : [];
    var said = names.map(function (name, side) {
      var part = parts.filter(function (p) { return p.side === side; })[0];
      return name + ": " + (part ? "in" : "counting");
    }).join(" · ") + ".";
    parts.forEach(function (part) {
      var key = sentKey(state.next_deal, part.side);
      if (part.mine) {
        if (part.problem) { said += " Check " + sideName(part.side) + "'s line: " + part.problem; }
      } else if (store.getItem(key)) {
        store.removeItem(key);
        replaced = part.sent_by + " sent a later line for " + sideName(part.side) + "; theirs is kept. ";
      }
    });
    return replaced + said;
  }
  function poll() {
    if (document.hidden) { return setTimeout(poll, 1000); }
    var headers = etag ? { "If-None-Match": etag } : {};
    request(live.dataset.live + "?device=" + device(), { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 404) {
          // Deleted, or its link replaced: asking again would only count as guessing links.
          gone = true;
          status("This game is no longer on the server.");
          return null;
        }
        if (response.status === 304 || !response.ok) { return null; }
        etag = response.headers.get("ETag");
        return response.json();
      })
      .then(function (state) {
        if (!state) { return; }
        if (state.lines !== shownLines && !form && state.version === version) {
          shownLines = state.lines;
          return refreshPage(state);
        }
        shownLines = state.lines;
        if (state.version !== version) {
          var before = Number(String(version).split(".")[0]);
          news = state.deals > before ? "Deal " + state.deals + " saved. " : "A deal was corrected. ";
          version = state.version;
          if (!form) { return refreshPage(state); }
          // Someone is typing here: never replace the form; say what happened instead.
          if (number && state.next_deal > Number(number.value)) {
            news = "Deal " + state.deals + " was just saved on another phone. If yours is the " +
              "same deal, check the scoreboard before saving. ";
          }
        }
        status(news + entering(state));
      })
      .catch(function () { /* no signal: the note says so; asked again in a second */ })
      .then(function () { if (!gone) { setTimeout(poll, 1000); } });
  }
  function refreshPage(state) {
    return request(window.location.pathname, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(); })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var main = document.querySelector("main");
        if (!next || !main) { return; }
        var open = Array.prototype.map.call(main.querySelectorAll("details[open][id]"), function (d) { return d.id; });
        main.innerHTML = next.innerHTML;
        open.forEach(function (id) { var d = document.getElementById(id); if (d) { d.open = true; } });
        live = document.querySelector("[data-live]") || live;
        version = live.dataset.version || state.version;
        shownLines = live.dataset.lines || state.lines;
        showOutbox();
        keepForNoSignal();
        status(news + entering(state));
      })
      .catch(function () { version = null; /* asked again on the next poll */ });
  }
  setTimeout(poll, 1000);
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
