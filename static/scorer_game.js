// The phone's scorer, its second part: a deal's score and the game it adds to (running totals,
// opening minimums, the end and its winners, who deals, the deals waiting on this phone), as
// scorekeeper/rules/deal.py and game.py work them out. Loaded after scorer.js (a side's entry
// and the deal's checks, whose functions it takes from window.hfScorerDeal); publishes the
// whole engine as window.hfScorer and tells the page it is here ("hf:scorer").
(function (root) {
  "use strict";

  var D = root.hfScorerDeal;
  var get = D.get, each = D.each, max = D.max, comma = D.comma, refusal = D.refusal, say = D.say;
  var entry = D.entry, fromForm = D.fromForm, checkDeal = D.checkDeal;
  var melded = D.melded, leftover = D.leftover;

  // --- scores (rules/deal.py score_side, score_deal) -----------------------------------------
  function bookDetail(stated, books) {
    var said = [];
    each(books, function (kind, n) {
      if (n) {
        said.push(say(stated, "detail_book", { count: n, kind: stated.words.books[kind], bonus: get(stated.rules.book_bonuses, kind) }));
      }
    });
    return said.join(stated.sentences.comma);
  }

  function scoreSide(stated, e, other, otherName) {
    var rules = stated.rules;
    var books = 0;
    each(e.books, function (kind, n) { books += get(rules.book_bonuses, kind) * n; });
    var m = melded(rules, e);
    var l = leftover(rules, e);
    var extras = 0;
    var extraWords = [];
    each(e.bonuses, function (bonus, n) {
      extras += get(rules.extra_bonuses, bonus) * n;
      if (n) { extraWords.push(say(stated, "detail_bonus", { count: n, bonus: stated.words.bonuses[bonus] })); }
    });
    var moved = 0;
    var details = {
      books: bookDetail(stated, e.books),
      red_threes: e.red_threes_down || e.red_threes_caught ?
        say(stated, "detail_red_threes", { down: e.red_threes_down, caught: e.red_threes_caught }) : "",
      going_out: e.went_out ? say(stated, "detail_went_out") : "",
      cards: say(stated, "detail_cards", { melded: m, leftover: l }),
      extras: extraWords.join(stated.sentences.comma),
      moved: "",
    };
    if (other && rules.open_books_to_other_team) {
      each(other.open_books, function (kind, n) { moved += get(rules.book_bonuses, kind) * n; });
      moved += other.open_book_points;
      if (moved) {
        details.moved = say(stated, "detail_moved",
          { side: otherName, books: bookDetail(stated, other.open_books), points: other.open_book_points });
      }
    }
    var score = {
      books: books,
      red_threes: e.red_threes_down * (rules.red_three_down || 0) - e.red_threes_caught * rules.red_three_caught,
      going_out: e.went_out ? rules.going_out_bonus : 0,
      cards: m - l,
      extras: extras,
      moved: moved,
      melded_points: m,
      leftover_points: l,
      details: details,
    };
    score.total = score.books + score.red_threes + score.going_out + score.cards + score.extras + score.moved;
    return score;
  }

  function Refused(refusals, kind) {
    this.refusals = refusals;
    this.kind = kind || "refused";
  }

  // Figures the phone cannot judge (scorer.js parse `unjudged`), or a score it could not work
  // out: the server judges them once sent; nothing of them is shown as a figure here.
  // `after`: the deal waiting before it that the phone could not count.
  function Unjudged(inputs, after) {
    this.inputs = inputs || [];
    this.after = after || null;
  }

  function scoreDeal(stated, entries, check) {
    var refusals = check === false ? [] : checkDeal(stated, entries);
    if (refusals.length) { throw new Refused(refusals); }
    var sides = stated.game.sides;
    var scores = entries.map(function (e, index) {
      var other = null;
      if (stated.rules.open_books_to_other_team && entries.length === 2) { other = entries[1 - index]; }
      return scoreSide(stated, e, other, other ? sides[1 - index].name : "");
    });
    if (!scores.every(function (score) { return isFinite(score.total); })) { throw new Unjudged(); }
    return scores;
  }

  // --- a game (rules/game.py play, extend, correct_deal) ------------------------------------
  function openingMinimum(rules, number, total) {
    var basis = rules.minimum_basis === "deal" ? number : total;
    var minimum = rules.opening_minimums[0][1];
    rules.opening_minimums.forEach(function (step) { if (basis >= step[0]) { minimum = step[1]; } });
    return minimum;
  }
  function minimums(rules, number, totals) {
    return totals.map(function (total) { return openingMinimum(rules, number, total); });
  }

  function end(rules, number, totals) {
    var over = (rules.end_after_deals !== null && number >= rules.end_after_deals) ||
      (rules.target_score !== null && max(totals) >= rules.target_score);
    if (!over) { return [false, []]; }
    var best = max(totals);
    var winners = [];
    totals.forEach(function (total, index) { if (total === best) { winners.push(index); } });
    if (winners.length > 1 && rules.tie_rule === "play_on") { return [false, []]; }
    return [true, winners];
  }

  function afterEnd(stated, ended, count, corrected, winners) {
    var names = D.both(stated, winners.map(function (i) { return stated.game.sides[i].name; }));
    if (corrected !== null && corrected <= ended && ended < count) {
      var follow = say(stated, ended + 1 === count ? "follows_one" : "follows_many", { deal: ended + 1, last: count });
      return refusal(null, "deal", say(stated, "would_end", { ended: ended, names: names, follow: follow }));
    }
    return refusal(null, "deal", say(stated, "game_over", { names: names, ended: ended }));
  }

  function start(stated) {
    var zeros = stated.game.sides.map(function () { return 0; });
    return { deals: [], totals: zeros, minimums: minimums(stated.rules, 1, zeros), finished: false, winners: [] };
  }

  function step(stated, progress, entries, corrected, check) {
    var number = progress.deals.length + 1;
    var scores;
    try {
      scores = scoreDeal(stated, entries, check);
    } catch (refused) {
      if (!(refused instanceof Refused) || corrected === null || corrected === number) { throw refused; }
      // Its refusals joined as the engine's DealRefused joins them (rules/refusals.py).
      var why = refused.refusals.map(function (r) { return r.message; }).join(stated.sentences.joined);
      throw new Refused([refusal(null, "deal", say(stated, "no_longer_adds_up", { number: number, why: why }))]);
    }
    var totals = progress.totals.map(function (total, i) { return total + scores[i].total; });
    var warnings = [];
    stated.game.sides.forEach(function (side, i) {
      var m = scores[i].melded_points;
      var needed = progress.minimums[i];
      if (m > 0 && m < needed) {
        warnings.push(say(stated, "below_minimum", { side: side.name, melded: m, needed: needed }));
      }
    });
    var result = { number: number, scores: scores, minimums: progress.minimums, totals: totals, warnings: warnings };
    var ended = end(stated.rules, number, totals);
    return {
      deals: progress.deals.concat([result]),
      totals: totals,
      minimums: minimums(stated.rules, number + 1, totals),
      finished: ended[0],
      winners: ended[1],
    };
  }

  // Every deal in order; `corrected` is a deal just changed, the only one checked (as the server
  // replays a saved game: deals were checked when they were saved). Throws Refused.
  function play(stated, deals, corrected, check) {
    corrected = corrected === undefined ? null : corrected;
    var progress = start(stated);
    deals.forEach(function (entries, i) {
      var number = i + 1;
      if (progress.finished) {
        var r = afterEnd(stated, number - 1, deals.length, corrected, progress.winners);
        throw new Refused([r], corrected !== null && corrected < number ? "refused" : "over");
      }
      progress = step(stated, progress, entries, corrected, check !== false || number === corrected);
    });
    return progress;
  }

  function limitReached(stated, progress) {
    var most = stated.rules.deal_limit;
    if (progress.deals.length < most) { return null; }
    return refusal(null, "deal", say(stated, "deal_limit", { most: most }));
  }

  // `progress` with one more deal, checked; throws Refused.
  function extend(stated, progress, entries) {
    if (progress.finished) {
      var ended = progress.deals.length;
      throw new Refused([afterEnd(stated, ended, ended + 1, null, progress.winners)], "over");
    }
    var full = limitReached(stated, progress);
    if (full) { throw new Refused([full], "full"); }
    return step(stated, progress, entries, null, true);
  }

  // The game with deal `number` replaced and every later deal recomputed; throws Refused.
  function correct(stated, deals, number, entries) {
    var changed = deals.slice(0, number - 1).concat([entries], deals.slice(number));
    return play(stated, changed, number, false);
  }

  // The saved deals, as the server states them, as the engine's entries.
  function saved(stated) {
    return stated.game.deals.map(function (scores) { return scores.map(entry); });
  }

  // Who deals the given deal (rules/seating.py dealer): the deal passes to the left.
  function dealer(stated, number) {
    var table = stated.game.table;
    return table[(stated.game.first_dealer + number - 1) % table.length];
  }

  // The game with the deals waiting on this phone to be sent (offline.js; each as its form was
  // sent, oldest first): a correction in its deal's place, a new deal after the saved ones with
  // the number its form showed, as the server numbers them once they are sent one after another.
  // The phone counts them in order up to the first it cannot, and none after it (`after`: the
  // deal they wait for): one it refuses (`refusals`), cannot judge (`unjudged`), or numbered
  // otherwise than the server's next (`stale`: a deal saved meanwhile). The server judges each
  // once sent. `progress` is the game with the deals counted.
  function withWaiting(stated, items) {
    var deals = saved(stated);
    var gap = null;
    var next = deals.length + 1;
    var rows = items.map(function (item) {
      var parsed = fromForm(stated, Array.from(new URLSearchParams(item.body)), null);
      var edit = /\/deals\/(\d+)\/edit$/.exec(item.url);
      var number = edit ? Number(edit[1]) : Number(item.number) || next;
      if (!edit) { next = number + 1; }
      var row = { key: item.key, number: number, refusals: parsed.refusals, unjudged: !!parsed.unjudged };
      if (gap !== null) { row.after = gap; return row; }
      if (edit ? number > deals.length : number !== deals.length + 1) {
        if (number <= deals.length) { row.stale = true; } else { row.after = deals.length + 1; }
      } else if (parsed.entries) {
        try {
          if (edit) {
            correct(stated, deals, number, parsed.entries);
            deals = deals.slice();
            deals[number - 1] = parsed.entries;
          } else {
            extend(stated, play(stated, deals, null, false), parsed.entries);
            deals = deals.concat([parsed.entries]);
          }
          row.counted = true;
        } catch (refused) {
          if (refused instanceof Unjudged) { row.unjudged = true; }
          else if (refused instanceof Refused) { row.refusals = refused.refusals; }
          else { throw refused; }
        }
      }
      if (!row.counted) { gap = row.after || number; }
      return row;
    });
    return { rows: rows, progress: play(stated, deals, null, false), next: next };
  }
  // What the server states of a game (web/scorer.py); the worker answers with no signal.
  function ask(game) {
    return fetch("/t/" + game + "/scorer", { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); });
  }

  root.hfScorer = {
    entry: entry,
    fromForm: fromForm,
    parse: D.parse,
    checkDeal: checkDeal,
    scoreDeal: scoreDeal,
    play: play,
    extend: extend,
    correct: correct,
    saved: saved,
    dealer: dealer,
    withWaiting: withWaiting,
    limitReached: limitReached,
    figures: D.figures,
    Refused: Refused,
    Unjudged: Unjudged,
    comma: comma,
    signed: D.signed,
    figure: D.figure,
    ask: ask,
  };
  // On a page: provisional.js (the scoreboard's deals waiting to send) is told the scorer is here.
  if (root.document && root.hf) { document.dispatchEvent(new CustomEvent("hf:scorer")); }
})(typeof window !== "undefined" ? window : this);
