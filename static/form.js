// The forms' helpers (loaded by app.js where a page has them): +/- steppers, more sides on a
// new game, the books going out needs, and the deal's breakdown as it is entered.
//
// app.css lays out the steppers, the "Add a side" button and the going-out hint from the first
// paint (and hides the optional side rows), so nothing moves when this script starts.
(function () {
  "use strict";
  var hf = window.hf;

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

  // New game: two side rows (app.css hides the optional ones), and more on request.
  var add = document.querySelector("[data-add-side]");
  function hiddenRow() { return document.querySelector("[data-side-row].optional:not(.shown)"); }
  if (add) {
    add.hidden = false;
    if (!hiddenRow()) { add.classList.add("gone"); }
    add.addEventListener("click", function () {
      var next = hiddenRow();
      if (next) {
        next.classList.add("shown");
        next.querySelector("input").focus();
      }
      if (!hiddenRow()) { add.classList.add("gone"); }
    });
  }

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

  // Deal and line forms: the breakdown as figures are entered. The phone's scorer (scorer.js,
  // which comes with the page and is kept by the worker) computes it at each keystroke,
  // with or without signal; until it is there, or where it cannot be, the server's breakdown,
  // asked for as typing pauses.
  var form = document.querySelector("form[data-preview]");
  var target = document.getElementById("breakdown");
  if (!form || !target) { return; }
  var timer = null;
  var asked = 0;
  // A deal or a correction says who saved it (the phone's name, "Other phones see you as",
  // kept by live.js): the table's other phones are told "Ann corrected deal 1: ...". A side's
  // own line names its sender itself (live.js).
  if (!form.dataset.line) {
    form.addEventListener("submit", function () {
      var name = form.elements.sent_by ||
        form.appendChild(Object.assign(document.createElement("input"), { type: "hidden", name: "sent_by" }));
      // (A phone with no storage to read sends no name.)
      try { name.value = localStorage.getItem("hf-name") || ""; } catch (e) { return; }
    });
  }
  // The server's breakdown of the figures on the form: shown, or given to `check` (scorer.js).
  hf.preview = function (check) {
    var mine = ++asked;
    fetch(form.dataset.preview, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) {
        // Only the last asked; and once the phone scores, only to check its figures.
        if (mine !== asked || (!check && hf.scoring)) { return; }
        if (check) { check(html); } else { target.innerHTML = html; }
      })
      // No signal, or refused: the saved figure is checked on submit.
      .catch(function () { return; });
  };
  function changed(event) {
    if (hf.scoring) { return; }
    clearTimeout(timer);
    timer = setTimeout(hf.preview, event.type === "change" ? 0 : 250);
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  // Whether any figure is on the form (scorer_form.js asks too).
  hf.typed = function () {
    return Array.prototype.some.call(form.elements, function (el) {
      return (el.inputMode === "numeric" && el.value !== "") || (el.checked && el.value !== "");
    });
  };
  // The phone's scorer comes with the page (templates/_scorer_scripts.html), so that a phone
  // that loses signal once the form has loaded still scores it (issue 40: fetched at the first
  // touch, it never came). A form kept on the phone before then names no scorer: loaded here.
  hf.load("scorer.js?v=");
  hf.load("scorer_game.js?v=");
  hf.load("scorer_form.js?v=");
})();
