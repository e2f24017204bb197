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

  // Deal and line forms: the breakdown, computed on the phone as each figure is typed (scorer.js,
  // from the rules the server states at /t/<secret>/scorer), with or without signal. With
  // signal the server's own breakdown follows a moment later: it is the one saved, so where the
  // two ever differ, the server's is shown and the phone says so. Until the scorer is there
  // (it loads once the page has painted, and the worker keeps it), the server's alone.
  var form = document.querySelector("form[data-preview]");
  var target = document.getElementById("breakdown");
  var live = document.querySelector("[data-live]");
  if (!form || !target) { return; }
  var timer = null;
  var asked = 0;
  var stated = null;
  var base = null; // the game before this form's deal: saved deals, then those waiting here
  var editing = /\/deals\/(\d+)\/edit$/.exec(window.location.pathname);

  function refresh(check) {
    var mine = ++asked;
    fetch(form.dataset.preview, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) {
        if (mine !== asked) { return; }
        if (!check) { target.innerHTML = html; return; }
        var theirs = document.createElement("div");
        theirs.innerHTML = html;
        if (words(theirs) === words(target)) { return; }
        theirs.insertAdjacentHTML("afterbegin", "<p class=\"warning\" data-differs>This phone worked " +
          "out other figures than the server's; the server's are shown, and they are what is saved.</p>");
        target.innerHTML = theirs.innerHTML;
      })
      .catch(function () { /* no signal, or refused: the phone's own figures stand */ });
  }
  // What a breakdown says, whatever the white space between its cells.
  function words(el) { return el.textContent.replace(/\s+/g, ""); }

  // The form's figures as the scorer reads them, each field named as its label names it.
  function pairs() {
    var found = [];
    new FormData(form).forEach(function (value, name) { found.push([name, value]); });
    return found;
  }
  function labels() {
    var named = {};
    form.querySelectorAll("input[inputmode=numeric]").forEach(function (input) {
      var label = input.labels && input.labels[0];
      if (label) { named[input.name] = (label.firstChild ? label.firstChild.textContent : label.textContent).trim(); }
    });
    return named;
  }

  function score() {
    var S = window.hfScorer;
    var parsed = S.fromForm(stated, pairs(), labels());
    if (!parsed.entries) { return show(null, parsed.refusals); }
    try {
      if (editing) {
        var number = Number(editing[1]);
        return show(S.correct(stated, S.saved(stated), number, parsed.entries).deals[number - 1], []);
      }
      var after = S.extend(stated, base, parsed.entries);
      return show(after.deals[after.deals.length - 1], []);
    } catch (refused) {
      if (!(refused instanceof S.Refused)) { throw refused; }
      return show(null, refused.refusals);
    }
  }

  // The breakdown as templates/_breakdown.html and _lines.html draw it, built from text only.
  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text) { node.textContent = text; }
    if (className) { node.className = className; }
    return node;
  }
  function show(result, problems) {
    var S = window.hfScorer;
    var out = document.createDocumentFragment();
    if (problems.length) {
      var list = out.appendChild(el("ul", "", "preview-problems"));
      problems.forEach(function (p) { list.appendChild(el("li", p.message)); });
    } else {
      var lines = out.appendChild(el("div", "", "lines"));
      var only = form.dataset.line;
      stated.game.sides.forEach(function (side, i) {
        if (only !== undefined && String(i) !== only) { return; }
        var score = result.scores[i];
        var table = lines.appendChild(el("table", "", "breakdown"));
        var caption = table.appendChild(el("caption", side.name + " "));
        caption.appendChild(el("span", "(needed " + result.minimums[i] + " to open)", "quiet"));
        var body = table.appendChild(el("tbody"));
        stated.words.breakdown.forEach(function (line) {
          var key = line[0];
          var detail = score.details[key];
          if (!score[key] && !detail && key !== "books" && key !== "cards") { return; }
          var row = body.appendChild(el("tr"));
          var head = row.appendChild(el("th", line[1]));
          head.scope = "row";
          if (detail) { head.appendChild(el("span", detail, "detail")); }
          row.appendChild(el("td", S.signed(score[key])));
        });
        var foot = table.appendChild(el("tfoot")).appendChild(el("tr"));
        foot.appendChild(el("th", "Deal total")).scope = "row";
        foot.appendChild(el("td", S.signed(score.total)));
      });
      result.warnings.forEach(function (w) { out.appendChild(el("p", w, "warning")); });
    }
    target.textContent = "";
    target.appendChild(out);
    return true;
  }

  function typed() {
    return Array.prototype.some.call(form.elements, function (e) {
      return (e.inputMode === "numeric" && e.value !== "") || (e.checked && e.value !== "");
    });
  }
  function changed() {
    clearTimeout(timer);
    if (stated && window.hfScorer) {
      score();
      // The server checks the phone's figures once typing pauses, where there is signal.
      if (hf.signal !== false) { timer = setTimeout(function () { refresh(true); }, 600); }
    } else {
      timer = setTimeout(refresh, 250);
    }
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);

  // The game as the phone scores it: the stated rules and saved deals, then the deals waiting
  // on this phone to be sent (offline.js), so that a deal entered with no signal is scored as
  // the deal after them.
  function ready() {
    var S = window.hfScorer;
    base = S.play(stated, S.saved(stated).concat(hf.waitingDeals ? hf.waitingDeals(stated) : []), null, false);
    if (typed()) { score(); }
  }
  document.addEventListener("hf:waiting", function () { if (stated && window.hfScorer) { ready(); } });
  // After the first paint: the scorer (kept by the worker) and what the server states.
  hf.whenIdle(function () {
    if (!live || !window.fetch) { return typed() && refresh(); }
    hf.load("scorer.js?v=");
    var script = document.querySelector("script[data-hf='scorer.js']");
    var loaded = window.hfScorer ? Promise.resolve() : new Promise(function (resolve, reject) {
      script.addEventListener("load", resolve);
      script.addEventListener("error", reject);
    });
    var asking = fetch("/t/" + live.dataset.game + "/scorer", { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); });
    Promise.all([asking, loaded]).then(function (found) {
      stated = found[0];
      ready();
    }).catch(function () { if (typed()) { refresh(); } });
  }, 500);
})();
