// The phone's scorer on the deal and line forms: each figure typed, the deal's breakdown drawn
// as the server draws it (or what is refused), then checked against the server's once typing
// pauses. Loaded with the deal and line forms (templates/_scorer_scripts.html), after form.js,
// scorer.js and scorer_game.js (window.hfScorer, the engine).
(function (root) {
  "use strict";

  var S = root.hfScorer;
  var fromForm = S.fromForm, extend = S.extend, correct = S.correct, saved = S.saved;
  var withWaiting = S.withWaiting, Refused = S.Refused, Unjudged = S.Unjudged, signed = S.signed, ask = S.ask;

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
      caption.appendChild(el("span", stated.words.needed_to_open.replace("{minimum}", result.minimums[i]), "quiet"));
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
      foot.appendChild(el("th", stated.words.breakdown_total)).scope = "row";
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

  // A refusal's figures (scorer.js figures) as the form names its fields: s0-books-clean.
  function fieldOf(form, figure) {
    var name = figure[1] === "went_out" ? "went_out" : "s" + figure[0] + "-" + figure[1].replace(".", "-");
    return figure[0] === null && name !== "went_out" ? null : form.querySelector("[name='" + CSS.escape(name) + "']");
  }

  function scoreTheForm(hf, game, form, target) {
    var stated = null;
    // (Comments on lines of their own: compress.minify_js keeps one that follows code.)
    // The game before this form's deal: saved deals, then those waiting here.
    var base = null;
    var timer = null;
    // What the phone refuses of the figures now on the form.
    var refused = null;
    // The server's breakdown shown in place of the phone's: the server judges.
    var differs = false;
    var editing = /\/deals\/(\d+)\/edit$/.exec(window.location.pathname);
    var numbered = form.dataset.line ? null : form.querySelector("input[name=number]");
    function said(name, deal) { return ((stated.queue || {})[name] || "").replace("{deal}", deal); }
    function score() {
      var parsed = fromForm(stated, formPairs(form), formLabels(form));
      // A new deal goes as the number its form shows (offline.js moves it on past the deals
      // waiting here); a side's line, on top of what waits.
      var next = base.deals.length + 1;
      var number = editing ? Number(editing[1]) : numbered ? Number(numbered.value) || next : next;
      var drawn;
      refused = null;
      try {
        if (parsed.unjudged) { throw new Unjudged(parsed.unjudged); }
        if (!parsed.entries) { throw new Refused(parsed.refusals); }
        if (!editing && number !== next) {
          // A deal waiting before this one is not counted here: what this one refuses of itself
          // still is, and the rest is the server's to judge.
          S.scoreDeal(stated, parsed.entries);
          throw new Unjudged([], next);
        }
        var after = editing ? correct(stated, saved(stated), number, parsed.entries) :
          extend(stated, base, parsed.entries);
        drawn = draw(stated, after.deals[number - 1], [], form.dataset.line);
      } catch (problem) {
        if (problem instanceof Refused) {
          refused = problem.refusals;
          drawn = draw(stated, null, problem.refusals, form.dataset.line);
        } else if (problem instanceof Unjudged) {
          drawn = el("p", problem.after ? said("unjudged_after", problem.after) : said("unjudged"), "hint");
        } else { throw problem; }
      }
      target.textContent = "";
      target.appendChild(drawn);
    }
    // The note that Save refused, beside the breakdown (not in it: the server's is compared).
    function unsaid() {
      var note = target.parentNode.querySelector("[data-refused-save]");
      if (note) { note.remove(); }
    }
    function changed() {
      differs = false;
      unsaid();
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
      var note = el("p", said("differs"), "warning");
      note.setAttribute("data-differs", "");
      theirs.insertBefore(note, theirs.firstChild);
      target.textContent = "";
      while (theirs.firstChild) { target.appendChild(theirs.firstChild); }
      differs = true;
    }
    // Save refuses what the phone refuses, with signal or none, as the server would: nothing is
    // sent or kept to send, and the first refused figure is brought to hand. Before the form's
    // own listeners (app.js would disable Save). A kept deal sent again to see the server's
    // answer (offline.js, data-resend) goes, as does one whose breakdown is the server's.
    document.addEventListener("submit", function (event) {
      if (event.target !== form) { return; }
      if ("resend" in form.dataset) { delete form.dataset.resend; return; }
      if (differs) { return; }
      score();
      if (!refused) { return; }
      event.preventDefault();
      event.stopPropagation();
      unsaid();
      var note = el("p", said("refused_save"), "error");
      note.setAttribute("role", "alert");
      note.setAttribute("data-refused-save", "");
      target.parentNode.insertBefore(note, target);
      var figure = refused.map(S.figures).reduce(function (all, f) { return all.concat(f); }, [])
        .map(function (f) { return fieldOf(form, f); }).filter(Boolean)[0];
      if (figure) { figure.focus(); } else { target.scrollIntoView(); }
    }, true);
    // The deals waiting on this phone to be sent come before this form's (offline.js): those
    // numbered before it, and every correction.
    function ready() {
      var mine = numbered ? Number(numbered.value) : 0;
      var before = (hf.waiting ? hf.waiting() : []).filter(function (item) {
        return !mine || /\/edit$/.test(item.url) || item.number < mine;
      });
      base = withWaiting(stated, before).progress;
      if (hf.typed()) { score(); }
    }
    // What the server states of the game comes in the form (data-stated), read at the page's
    // load; a form kept on the phone from before it did asks (the worker answers offline).
    var given = form.dataset.stated;
    (given ? Promise.resolve(JSON.parse(given)) : ask(game)).then(function (found) {
      stated = found;
      hf.scoring = true;
      form.addEventListener("input", changed);
      // A person's "change" follows an "input" already scored (redrawn, Save would move from
      // under the tap that left the field); a script's (comfort.js, offline.js) is news.
      form.addEventListener("change", function (e) { e.isTrusted || changed(); });
      document.addEventListener("hf:waiting", ready);
      ready();
    }).catch(function () { if (hf.typed()) { hf.preview(); } });
  }

  S.draw = draw;
  // On a page: its deal or line form scored from now on.
  if (root.document && root.hf) {
    var form = document.querySelector("form[data-preview]");
    var target = document.getElementById("breakdown");
    // The game's secret: its private link's segment after /t/ (a correction's page has no live
    // corner to name it), whatever its shape, which is the server's alone.
    var path = window.location.pathname.split("/");
    var game = path[1] === "t" ? path[2] : "";
    if (form && target && game && root.hf.preview) { scoreTheForm(root.hf, game, form, target); }
  }
})(window);
