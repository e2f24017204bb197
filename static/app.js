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
