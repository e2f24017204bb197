// The night board (templates/clubs/night_board.html): asks every second whether the night
// changed, with the ETag of the last answer (304 when nothing did), and puts the new board in
// place. A hidden page (another tab, the phone asleep) does not ask.
(function () {
  "use strict";
  var board = document.querySelector("[data-board]");
  if (!board || !window.fetch || !window.DOMParser) { return; }
  var every = parseInt(board.dataset.poll, 10) || 1000;
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
        // Gone (the night deleted, the table link replaced): asking again would change nothing.
        if (response.status === 403 || response.status === 404) { every = 0; }
        if (response.status !== 200) { return null; }
        etag = response.headers.get("ETag");
        return response.text();
      })
      .then(function (page) {
        if (!page) { return; }
        var fresh = new DOMParser().parseFromString(page, "text/html").querySelector("[data-board]");
        if (fresh) { board.replaceChildren.apply(board, Array.prototype.slice.call(fresh.childNodes)); }
      })
      .catch(function () { etag = null; })
      .then(function () { busy = false; later(); });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { clearTimeout(timer); } else { poll(); }
  });
  later();
}());
