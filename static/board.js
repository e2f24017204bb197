// The night board (templates/clubs/night_board.html): asks every second whether the night
// changed, with the ETag of the last answer (304 when nothing did), and puts the new board in
// place. A hidden page (another tab, the phone asleep) does not ask.
//
// The board fits the screen it is on, never scrolled: where the tables or the standings do not
// fit their box ([data-pages]), they are shown a page at a time, as many as fit, turning by
// themselves so that every row comes round within the cycle the page states (data-cycle-ms, each
// page at most data-page-ms). A poll that brings a new board keeps the page each box was on.
(function () {
  "use strict";
  var board = document.querySelector("[data-board]");
  if (!board) { return; }
  var every = parseInt(board.dataset.poll, 10) || 1000;
  var pageMs = parseInt(board.dataset.pageMs, 10) || 0;
  var cycleMs = parseInt(board.dataset.cycleMs, 10) || 0;
  var words = board.dataset.pageWords || "";
  var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  // Each box's pages ([from, to) of its items), the page shown and since when, by its name.
  var paging = {};

  function fits(box) { return box.scrollHeight <= box.clientHeight + 1; }
  // A box's items are its [data-page-item]s, or what its data-page-items names (the
  // standings' rows); a [data-page-group] (a round) shows while any of its items does.
  function itemsOf(box) {
    return Array.prototype.slice.call(box.querySelectorAll(box.dataset.pageItems || "[data-page-item]"));
  }
  function show(box, items, from, to) {
    items.forEach(function (item, i) { item.hidden = i < from || i >= to; });
    box.querySelectorAll("[data-page-group]").forEach(function (group) {
      group.hidden = !group.querySelector("[data-page-item]:not([hidden])");
    });
  }
  function pagesOf(box, items) {
    var said = box.querySelector("[data-page-of]");
    if (said) { said.hidden = true; }
    show(box, items, 0, items.length);
    if (fits(box) || items.length < 2) { return [[0, items.length]]; }
    // The page's own line takes its room while the pages are measured.
    if (said) { said.textContent = words; said.hidden = false; }
    var pages = [];
    var from = 0;
    while (from < items.length) {
      var to = from + 1;
      while (to < items.length) {
        show(box, items, from, to + 1);
        if (!fits(box)) { break; }
        to += 1;
      }
      pages.push([from, to]);
      from = to;
    }
    return pages;
  }
  function turnTo(box, kept, page, turned) {
    var items = itemsOf(box);
    kept.page = page % kept.pages.length;
    kept.since = Date.now();
    show(box, items, kept.pages[kept.page][0], kept.pages[kept.page][1]);
    var said = box.querySelector("[data-page-of]");
    if (said) {
      said.hidden = kept.pages.length < 2;
      said.textContent = words.replace("{page}", kept.page + 1).replace("{pages}", kept.pages.length);
    }
    if (turned && !(still && still.matches)) {
      box.classList.remove("turned");
      void box.offsetWidth;  // starts the fade again
      box.classList.add("turned");
    }
  }
  function lay() {
    board.querySelectorAll("[data-pages]").forEach(function (box) {
      var kept = paging[box.dataset.pages] || { page: 0, since: Date.now() };
      paging[box.dataset.pages] = kept;
      kept.pages = pagesOf(box, itemsOf(box));
      var since = kept.since;
      turnTo(box, kept, Math.min(kept.page, kept.pages.length - 1), false);
      kept.since = since;  // a poll does not hold the page back
    });
  }
  function tick() {
    board.querySelectorAll("[data-pages]").forEach(function (box) {
      var kept = paging[box.dataset.pages];
      if (!kept || kept.pages.length < 2 || !pageMs) { return; }
      var each = Math.min(pageMs, Math.floor(cycleMs / kept.pages.length) || pageMs);
      if (Date.now() - kept.since >= each) { turnTo(box, kept, kept.page + 1, true); }
    });
  }
  lay();
  window.addEventListener("resize", lay);
  setInterval(tick, 250);

  if (!window.fetch || !window.DOMParser) { return; }
  // The version the page was drawn at: the first ask is answered 304 if nothing changed since.
  var etag = board.dataset.version ? "\"" + board.dataset.version + "\"" : null;
  var timer = null;
  var busy = false;

  function later() {
    clearTimeout(timer);
    if (every && !document.hidden) { timer = setTimeout(poll, every); }
  }
  function poll() {
    clearTimeout(timer);
    if (busy || !every || document.hidden) { return; }
    busy = true;
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(board.dataset.board, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        // Gone (the night deleted, the table link or board link replaced): asking again would
        // change nothing.
        if (response.status === 403 || response.status === 404) { every = 0; }
        if (response.status !== 200) { return null; }
        etag = response.headers.get("ETag");
        return response.text();
      })
      .then(function (page) {
        if (!page) { return; }
        var fresh = new DOMParser().parseFromString(page, "text/html").querySelector("[data-board]");
        if (fresh) {
          board.replaceChildren.apply(board, Array.prototype.slice.call(fresh.childNodes));
          lay();
        }
      })
      .catch(function () { etag = null; })
      .then(function () { busy = false; later(); });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { clearTimeout(timer); } else { poll(); }
  });
  later();
}());
