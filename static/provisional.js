// The deals waiting on this phone to be sent, counted (static/offline.js lists them): the
// scoreboard's totals, opening minimums, who deals and the next deal's number as they will be
// once the deals are sent (provisional), and the deal form's number moved on past them. Worked
// out by the phone's scorer (scorer.js, scorer_game.js withWaiting) from what the server states;
// its sentences are the server's (services/queue_words.py). The server's figures replace them
// when it has the deals. Loaded by offline.js on a game's pages.
(function () {
  "use strict";
  var hf = window.hf;
  if (!hf || !hf.waiting) { return; }
  var form = document.querySelector("form[data-preview]");
  var LINE = /\/deals\/next\/(\d+)$/;
  var stated = null;
  var asking = false;
  var shown = {}; // a new deal's key -> its number and each side's deal total, as shown waiting

  function live() { return document.querySelector("[data-live]"); }
  // The server's sentences of the queue: kept while the page's figures are asked for anew.
  var queue = null;
  // One of the server's sentences of the queue, its {names} filled in.
  function said(name, fill) {
    var text = (queue && queue[name]) || "";
    Object.keys(fill || {}).forEach(function (key) { text = text.split("{" + key + "}").join(fill[key]); });
    return text;
  }

  // The next deal's number as the server will give it once what waits here is sent: one after
  // the last new deal waiting (each numbered as its form showed), else `opened`, the server's.
  function nextDeal(opened) {
    var next = opened;
    hf.queued().forEach(function (item) {
      if (!/\/edit$/.test(item.url) && !LINE.test(item.url) && item.number >= next) { next = item.number + 1; }
    });
    return next;
  }

  function withScorer() {
    if (asking || !live()) { return; }
    asking = true;
    hf.load("scorer.js?v=");
    hf.load("scorer_game.js?v="); // the engine's second part, run after the first
    new Promise(function (resolve) {
      if (window.hfScorer) { resolve(); } else { document.addEventListener("hf:scorer", resolve); }
    }).then(function () { return window.hfScorer.ask(live().dataset.game); })
      .then(function (found) { stated = found; queue = found.queue; hf.relist(); })
      .catch(function () { /* nothing kept to score with: the deals are listed as waiting */ })
      .then(function () { asking = false; });
  }

  // --- The deal form: the next free number, and who deals it. ---
  var number = form && form.querySelector("input[name=number]");
  var opened = number ? Number(number.value) : 0;
  var kept = new URLSearchParams(window.location.search).get("kept");
  function renumber() {
    // A kept deal opened again goes with the number it was entered as: if that deal was saved
    // meanwhile, the server shows both, and the person decides. So does the server's answer to
    // it (the form still holds its key).
    if (!number || kept || form.dataset.line) { return; }
    var key = form.querySelector("input[name=idempotency_key]");
    if (hf.items().some(function (item) { return key && item.key === key.value; })) { return; }
    var next = nextDeal(opened);
    // Who deals it, as the phone's scorer works it out from what the server states (the table
    // and its first dealer, scorer.js dealer); the server's own words while it is the deal the
    // page was opened for.
    var dealer = document.querySelector("[data-dealer]");
    if (dealer && !("server" in dealer.dataset)) { dealer.dataset.server = dealer.textContent; }
    if (dealer && next === opened) { dealer.textContent = dealer.dataset.server; }
    else if (dealer && stated && window.hfScorer) {
      dealer.textContent = "Deal " + next + ": " + window.hfScorer.dealer(stated, next) + " deals";
    } else if (dealer) { withScorer(); }
    if (Number(number.value) === next) { return; }
    number.value = String(next);
    var heading = document.querySelector("h1");
    var save = form.querySelector("button[type=submit]");
    if (heading) { heading.textContent = "Enter deal " + next; }
    if (save) { save.textContent = "Save deal " + next; }
  }

  // --- The scoreboard counts the deals waiting to send: each a row marked so, and the totals,
  // the opening minimums, who deals and the next deal's number as they will be once they are
  // sent. A provisional end offers no next deal; the chart says it has only the server's. ---
  function board() { return !form && document.getElementById("totals"); }
  function keep(node) {
    if (node && !("saved" in node.dataset)) { node.dataset.saved = node.innerHTML; }
    return node;
  }
  function hide(node) {
    if (node && !node.hidden) { node.hidden = true; node.dataset.waitingHid = ""; }
  }
  function restore() {
    document.querySelectorAll("[data-waiting]").forEach(function (node) { node.remove(); });
    document.querySelectorAll("[data-saved]").forEach(function (node) {
      node.innerHTML = node.dataset.saved;
      delete node.dataset.saved;
    });
    document.querySelectorAll("[data-waiting-hid]").forEach(function (node) {
      node.hidden = false;
      delete node.dataset.waitingHid;
    });
  }
  function hint(text, before, parent) {
    var note = document.createElement("p");
    note.className = "hint";
    note.dataset.waiting = "";
    note.textContent = text;
    parent.insertBefore(note, before);
    return note;
  }
  function provisionally() {
    if (!board()) { return; }
    restore();
    var waiting = hf.waiting();
    if (!waiting.length && !Object.keys(shown).length) { return; }
    if (!stated || !window.hfScorer) { return withScorer(); }
    var S = window.hfScorer;
    if (!waiting.length) { return compare(S.play(stated, S.saved(stated), null, false)); }
    var game = S.withWaiting(stated, waiting);
    var p = game.progress;
    var totals = document.getElementById("totals");
    var words = [said("provisional")];
    if (p.finished) {
      var names = p.winners.map(function (i) { return stated.game.sides[i].name; }).join(" and ");
      words.push(said("over", { winners: names, total: S.figure(p.totals[p.winners[0]]) }));
    }
    var left = game.rows.filter(function (row) { return !row.counted; })[0];
    if (left) { words.push(said("partial", { deal: left.after || left.number })); }
    hint(words.join(" "), totals.querySelector(".sides"), totals);
    document.querySelectorAll("#totals li.side").forEach(function (side, i) {
      var total = keep(side.querySelector(".total"));
      total.lastChild.textContent = S.figure(p.totals[i]);
      var minimum = keep(side.querySelector(".minimum"));
      if (minimum) { minimum.hidden = p.finished; minimum.querySelector("b").textContent = p.minimums[i]; }
    });
    var enter = document.querySelector("a[href$='/deals/new']");
    if (p.finished) {
      // Over, by the deals waiting: no next deal is offered until the server has them.
      [document.querySelector("p.dealer"), enter && enter.parentNode, document.getElementById("lines")].forEach(hide);
    } else {
      var next = nextDeal(stated.game.deals.length + 1);
      var dealer = keep(document.querySelector("p.dealer"));
      if (dealer) { dealer.textContent = "Deal " + next + ": " + S.dealer(stated, next) + " deals"; }
      if (keep(enter)) { enter.textContent = "Enter deal " + next; }
    }
    var chart = document.querySelector("figure.chart");
    if (chart) { hint(said("chart"), chart.nextSibling, chart.parentNode); }
    rows(S, game, p);
  }
  // Each deal waiting, as a row marked so: its figures where the phone counts it, else why not.
  function rows(S, game, p) {
    var list = document.getElementById("deals-h").parentNode;
    var none = keep(list.querySelector("p.quiet"));
    if (none) { none.textContent = ""; }
    game.rows.forEach(function (row) {
      var box = document.createElement("div");
      box.className = "deal waiting";
      box.dataset.waiting = "";
      var item = box.appendChild(document.createElement("p"));
      item.className = "deal-row";
      var head = document.createElement("span");
      head.className = "deal-no";
      var what = row.number <= stated.game.deals.length && !row.stale ? "row_correction" : "row_deal";
      head.textContent = said("row_waiting", { what: said(what, { deal: row.number }) });
      item.appendChild(head);
      if (row.counted) {
        var result = p.deals[row.number - 1];
        if (row.number > stated.game.deals.length) {
          shown[row.key] = { number: row.number, totals: result.scores.map(function (score) { return score.total; }) };
        }
        stated.game.sides.forEach(function (side, i) {
          var figures = document.createElement("span");
          figures.className = "deal-side";
          figures.textContent = side.name + " " + S.signed(result.scores[i].total) + " → " + S.figure(result.totals[i]);
          item.appendChild(figures);
        });
        return list.appendChild(box);
      }
      var why = document.createElement("span");
      why.className = "deal-side";
      if (row.after) { why.textContent = said("row_after", { deal: row.after }); }
      else if (row.stale) { why.textContent = said("row_stale", { deal: row.number }); }
      else if (row.unjudged) { why.textContent = said("row_unjudged"); }
      else {
        why.textContent = said("row_refused", { why: row.refusals.map(function (r) { return r.message; }).join(" ") });
      }
      item.appendChild(why);
      list.appendChild(box);
    });
  }
  // Sent: the server's figures are on the page now. Where they differ from what this phone
  // showed while the deal waited, the server's stand, and the phone says so.
  function compare(progress) {
    var differ = [];
    Object.keys(shown).forEach(function (key) {
      var was = shown[key];
      var result = progress.deals[was.number - 1];
      if (hf.items().some(function (item) { return item.key === key; })) { delete shown[key]; return; }
      if (!result) { return; } // sent, but not on this page yet: compared once it is
      delete shown[key];
      if (result.scores.some(function (score, i) { return score.total !== was.totals[i]; })) {
        differ.push(was.number);
      }
    });
    var status = document.querySelector("[data-live-status]");
    if (differ.length && status) {
      status.textContent = "The server's figures for deal " + differ.join(", ") + " differ from this phone's; the " +
        "server's are shown.";
    }
  }

  // offline.js asks, each time the deals waiting (or the page, `fresh`) change.
  hf.counting = function (fresh) {
    if (fresh) { stated = null; }
    if (hf.queued().length && !stated) { withScorer(); }
    renumber();
    provisionally();
  };
  hf.queueWord = function (name, fill) { return said(name, fill); };
  hf.relist();
})();
