// Check-in on the new night's form (templates/clubs/night_new.html): "Everyone on the list",
// "Nobody" and a live count of the members ticked. Every word is the page's own (its buttons,
// and the count's data-count with {n} and data-count-none); without this file the boxes are
// ticked one by one and the form is sent as it is.
(function () {
  "use strict";
  var list = document.querySelector("[data-checkin]");
  if (!list) { return; }
  var count = list.querySelector("[data-count]");
  var boxes = list.querySelectorAll("input[type=checkbox][name=members]");
  function show() {
    var ticked = 0;
    for (var i = 0; i < boxes.length; i++) { if (boxes[i].checked) { ticked += 1; } }
    if (count) {
      count.textContent = ticked ? count.dataset.count.replace("{n}", String(ticked)) : count.dataset.countNone;
    }
  }
  function tickAll(on) {
    for (var i = 0; i < boxes.length; i++) { boxes[i].checked = on; }
    show();
  }
  var buttons = list.querySelectorAll("[data-tick]");
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].hidden = false;
    buttons[i].addEventListener("click", function (event) {
      tickAll(event.currentTarget.dataset.tick === "all");
    });
  }
  list.addEventListener("change", show);
  // A page brought back from the browser's history keeps its ticks: count them as they are.
  window.addEventListener("pageshow", show);
  show();
})();
