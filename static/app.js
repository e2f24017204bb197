// Progressive enhancement only: every page works without the app's scripts. Where a browser
// runs none, static/nojs.css (in base.html's <noscript>) hides the controls only they work.
//
// Kept small, because every page loads it on its first visit: what only some pages need comes
// in scripts of their own. form.js enhances the deal, line and new-game forms; live.js (loaded
// by the game's pages, templates/_live.html) keeps every phone at the table in step; and
// offline.js (the deals waiting to send, the pages kept for no signal) is only loaded once the
// service worker (static/sw.js) looks after the page, which a first visit never is. Copy and
// Share are here, a few lines that a game's pages and a club's settings share (issue 28): one
// copy, and no script of their own to fetch.
(function () {
  "use strict";
  var hf = (window.hf = window.hf || {});
  var worker = "serviceWorker" in navigator ? navigator.serviceWorker : null;
  var folder = ((document.currentScript && document.currentScript.src) || "/static/app.js")
    .replace(/[^/]*$/, "");

  // Another of the app's scripts, once: run in the order asked. Named with its version
  // ("form.js?v=", filled in as the app serves this file: scorekeeper/plumbing/compress.py).
  hf.load = function (file) {
    var name = file.split("?")[0];
    if (document.querySelector("script[data-hf='" + name + "']")) { return; }
    var script = document.createElement("script");
    script.src = folder + file;
    script.async = false;
    script.dataset.hf = name;
    document.head.appendChild(script);
  };

  // Work put off until the phone is idle (at most `within` ms), so a page's first moments go
  // to showing it; where the browser cannot tell idle, after `otherwise` ms.
  hf.whenIdle = function (work, within, otherwise) {
    if (window.requestIdleCallback) { window.requestIdleCallback(work, { timeout: within }); }
    else { setTimeout(work, otherwise || 0); }
  };

  // A message to the service worker, when it looks after this page.
  hf.tell = function (message) {
    if (worker && worker.controller) { worker.controller.postMessage(message); }
  };

  // A fresh key in the shape the server takes (services/deals.py FORM_KEY, stated by a game's
  // live corner in `data-key`: as many hex digits as it counts); where no page says it, none,
  // and the server makes one. getRandomValues works on plain http, where randomUUID does not.
  hf.freshKey = function () {
    var key = document.querySelector("[data-key]");
    // [0-9a-f]{32}: the count is the pattern's last number; two hex digits a byte.
    return Array.from(crypto.getRandomValues(new Uint8Array(key ? key.dataset.key.match(/\d+/g).pop() / 2 : 0)), function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  };

  // Whether this page's requests get through: a page the worker showed from the phone starts
  // without signal (sw.js marks it). live.js keeps it up to date.
  hf.signal = !document.documentElement.hasAttribute("data-from-phone");

  // Copy and Share: a game's link and result (the scoreboard), a club's table link (its
  // settings). The phone's share sheet for a [data-share] button where it has one, else the
  // clipboard, where the phone lets a page write it. app.css shows the buttons from the start;
  // a phone that can do neither loses them (html.no-copy, no-share). Listened for on the
  // document: a scoreboard brought up to date in place (live.js) has new buttons.
  var copies = !!(navigator.clipboard && window.isSecureContext);
  var shares = !!navigator.share;
  if (!copies) { document.documentElement.classList.add("no-copy"); }
  if (!shares) { document.documentElement.classList.add("no-share"); }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) { return; }
    var said = button.parentNode.querySelector("[data-copied]");
    var text = document.getElementById(button.dataset.copy).value;
    function say(words) { if (said) { said.textContent = words; } }
    function copy() {
      if (!copies) { return say("Select the text and copy it."); }
      navigator.clipboard.writeText(text).then(function () { say("Copied."); },
        function () { say("Select the text and copy it."); });
    }
    if (!shares || !button.hasAttribute("data-share")) { return copy(); }
    // Closing the share sheet is the person's choice, not a failure to copy around.
    navigator.share({ text: text }).then(function () { say("Shared."); },
      function (error) { if (error.name !== "AbortError") { copy(); } });
  });
  document.querySelectorAll("[data-copy]").forEach(function (button) { button.hidden = false; });

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

  if (document.querySelector("form[data-preview], [data-add-side], button.step")) {
    hf.load("form.js?v=");
  }
  // A game's page kept on the phone before its pages named live.js themselves.
  if (document.querySelector("[data-live]") && !document.querySelector("script[src*='live.js']")) {
    hf.load("live.js?v=");
  }
  if ((worker && worker.controller) || document.querySelector("[data-kept]")) {
    hf.load("offline.js?v=");
  }

  // The service worker keeps pages for no signal; registering it (and its install, which
  // fetches the app's files and the offline page) waits until this page has loaded and the
  // phone is idle, so a first visit loads nothing it does not need yet.
  if (worker) {
    // No worker (a refusal caught, so none is reported): the pages still work online. The
    // reason is said here, not inside the catch, where the page would carry it (test_minify.py).
    var register = function () {
      worker.register("/sw.js").catch(function () {});
    };
    var idle = function () { hf.whenIdle(register, 3000, 1000); };
    if (document.readyState === "complete") { idle(); } else { window.addEventListener("load", idle); }
  }
})();
