// The phone's scorer on the deal and line forms: each figure typed, the deal's breakdown drawn
// as the server draws it (or what is refused), then checked against the server's once typing
// pauses. Loaded by form.js after scorer.js and scorer_game.js (window.hfScorer, the engine).
(function (root) {
  "use strict";

  var S = root.hfScorer;
  var fromForm = S.fromForm, extend = S.extend, correct = S.correct, saved = S.saved;
  var withWaiting = S.withWaiting, Refused = S.Refused, signed = S.signed, ask = S.ask;

  // --- a breakdown drawn ------------------------------------------------------------------
  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text) { node.textContent = text; }
    if (className) { node.className = className; }
    return node;
  }
  // A deal's breakdown as templates/_breakdown.html and _lines.html draw it (only side `only`,
  // on a side's own line), or what is refused; built from text, never from HTML.
  function draw(stated, result, problems, only) {
    var out = document.createDocumentFragment();
    if (problems.length) {
      var list = out.appendChild(el("ul", "", "preview-problems"));
      problems.forEach(function (p) { list.appendChild(el("li", p.message)); });
      return out;
    }
    var lines = out.appendChild(el("div", "", "lines"));
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
        row.appendChild(el("td", signed(score[key])));
      });
      var foot = table.appendChild(el("tfoot")).appendChild(el("tr"));
      foot.appendChild(el("th", "Deal total")).scope = "row";
      foot.appendChild(el("td", signed(score.total)));
    });
    result.warnings.forEach(function (w) { out.appendChild(el("p", w, "warning")); });
    return out;
  }

  // --- the deal and line forms: scored at each keystroke ---------------------------------
  // What a breakdown says, whatever the white space between its cells.
  function words(node) { return node.textContent.replace(/\s+/g, ""); }
  // The form's figures, each field named as its label names it, for the refusal of one that is
  // no number (web/forms.py FigureField).
  function formPairs(form) {
    var found = [];
    new FormData(form).forEach(function (value, name) { found.push([name, value]); });
    return found;
  }
  function formLabels(form) {
    var named = {};
    form.querySelectorAll("input[inputmode=numeric]").forEach(function (input) {
      var label = input.labels && input.labels[0];
      if (label) { named[input.name] = (label.firstChild || label).textContent.trim(); }
    });
    return named;
  }

  function scoreTheForm(hf, game, form, target) {
    var stated = null;
    var base = null; // the game before this form's deal: saved deals, then those waiting here
    var timer = null;
    var editing = /\/deals\/(\d+)\/edit$/.exec(window.location.pathname);
    function score() {
      var parsed = fromForm(stated, formPairs(form), formLabels(form));
      var drawn;
      if (!parsed.entries) {
        drawn = draw(stated, null, parsed.refusals, form.dataset.line);
      } else {
        try {
          var number = editing ? Number(editing[1]) : base.deals.length + 1;
          var after = editing ? correct(stated, saved(stated), number, parsed.entries) :
            extend(stated, base, parsed.entries);
          drawn = draw(stated, after.deals[number - 1], [], form.dataset.line);
        } catch (refused) {
          if (!(refused instanceof Refused)) { throw refused; }
          drawn = draw(stated, null, refused.refusals, form.dataset.line);
        }
      }
      target.textContent = "";
      target.appendChild(drawn);
    }
    function changed() {
      score();
      // The server checks the phone's figures once typing pauses, where there is signal.
      clearTimeout(timer);
      if (hf.signal !== false) { timer = setTimeout(function () { hf.preview(check); }, 600); }
    }
    // The server's figure is the one saved: where its breakdown says otherwise than the phone's,
    // it is shown, and the phone says so.
    function check(html) {
      var theirs = document.createElement("div");
      theirs.innerHTML = html;
      if (words(theirs) === words(target)) { return; }
      var note = el("p", "This phone worked out other figures than the server's; the server's are " +
        "shown, and they are what is saved.", "warning");
      note.setAttribute("data-differs", "");
      theirs.insertBefore(note, theirs.firstChild);
      target.textContent = "";
      while (theirs.firstChild) { target.appendChild(theirs.firstChild); }
    }
    // The deals waiting on this phone to be sent come before this form's (offline.js).
    function ready() {
      base = withWaiting(stated, hf.waiting ? hf.waiting() : []).progress;
      if (hf.typed()) { score(); }
    }
    ask(game).then(function (found) {
      stated = found;
      hf.scoring = true;
      form.addEventListener("input", changed);
      form.addEventListener("change", changed);
      document.addEventListener("hf:waiting", ready);
      ready();
    }).catch(function () { if (hf.typed()) { hf.preview(); } });
  }

  S.draw = draw;
  // On a page: its deal or line form scored from now on.
  if (root.document && root.hf) {
    var form = document.querySelector("form[data-preview]");
    var target = document.getElementById("breakdown");
    // The game's secret, from its private link (a correction's page has no live corner).
    var game = /^\/t\/([\w-]{22})\//.exec(window.location.pathname);
    if (form && target && game && root.hf.preview) { scoreTheForm(root.hf, game[1], form, target); }
  }
})(window);
