// Every phone at the table in step (docs/LIVE.md): the game's pages ask the server whether the
// game changed, say who is entering a deal, and follow the sides' own lines. Loaded by the
// game's pages (templates/_live.html), after app.js.
(function () {
  "use strict";
  var hf = window.hf;
  var live = document.querySelector("[data-live]");
  if (!hf || !live || !window.fetch) { return; }
  var store = window.localStorage;
  var form = document.querySelector("form[data-preview]");
  var number = form && form.querySelector("input[name=number]");
  var token = document.querySelector("input[name=csrf_token]");

  // The address bar shows the game on the screen (issue 40). A page that came as the answer to
  // a post sits at the post's address: Play again's (the game before) or the new-game form's,
  // where something between the phone and the server followed the server's redirect for it
  // (a proxy, or a test's throttled link: Playwright's route.fetch). The server's link instead.
  var link = live.dataset.link;
  // The queue's words this corner says too (services/queue_words.py), as the page states them.
  var queueWords = JSON.parse(live.dataset.words || "{}");
  if (link && window.location.pathname.indexOf(link) !== 0 && window.history.replaceState) {
    window.history.replaceState(window.history.state, "", link);
  }

  // How often to ask. Every second while something is happening at the table: this page is a
  // deal or line form, the last answer listed someone entering or a side's line in, or the page
  // loaded or the game last changed under a QUICK_FOR ago (hf.quickFor: tests shorten it).
  // A finished game's page with no next game yet keeps asking every second for FINISHED_FOR:
  // its phones are waiting for someone to tap Play again, and are told within 2 seconds.
  // A club night's finished game asks twice a second for as long as the server says its phones
  // wait for the next round to be seated (`waiting`): they are told their next table within 2
  // seconds of it (the page fetched again after the answer), however long the other tables
  // play; an unchanged answer is a 304 from one number.
  // Every second too while a deal waits for a side to agree or stands queried (`asking`; of a
  // finished game for FINISHED_FOR): a query reaches every phone within 2 seconds.
  // Otherwise every 5 seconds; and a hidden page (another tab, the phone asleep) not at all.
  // With no signal, four times a second whatever else (a request that fails costs the server
  // nothing): the phones agree within 2 seconds of the signal coming back, the other phones
  // asking every second (issue 40: at the 5-second pace a phone that lost signal a while ago
  // took up to 5 seconds just to notice).
  var QUICK = 1000;
  var WAITING = 500;
  var NO_SIGNAL = 250;
  var SLOW = 5000;
  var QUICK_FOR = hf.quickFor || 30000;
  var FINISHED_FOR = hf.finishedFor || 600000;

  // "No signal" is what happens to this page's requests, never what navigator.onLine says: on
  // a club's wifi with no internet behind it, it says online while every request fails. A page
  // the worker showed from the phone starts without signal (app.js, hf.signal); any request
  // that gets an answer means signal. The first one after none sends the deals waiting
  // (offline.js listens for "hf:signal").
  function heard(yes) {
    var back = yes && !hf.signal;
    hf.signal = yes;
    var note = document.querySelector("[data-offline]");
    if (note) { note.hidden = yes; }
    if (back) { document.dispatchEvent(new CustomEvent("hf:signal")); }
  }
  function request(url, options) {
    return fetch(url, options).then(
      function (response) { heard(true); return response; },
      function (error) { heard(false); throw error; });
  }
  heard(hf.signal);

  function device() {
    var id = store.getItem("hf-device");
    // Made as a page's key is, in the form the server takes (deals.FORM_KEY, in data-key).
    if (!new RegExp("^(?:" + live.dataset.key + ")$").test(id || "")) {
      id = hf.freshKey();
      store.setItem("hf-device", id);
    }
    return id;
  }
  hf.device = device;

  function sideNames() { return live.dataset.sides ? JSON.parse(live.dataset.sides) : []; }
  function sideName(side) { return sideNames()[side] || queueWords.a_side; }
  function myName() {
    var shown = document.querySelector("[data-me-name]");
    return store.getItem("hf-name") || (shown ? shown.textContent : "") || live.dataset.someone;
  }
  // Play again says who tapped it: the table's other phones are told "Ann started the next
  // game". Listened for on the document: a scoreboard brought up to date has a new form.
  document.addEventListener("submit", function (event) {
    var again = event.target.closest && event.target.closest("form[data-play-again]");
    if (again && again.elements.started_by) { again.elements.started_by.value = myName(); }
    // Agree or Query says who answered, and from which phone.
    var answer = event.target.closest && event.target.closest("form[data-answer]");
    if (answer) { answer.elements.by.value = myName(); answer.elements.device.value = device(); }
  });
  // A line sent from this phone, remembered so that the phone can say when another phone's
  // later line for the same side took its place.
  function sentKey(deal, side) { return "hf-line:" + live.dataset.game + ":" + deal + ":" + side; }
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

  // --- Who is entering: a deal form says so every 5 seconds while it is on screen. Its name
  // (Other phones see you as ...) is in the page from the start (no shift when this runs).
  // Reading the phone's storage (its name, its id) waits until the page is idle: the deal
  // form is the longest page, and its first moments go to showing it.
  var me = document.querySelector("[data-me]");
  if (form && live.dataset.entering && me) {
    var shown = me.querySelector("[data-me-name]");
    var input = me.querySelector("input");
    var name = shown.textContent;
    var saying = null;
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
    input.addEventListener("change", function () {
      name = input.value.trim() || live.dataset.someone;
      store.setItem("hf-name", input.value.trim());
      shown.textContent = name;
      say();
    });
    hf.whenIdle(function () {
      var kept = store.getItem("hf-name");
      if (kept && !input.value) {
        name = kept;
        input.value = kept;
        shown.textContent = kept;
      }
      say();
      saying = setInterval(say, 5000);
    });
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { say(); } });
    window.addEventListener("pagehide", function () { say(true); });
  }

  // --- Live: ask the server whether the game changed. The ETag of the last answer goes with
  // each question, and an unchanged game is an empty 304.
  // What the page shows, as tokens of the answer (shownLines: the sides' lines; shownAnswers:
  // their agreements and queries; shownNight: its club night); `queried`, the queries standing,
  // said on a form (the scoreboard shows them itself); `asking`, a deal waits for a side's
  // answer (a query must reach the table quickly); `lively`, when the page loaded or the game
  // last changed; `nextGame`, once someone tapped Play again, and `refreshedFor`, the one the
  // page was last brought up to date for; `waiting`, a night's finished game waiting for the
  // next round to be seated; `said`, what the lines in say, as of the last answer.
  var etag = null;
  var gone = false;
  var busy = false;
  var timer = null;
  var version = live.dataset.version;
  var shownLines = live.dataset.lines;
  var shownAnswers = live.dataset.answers;
  var queried = "";
  var asking = false;
  var lively = Date.now();
  var finished = false;
  var nextGame = null;
  var waiting = false;
  var shownNight = live.dataset.night || "";
  var refreshedFor = null;
  var news = "";
  var said = "";
  var parts = [];
  // The names entering, each until the last answer's fresh_for runs out with no newer answer:
  // a phone put away says nothing more, and its name goes from this screen then.
  var entering = [];
  var replaced = "";

  // The status line's words, and the next game's link after them when there is one.
  function status(text, next) {
    var el = document.querySelector("[data-live-status]");
    var said = text + (next ? next.started_by + " started the next game: " + next.url : "");
    if (!el || el.dataset.said === said) { return; }
    el.dataset.said = said;
    el.textContent = text;
    if (next) {
      el.appendChild(document.createTextNode(next.started_by + " started the next game: "));
      var open = document.createElement("a");
      open.className = "button";
      open.href = next.url;
      open.textContent = queueWords.open;
      el.appendChild(open);
    }
  }
  // Each event (a deal saved or corrected) is told once on this phone, by its key: an answer
  // read again after a lost signal, or a page loaded again, says nothing new.
  var TOLD = "hf-told:" + live.dataset.game;
  function tell(key, text) {
    if (store.getItem(TOLD) === key) { return ""; }
    store.setItem(TOLD, key);
    return text;
  }
  function fresh() {
    var now = Date.now();
    entering = entering.filter(function (e) { return e.until > now; });
    return entering;
  }
  function show() {
    clearTimeout(show.timer);
    var names = fresh().map(function (e) { return e.name + " is entering deal " + e.deal; });
    status(news + (names.length ? names.join(". ") + ". " : "") + queried + said, nextGame);
    if (entering.length) {
      var next = Math.min.apply(null, entering.map(function (e) { return e.until; }));
      show.timer = setTimeout(show, next - Date.now() + 20);
    }
  }
  // "Us: in · Them: counting", once a side's line is in; and what concerns this phone's line.
  function lines(state) {
    if (!parts.length) { return replaced; }
    var text = sideNames().map(function (name, side) {
      var part = parts.filter(function (p) { return p.side === side; })[0];
      return name + ": " + (part ? "in" : "counting");
    }).join(" · ") + ".";
    parts.forEach(function (part) {
      var key = sentKey(state.next_deal, part.side);
      if (part.mine) {
        if (part.problem) { text += " Check the line for " + sideName(part.side) + ": " + part.problem; }
      } else if (store.getItem(key)) {
        store.removeItem(key);
        replaced = part.sent_by + " sent a later line for " + sideName(part.side) + "; theirs is kept. ";
      }
    });
    return replaced + text;
  }
  function answered(state) {
    var now = Date.now();
    lively = now;
    parts = state.parts || [];
    entering = (state.entering || []).map(function (e) {
      return { name: e.name, deal: e.deal, until: now + 1000 * (e.fresh_for || 15) };
    });
    said = lines(state);
    finished = !!state.finished;
    nextGame = state.next_game || null;
    waiting = !!state.waiting;
    queried = form && state.queries && state.queries.length ? state.queries.join(". ") + ". " : "";
    asking = !!state.asking;
  }

  function quick() {
    var since = Date.now() - lively;
    return !!form || fresh().length > 0 || parts.length > 0 || since < QUICK_FOR ||
      (asking && (!finished || since < FINISHED_FOR)) ||
      (finished && !nextGame && (waiting || since < FINISHED_FOR));
  }
  function later() {
    clearTimeout(timer);
    if (!gone && !document.hidden) {
      timer = setTimeout(poll, !hf.signal ? NO_SIGNAL : finished && waiting ? WAITING : quick() ? QUICK : SLOW);
    }
  }
  // The phone says its signal is back (only a hint: a club's wifi may say so with no internet).
  window.addEventListener("online", function () { poll(); });
  // The deals waiting on this phone went (sent: offline.js lists them again): the server has
  // them now, and this page shows its figures at once rather than at the next poll.
  var held = 0;
  document.addEventListener("hf:waiting", function () {
    var now = hf.waiting ? hf.waiting().length : 0;
    if (now < held) { poll(); }
    held = now;
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { clearTimeout(timer); } else { poll(); }
  });

  // Asked while a question was out: asked again as soon as it is answered.
  var again = false;
  function poll() {
    clearTimeout(timer);
    if (busy) { again = true; }
    if (gone || busy || document.hidden) { return; }
    busy = true;
    again = false;
    var headers = etag ? { "If-None-Match": etag } : {};
    request(live.dataset.live + "?device=" + device(), { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 404) {
          // Deleted, or its link replaced: asking again would only count as guessing links.
          gone = true;
          status(queueWords.sent_404);
          return null;
        }
        if (response.status === 304 || !response.ok) { return null; }
        etag = response.headers.get("ETag");
        return response.json();
      })
      .then(function (state) {
        if (!state) { return show(); }
        answered(state);
        // The next game started on another phone: the scoreboard shows it in place of Play again.
        var nextShown = !!document.querySelector("[data-next-game]");
        if (nextGame && !nextShown && !form && state.version === version && refreshedFor !== nextGame.url) {
          refreshedFor = nextGame.url;
          return refreshPage(state);
        }
        // The club night moved on (the next round seated, a table finished): where to go next.
        if ((state.night || "") !== shownNight && !form && state.version === version) {
          shownNight = state.night || "";
          return refreshPage(state);
        }
        // A side agreed or queried a deal: the scoreboard shows its marks and queries again. Or
        // the page was put off while someone wrote on it (owed, below), and is fetched now.
        if ((owed || shownAnswers !== undefined && state.answers !== shownAnswers) && !form && state.version === version) {
          shownAnswers = state.answers;
          return refreshPage(state);
        }
        shownAnswers = state.answers;
        if (state.lines !== shownLines && !form && state.version === version) {
          shownLines = state.lines;
          return refreshPage(state);
        }
        shownLines = state.lines;
        if (state.version !== version) {
          var before = Number(String(version).split(".")[0]);
          var event = state.news || {
            key: "v" + state.version,
            text: state.deals > before ? "Deal " + state.deals + " saved." : "A deal was corrected."
          };
          // An event told already (an answer read again, a page loaded again) is not news.
          news = tell(event.key, event.text + " ") || news;
          version = state.version;
          if (!form) { return refreshPage(state); }
          // Someone is typing here: never replace the form; say what happened instead.
          if (number && state.next_deal > Number(number.value)) {
            var who = state.news && state.news.by ? state.news.by + " just saved deal " +
              state.deals : "Deal " + state.deals + " was just saved";
            news = who + " on another phone. If yours is the same deal, check the scoreboard " +
              "before saving. ";
          }
        }
        show();
      })
      .catch(function () { /* no signal: the note says so; asked again soon */ })
      .then(function () {
        busy = false;
        if (again) { poll(); } else { later(); }
      });
  }
  // Someone writing on the page (a query's words): it is not replaced under their fingers,
  // which would close the phone's keyboard and lose the words, while a box has their focus or
  // an open part of the page holds their words. The next poll asks in full (no ETag) and
  // fetches the page once they have sent them, or left the box empty, or closed the part.
  var owed = false;
  function writing() {
    var el = document.activeElement;
    return Array.prototype.some.call(document.querySelectorAll("main input:not([type]):not([readonly])"), function (box) {
      return box === el || box.value && box.closest("details[open]");
    });
  }
  function refreshPage(state) {
    owed = writing();
    // The news still told on the status line meanwhile.
    if (owed) { etag = null; show(); return Promise.resolve(); }
    // The page of deals shown (?deals_to=) is the page fetched again.
    return request(window.location.pathname + window.location.search, { credentials: "same-origin" })
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
        shownNight = live.dataset.night || "";
        shownAnswers = live.dataset.answers;
        // A page older than the answer that sent for it (a server behind the one that answered)
        // would be kept by the answer's ETag, every poll an empty 304: the next asks in full.
        if (version !== state.version || shownNight !== (state.night || "")) { etag = null; }
        // The waiting deals listed again, and the game's pages kept anew (offline.js).
        document.dispatchEvent(new CustomEvent("hf:page"));
        show();
      })
      // Not fetched (a dropped connection): the next poll asks in full, without the ETag that
      // the server would answer with an empty 304, and the page is fetched again then.
      .catch(function () { version = null; etag = null; });
  }
  later();
})();
