// The phone's scorer: a deal's breakdown, the running totals, the next opening minimums, the
// winner and the refusals it can judge, computed on the phone as figures are typed, with or
// without signal (docs/LIVE.md, *Where each figure is computed*).
//
// It holds the engine's functions (scorekeeper/rules/deal.py, game.py and limits.py), never
// their numbers or words: every rule, deck count and label comes from what the server states
// (GET /t/<secret>/scorer, scorekeeper/rules/stated.py). The server's figure is the one saved;
// tests/browser/test_scorer_differential.py runs this file in Chromium against the engine on
// thousands of deals. Loaded by form.js and offline.js once the page has painted; runs in a
// page or, for that test, anywhere with no DOM at all.
(function (root) {
  "use strict";

  function has(object, key) { return !!object && Object.prototype.hasOwnProperty.call(object, key); }
  function get(object, key) { return has(object, key) ? object[key] : 0; }
  function each(object, work) { Object.keys(object || {}).forEach(function (key) { work(key, object[key]); }); }
  function filled(object) { return !!object && Object.keys(object).length > 0; }
  function sum(list) { return list.reduce(function (a, b) { return a + b; }, 0); }
  function plural(n) { return n !== 1 ? "s" : ""; }
  function max(list) { return Math.max.apply(null, list); }

  // 1234567 as "1,234,567"; a negative with the true minus sign where `minus` asks for it.
  function comma(n, minus) {
    var digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (n < 0 ? (minus || "-") : "") + digits;
  }
  // A score as the sheet shows it: +1,355, +0, −35.
  function signed(n) { return (n < 0 ? "\u2212" : "+") + comma(Math.abs(n)); }
  function figure(n) { return comma(n, "\u2212"); }

  // --- an entry: what one side reports (rules/deal.py DealEntry) ---------------------------
  function entry(data) {
    data = data || {};
    return {
      books: data.books || {},
      red_threes_down: data.red_threes_down || 0,
      red_threes_caught: data.red_threes_caught || 0,
      went_out: !!data.went_out,
      melded_points: has(data, "melded_points") ? data.melded_points : null,
      melded_cards: data.melded_cards || null,
      leftover_points: has(data, "leftover_points") ? data.leftover_points : null,
      leftover_cards: data.leftover_cards || null,
      bonuses: data.bonuses || {},
      open_books: data.open_books || {},
      open_book_points: data.open_book_points || 0,
    };
  }
  function cardPoints(rules, points, cards) {
    if (filled(cards)) {
      return sum(Object.keys(cards).map(function (c) { return rules.card_values[c] * cards[c]; }));
    }
    return points || 0;
  }
  function melded(rules, e) { return cardPoints(rules, e.melded_points, e.melded_cards); }
  function leftover(rules, e) { return cardPoints(rules, e.leftover_points, e.leftover_cards); }
  function refusal(side, field, message, inputs) {
    return { side: side, field: field, message: message, inputs: inputs || null };
  }
  // The figures a refusal is about (rules/refusals.py Refusal.figures).
  function figures(r) {
    if (r.inputs) { return r.inputs; }
    return r.side !== null ? [[r.side, r.field]] : [];
  }

  // The figures of a form (pairs of name and value, as the page or a kept deal has them), as
  // the engine's entries: web/forms.py FigureField and entries_data, then the engine's parse.
  // `labels` names each field as its page does, for the refusal of a figure that is no number.
  function fromForm(stated, pairs, labels) {
    var sides = stated.game.sides;
    var data = sides.map(function () { return {}; });
    var wentOut = null;
    var fieldErrors = [];
    var most = stated.max_figure;
    pairs.forEach(function (pair) {
      var name = pair[0];
      var raw = String(pair[1]).trim();
      if (name === "went_out") { if (raw !== "") { wentOut = raw; } return; }
      var found = /^s(\d+)-([a-z_]+)(?:-([a-z_0-9]+))?$/.exec(name);
      if (!found || Number(found[1]) >= sides.length || raw === "") { return; }
      var side = Number(found[1]);
      var what = sides[side].name + ": " + ((labels && labels[name]) || name).toLowerCase();
      if (!/^[0-9]+$/.test(raw)) {
        fieldErrors.push(refusal(side, name, what + " must be a whole number of 0 or more, not '" + raw + "'."));
        return;
      }
      if (raw.length > String(most).length || Number(raw) > most) {
        fieldErrors.push(refusal(side, name, what + ": " + raw + " is far more than any deal holds."));
        return;
      }
      var value = Number(raw);
      if (found[3]) {
        data[side][found[2]] = data[side][found[2]] || {};
        data[side][found[2]][found[3]] = value;
      } else {
        data[side][found[2]] = value;
      }
    });
    if (fieldErrors.length) { return { refusals: fieldErrors, entries: null }; }
    data.forEach(function (d, i) { d.went_out = wentOut === String(i); });
    return parse(stated, data);
  }

  // What the engine's parse refuses of figures that are each a whole number (rules/deal.py
  // _parse, then games.entries_from names the side).
  function parse(stated, data) {
    var refusals = [];
    var fields = stated.words.fields;
    data.forEach(function (d, side) {
      [["melded_points", "melded_cards"], ["leftover_points", "leftover_cards"]].forEach(function (pair) {
        if (has(d, pair[0]) && d[pair[0]] !== null && filled(d[pair[1]])) {
          refusals.push(refusal(side, pair[1], stated.game.sides[side].name + ": Give " +
            fields[pair[0]] + " or count the cards, not both."));
        }
      });
    });
    return refusals.length ? { refusals: refusals, entries: null } : { refusals: [], entries: data.map(entry) };
  }

  // --- checks (rules/deal.py check_deal, _check_side; rules/limits.py check_decks) -----------
  function countsAs(rules, kind) { return rules.book_counts_as[kind]; }

  function missingBooks(rules, e) {
    var held = {};
    each(e.books, function (kind, count) {
      if (has(rules.book_bonuses, kind)) {
        var as = countsAs(rules, kind);
        held[as] = get(held, as) + count;
      }
    });
    var missing = {};
    each(rules.books_to_go_out, function (kind, needed) {
      if (needed > get(held, kind)) { missing[kind] = needed - get(held, kind); }
    });
    return missing;
  }

  function describe(books) {
    var parts = [];
    each(books, function (kind, n) { if (n) { parts.push(n + " " + kind + " book" + plural(n)); } });
    return parts.slice(0, -1).join(", ") + (parts.length > 1 ? " and " : "") + parts[parts.length - 1];
  }

  function checkSide(stated, index, side, e) {
    var rules = stated.rules;
    var words = stated.words;
    var called = stated.called;
    var out = [];
    function refuse(name, message) { out.push(refusal(index, name, side.name + ": " + message)); }
    ["books", "open_books"].forEach(function (name) {
      each(e[name], function (kind, count) {
        if (count && !has(rules.book_bonuses, kind)) {
          refuse(name + "." + kind, called + " have no " + words.books[kind] + " book.");
        }
      });
    });
    if ((filled(e.open_books) || e.open_book_points) && !rules.open_books_to_other_team) {
      refuse(filled(e.open_books) ? "open_books" : "open_book_points",
        "open books are not scored under " + called + ".");
    }
    if (e.red_threes_down && rules.red_three_down === null) {
      refuse("red_threes_down", "red threes cannot be laid down under " + called + ".");
    }
    each(e.bonuses, function (bonus, count) {
      if (count && !has(rules.extra_bonuses, bonus)) {
        refuse("bonuses." + bonus, called + " have no '" + bonus + "' bonus.");
      } else if (count > side.players) {
        refuse("bonuses." + bonus, count + " players " + words.bonuses[bonus] + ", but the side has " +
          side.players + ".");
      }
    });
    ["melded_points", "leftover_points", "open_book_points"].forEach(function (name) {
      var value = e[name];
      if (value && value % 5) {
        refuse(name, words.fields[name] + " of " + value + " is not a multiple of 5; every card is.");
      }
    });
    var threes = get(e.melded_cards, "black_three");
    if (threes && rules.melded_black_threes !== "always") {
      var inBook = get(e.books, "black_threes") && has(rules.book_bonuses, "black_threes");
      if (rules.melded_black_threes === "never" && !inBook) {
        refuse("melded_cards.black_three", threes + " black three" + plural(threes) + " melded, but " +
          "threes cannot be melded under " + called + ": a black three is only discarded, or counted " +
          "with the cards left in a hand or foot.");
      } else if (!e.went_out) {
        refuse("melded_cards.black_three", "black threes can be melded only by the side going out " +
          "under " + called + ".");
      }
    }
    stated.going_out_only.forEach(function (kind) {
      if (get(e.books, kind) && has(rules.book_bonuses, kind) && !e.went_out) {
        refuse("books." + kind, "a book of " + words.books[kind] + " can only be closed by the side going out.");
      }
    });
    if (e.went_out) {
      var missing = missingBooks(rules, e);
      if (filled(missing)) {
        refuse("went_out", "cannot go out without " + describe(rules.books_to_go_out) + "; missing " +
          describe(missing) + ".");
      }
    }
    return out;
  }

  function bookNeeds(stated, books) {
    var size = stated.deck.book_size;
    var dirty = get(books, "dirty");
    return {
      wilds: size * get(books, "wild") + dirty,
      naturals: size * (get(books, "clean") + get(books, "clean_sevens")) +
        Math.max(0, size - stated.rules.max_wilds_in_dirty_book) * dirty,
      sevens: size * get(books, "clean_sevens"),
      black_three: size * get(books, "black_threes"),
    };
  }

  function sideCards(stated, e) {
    var melds = e.melded_cards || {};
    var left = e.leftover_cards || {};
    var closed = bookNeeds(stated, e.books);
    var opened = bookNeeds(stated, e.open_books);
    closed.four_to_seven = closed.sevens;
    opened.four_to_seven = opened.sevens;
    var used = {};
    var groups = stated.deck.group_cards;
    each(groups, function (group, cards) {
      var inMelds = sum(cards.map(function (c) { return get(melds, c); }));
      var inHands = sum(cards.map(function (c) { return get(left, c); }));
      used[group] = Math.max(closed[group], inMelds) + opened[group] + inHands;
    });
    stated.words.card_order.forEach(function (category) {
      if (!has(groups, category)) { used[category] = get(melds, category) + get(left, category); }
    });
    return used;
  }

  function groupInputs(stated, index, e, group) {
    var found = [];
    ["books", "open_books"].forEach(function (name) {
      (stated.deck.group_books[group] || []).forEach(function (kind) {
        if (get(e[name], kind)) { found.push([index, name + "." + kind]); }
      });
    });
    ["melded_cards", "leftover_cards"].forEach(function (name) {
      (has(stated.deck.group_cards, group) ? stated.deck.group_cards[group] : [group]).forEach(function (category) {
        if (get(e[name], category)) { found.push([index, name + "." + category]); }
      });
    });
    return found;
  }

  function checkDecks(stated, decks, entries) {
    var deck = stated.deck;
    var rules = stated.rules;
    var out = [];
    var inPlay = decks + " deck" + plural(decks);
    var hold = decks === 1 ? "holds" : "hold";
    function limit(name, what, entered, most, why, at) {
      if (entered > most) {
        var said = what.indexOf(" needed ") >= 0 ? what : what + " entered";
        out.push(refusal(null, name, comma(entered) + " " + said + ", but " + inPlay + " " + hold + " " +
          comma(most) + why + ".", at));
      }
    }
    function inputs(names) {
      var found = [];
      entries.forEach(function (e, index) {
        names.forEach(function (name) {
          var value = e[name];
          if (value && (typeof value !== "object" || filled(value))) { found.push([index, name]); }
        });
      });
      return found;
    }
    var used = entries.map(function (e) { return sideCards(stated, e); });
    function counted(group) {
      var at = [];
      entries.forEach(function (e, index) { at = at.concat(groupInputs(stated, index, e, group)); });
      return [sum(used.map(function (u) { return u[group]; })), at];
    }
    var redThrees = sum(entries.map(function (e) { return e.red_threes_down + e.red_threes_caught; }));
    limit("red_threes", "red threes", redThrees, deck.red_threes * decks, "",
      inputs(["red_threes_down", "red_threes_caught"]));
    var perDirty = Math.max(0, deck.book_size - rules.max_wilds_in_dirty_book);
    var c = counted("wilds");
    limit("books", "wild cards needed for the books and the cards counted", c[0], deck.wilds * decks,
      " (7 in each wild book, at least 1 in each dirty book)", c[1]);
    c = counted("naturals");
    limit("books", "natural cards needed for the books and the cards counted", c[0], deck.naturals * decks,
      " (7 in each clean book, at least " + perDirty + " in each dirty book)", c[1]);
    c = counted("sevens");
    limit("books.clean_sevens", "sevens needed for books of sevens", c[0], deck.sevens * decks, "", c[1]);
    var points = sum(entries.map(function (e) { return melded(rules, e) + leftover(rules, e) + e.open_book_points; }));
    var deckPoints = 0;
    each(deck.cards, function (card, n) { deckPoints += n * get(rules.card_values, card); });
    limit("card_points", "card points", points, deckPoints * decks, "",
      inputs(["melded_points", "leftover_points", "open_book_points", "melded_cards", "leftover_cards"]));
    stated.words.card_order.forEach(function (category) {
      var found = counted(category);
      var why = "";
      if (category === "black_three") { why = " (at least 7 in each book of black threes, among those melded)"; }
      else if (category === "four_to_seven") { why = " (7 sevens in each book of sevens, among those melded)"; }
      limit("cards." + category, stated.words.cards[category], found[0], deck.cards[category] * decks, why, found[1]);
    });
    return out;
  }

  function checkDeal(stated, entries) {
    var sides = stated.game.sides;
    var out = [];
    entries.forEach(function (e, index) { out = out.concat(checkSide(stated, index, sides[index], e)); });
    var wentOut = [];
    entries.forEach(function (e, index) { if (e.went_out) { wentOut.push(index); } });
    if (wentOut.length > 1) {
      var names = wentOut.map(function (i) { return sides[i].name; }).join(" and ");
      out.push(refusal(null, "went_out", "Only one side can go out; " + names + " both did.",
        wentOut.map(function (i) { return [i, "went_out"]; })));
    }
    return out.concat(checkDecks(stated, stated.game.decks, entries));
  }

  // --- scores (rules/deal.py score_side, score_deal) -----------------------------------------
  function bookDetail(stated, books) {
    var said = [];
    each(books, function (kind, n) {
      if (n) { said.push(n + " " + stated.words.books[kind] + " \u00d7 " + comma(get(stated.rules.book_bonuses, kind))); }
    });
    return said.join(", ");
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
      if (n) { extraWords.push(n + " \u00d7 " + stated.words.bonuses[bonus]); }
    });
    var moved = 0;
    var details = {
      books: bookDetail(stated, e.books),
      red_threes: e.red_threes_down || e.red_threes_caught ?
        e.red_threes_down + " laid down, " + e.red_threes_caught + " caught" : "",
      going_out: e.went_out ? "went out" : "",
      cards: comma(m) + " melded \u2212 " + comma(l) + " left",
      extras: extraWords.join(", "),
      moved: "",
    };
    if (other && rules.open_books_to_other_team) {
      each(other.open_books, function (kind, n) { moved += get(rules.book_bonuses, kind) * n; });
      moved += other.open_book_points;
      if (moved) {
        details.moved = "Open books of " + otherName + ": " + bookDetail(stated, other.open_books) + " + " +
          comma(other.open_book_points) + " card points";
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
    this.message = refusals.map(function (r) { return r.message; }).join("; ");
  }

  function scoreDeal(stated, entries, check) {
    var refusals = check === false ? [] : checkDeal(stated, entries);
    if (refusals.length) { throw new Refused(refusals); }
    var sides = stated.game.sides;
    return entries.map(function (e, index) {
      var other = null;
      if (stated.rules.open_books_to_other_team && entries.length === 2) { other = entries[1 - index]; }
      return scoreSide(stated, e, other, other ? sides[1 - index].name : "");
    });
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
    var names = winners.map(function (i) { return stated.game.sides[i].name; }).join(" and ");
    if (corrected !== null && corrected <= ended && ended < count) {
      var follow = ended + 1 === count ? "deal " + (ended + 1) + " already follows" :
        "deals " + (ended + 1) + " to " + count + " already follow";
      return refusal(null, "deal", "This correction would end the game after deal " + ended + " (" + names +
        " winning), but " + follow + " it.");
    }
    return refusal(null, "deal", "The game is over: " + names + " won after deal " + ended +
      ". No deal can be added.");
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
      if (corrected === null || corrected === number) { throw refused; }
      throw new Refused([refusal(null, "deal", "Deal " + number + " no longer adds up: " + refused.message)]);
    }
    var totals = progress.totals.map(function (total, i) { return total + scores[i].total; });
    var warnings = [];
    stated.game.sides.forEach(function (side, i) {
      var m = scores[i].melded_points;
      var needed = progress.minimums[i];
      if (m > 0 && m < needed) {
        warnings.push(side.name + " melded " + comma(m) + ", below the " + comma(needed) + " needed to open: check.");
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
    return refusal(null, "deal", "This game has reached its limit of " + comma(most) + (most === 1 ? " deal" : " deals") + ": no more " +
      "deals can be entered. It has not ended by its rules, so it has no winner; start a new game to play on.");
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
  // sent): a new deal after the saved ones, a correction in its deal's place. One the phone
  // itself refuses is left out, with why (`refusals`); the server still judges it once sent.
  function withWaiting(stated, items) {
    var deals = saved(stated);
    var rows = items.map(function (item) {
      var parsed = fromForm(stated, Array.from(new URLSearchParams(item.body)), null);
      var edit = /\/deals\/(\d+)\/edit$/.exec(item.url);
      var row = { key: item.key, number: edit ? Number(edit[1]) : deals.length + 1, refusals: parsed.refusals };
      if (!parsed.entries || row.number > deals.length + 1) { return row; }
      try {
        if (edit) {
          correct(stated, deals, row.number, parsed.entries);
          deals = deals.slice();
          deals[row.number - 1] = parsed.entries;
        } else {
          extend(stated, play(stated, deals, null, false), parsed.entries);
          deals = deals.concat([parsed.entries]);
        }
        row.counted = true;
      } catch (refused) {
        if (!(refused instanceof Refused)) { throw refused; }
        row.refusals = refused.refusals;
      }
      return row;
    });
    return { rows: rows, progress: play(stated, deals, null, false) };
  }

  // --- on a page: what the server states, and a breakdown drawn --------------------------
  // What the server states of a game (web/scorer.py); the worker answers with no signal.
  function ask(game) {
    return fetch("/t/" + game + "/scorer", { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); });
  }

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

  root.hfScorer = {
    entry: entry,
    fromForm: fromForm,
    parse: parse,
    checkDeal: checkDeal,
    scoreDeal: scoreDeal,
    play: play,
    extend: extend,
    correct: correct,
    saved: saved,
    dealer: dealer,
    withWaiting: withWaiting,
    limitReached: limitReached,
    figures: figures,
    Refused: Refused,
    comma: comma,
    signed: signed,
    figure: figure,
    ask: ask,
    draw: draw,
  };
  // On a page: its deal or line form scored from now on; offline.js (the scoreboard's deals
  // waiting to send) is told it is here.
  if (root.document && root.hf) {
    var form = document.querySelector("form[data-preview]");
    var target = document.getElementById("breakdown");
    // The game's secret, from its private link (a correction's page has no live corner).
    var game = /^\/t\/([\w-]{22})\//.exec(window.location.pathname);
    if (form && target && game && root.hf.preview) { scoreTheForm(root.hf, game[1], form, target); }
    document.dispatchEvent(new CustomEvent("hf:scorer"));
  }
})(typeof window !== "undefined" ? window : this);
