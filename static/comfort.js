// The table's comfort on a game's pages (templates/_live.html loads it): the screen kept awake
// while the page is open, larger text on the scoreboard, and the name of whoever holds the
// phone, asked once (web/phone_name.py). Its words come from the template (data attributes).
(function () {
  "use strict";
  var html = document.documentElement;
  var me = document.querySelector("script[data-comfort]");

  // --- Larger text, chosen on the scoreboard and kept in a cookie of the phone's, by which the
  // server sets the class on <html> and links larger.css: the page is large from its first
  // paint (a deferred script may run after it). Set here when chosen, and on a page the phone
  // kept for no signal from before the choice.
  function larger() {
    var toggle = document.querySelector("[data-larger]");
    var on = !!toggle && /(^|; )hf-larger=1/.test(document.cookie);
    if (on && !document.querySelector("link[data-larger-css]")) {
      var css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = toggle.dataset.larger;
      css.dataset.largerCss = "";
      document.head.appendChild(css);
    }
    html.classList.toggle("larger", on);
    if (toggle) { toggle.setAttribute("aria-pressed", String(on)); }
  }
  larger();
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("[data-larger]")) { return; }
    var on = html.classList.contains("larger") ? 0 : 1;
    document.cookie = "hf-larger=" + on + ";path=/;max-age=31536000;samesite=lax";
    larger();
  });
  // A scoreboard brought up to date in place (live.js) has a new toggle.
  document.addEventListener("hf:page", larger);

  // --- Who holds the phone: kept by the server in the session (pages sent with no script)
  // and by the phone in its storage (`hf-name`: live.js and form.js send it), "" if skipped.
  // Asked once: a phone that answered on another page, or before its session began, is not
  // asked again, and the server is told what it answered.
  var store = null;
  try { store = window.localStorage; store.getItem("hf-name"); } catch (e) { store = null; }
  function tell(name) {
    var data = new FormData();
    var token = document.querySelector("input[name=csrf_token]");
    if (token) { data.append("csrf_token", token.value); }
    data.append("name", name);
    data.append("quiet", "1");
    fetch(me.dataset.name, { method: "POST", body: data, credentials: "same-origin" })
      .catch(function () { /* no signal: the phone's storage has it */ });
  }
  function asked() {
    var ask = document.querySelector("form[data-ask-name]");
    var kept = store && store.getItem("hf-name");
    if (ask && typeof kept === "string") {
      ask.remove();
      tell(kept);
    } else if (ask) {
      ask.addEventListener("submit", function (event) {
        event.preventDefault();
        var name = event.submitter && event.submitter.name === "skip" ? "" : ask.elements.name.value.trim();
        ask.remove();
        try { store.setItem("hf-name", name); } catch (e) { /* no storage: the session has it */ }
        // "Other phones see you as" on a deal or line form: live.js shows it and tells the table.
        var field = document.getElementById("me-name");
        if (field && name) {
          field.value = name;
          field.dispatchEvent(new Event("change", { bubbles: true }));
        }
        tell(name);
      });
    }
  }
  asked();
  // A scoreboard brought up to date in place may have been sent before the server was told.
  document.addEventListener("hf:page", asked);
  // The name changed where it always was: the session follows.
  document.addEventListener("change", function (event) {
    if (event.target.id === "me-name" && event.isTrusted) { tell(event.target.value.trim()); }
  });

  // --- The screen kept awake while the page is open (the Screen Wake Lock API). The phone
  // lets the lock go when the page is hidden: it is asked for again when the page shows. Where
  // the phone has none, or refuses it, the page says so once, at its foot (nothing moves).
  var lock = null;
  function dims() {
    delete html.dataset.awake;
    if (document.querySelector("[data-dims]")) { return; }
    var note = document.createElement("p");
    note.className = "hint";
    note.dataset.dims = "";
    note.textContent = me.dataset.dim;
    (document.querySelector("footer") || document.body).appendChild(note);
  }
  function awake() {
    if (document.hidden || lock) { return; }
    if (!navigator.wakeLock) { dims(); return; }
    navigator.wakeLock.request("screen").then(function (held) {
      lock = held;
      html.dataset.awake = "";
      held.addEventListener("release", function () { lock = null; delete html.dataset.awake; });
    }, dims);
  }
  awake();
  document.addEventListener("visibilitychange", awake);
})();
