// The phone's scorer: a deal's breakdown, the running totals, the next opening minimums, the
// winner and the refusals it can judge, computed on the phone as figures are typed, with or
// without signal (docs/LIVE.md, *Where each figure is computed*).
//
// It holds the engine's functions (scorekeeper/rules/entry.py, deal.py, game.py and limits.py),
// never their numbers or words: every rule, deck count, label and sentence (rules/sentences.py,
// filled by `say`) comes from what the server states (GET /t/<secret>/scorer, rules/stated.py),
// tests/test_phone_words.py fails on any script that writes one. The server's figure is the one
// saved; tests/browser/test_scorer_differential.py runs it in Chromium against the engine on
// thousands of deals. Three scripts, loaded in this order: this one (a side's entry, read from
// the figures, and the deal's checks), scorer_game.js (a deal's score and the game it adds to:
// totals, minimums, the end, who deals; window.hfScorer, the whole engine, is published there)
// and, on the deal and line forms, scorer_form.js (the breakdown drawn at each keystroke).
// Loaded with the deal and line forms, and by provisional.js on a scoreboard with deals waiting;
// runs in a page or, for that test, anywhere with no DOM at all.
(function (root) {
  "use strict";

  function has(object, key) { return !!object && Object.prototype.hasOwnProperty.call(object, key); }
  function get(object, key) { return has(object, key) ? object[key] : 0; }
  function each(object, work) { Object.keys(object || {}).forEach(function (key) { work(key, object[key]); }); }
  function filled(object) { return !!object && Object.keys(object).length > 0; }
  function sum(list) { return list.reduce(function (a, b) { return a + b; }, 0); }
  function max(list) { return Math.max.apply(null, list); }

  // 1234567 as "1,234,567"; a negative with the true minus sign where `minus` asks for it.
  function comma(n, minus) {
    var digits = String(Math.abs(n)).replace(/\B(?=(\d\d\d)+(?!\d))/g, ",");
    return (n < 0 ? (minus || "-") : "") + digits;
  }
  // A sentence of the engine (scorekeeper/rules/sentences.py `fill`), as the server states it,
  // filled in one pass: {name} as it is, {name:,} a number with commas, {name|one|more}.
  function fill(template, figures) {
    return template.replace(/\{(\w+)(?:(:,)|\|([^|{}]*)\|([^{}]*))?\}/g, function (all, name, commas, one, more) {
      var value = figures[name];
      if (one !== undefined) { return value === 1 ? one : more; }
      return commas && typeof value === "number" ? comma(value) : String(value);
    });
  }
  function say(stated, code, figures) { return fill(stated.sentences[code], figures || {}); }
  // A side's refusal, named by its side (rules/refusals.py Refusal.of_side).
  function ofSide(stated, side, code, figures) {
    return say(stated, "side", { side: side, why: say(stated, code, figures) });
  }
  function both(stated, names) { return names.join(stated.sentences.and); }
  function listed(stated, parts) {
    var s = stated.sentences;
    return parts.slice(0, -1).join(s.comma) + (parts.length > 1 ? s.and : "") + parts[parts.length - 1];
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
      // web/forms.py FigureField: the figure named by its side and its label, as typed.
      var what = { label: say(stated, "side", { side: sides[side].name, why: ((labels && labels[name]) || name).toLowerCase() }),
        value: raw };
      if (!/^[0-9]+$/.test(raw)) {
        fieldErrors.push(refusal(side, name, say(stated, "typed_not_whole", what)));
        return;
      }
      // rules/terms.py over_ceiling: digits longer than the ceiling's are never read as a number.
      if (raw.length > String(most).length || Number(raw) > most) {
        fieldErrors.push(refusal(side, name, say(stated, "ceiling", what)));
        return;
      }
      var value = Number(raw);
      // s0-books-clean: the side, the figure and (of a figure counted by kind) the kind.
      var kind = found.pop(), figure = found.pop();
      if (kind) {
        data[side][figure] = data[side][figure] || {};
        data[side][figure][kind] = value;
      } else {
        data[side][figure] = value;
      }
    });
    if (fieldErrors.length) { return { refusals: fieldErrors, entries: null }; }
    data.forEach(function (d, i) { d.went_out = wentOut === String(i); });
    return parse(stated, data);
  }

  // The figures the phone cannot judge: a figure or a kind (a card class, a book, a bonus) the
  // server's words name none of, or a value that is no whole number in bounds. The engine
  // refuses them in words the phone does not copy; such an entry is left for the server to
  // judge when it is sent (`unjudged`), never scored here (its card points would be NaN).
  function whole(stated, value) {
    return typeof value === "number" && value % 1 === 0 && value >= 0 && value <= stated.max_figure;
  }
  function unknown(stated, d, side) {
    var words = stated.words;
    var cards = {};
    words.card_order.forEach(function (card) { cards[card] = true; });
    var kinds = { books: words.books, open_books: words.books, bonuses: words.bonuses,
      melded_cards: cards, leftover_cards: cards };
    var found = [];
    if (!d || typeof d !== "object" || Array.isArray(d)) { return [[side, ""]]; }
    each(d, function (name, value) {
      if (!has(words.fields, name)) { found.push([side, name]); }
      else if (name === "went_out") { if (typeof value !== "boolean") { found.push([side, name]); } }
      else if (has(kinds, name)) {
        if (value === null) { return; }
        if (typeof value !== "object" || Array.isArray(value)) { found.push([side, name]); return; }
        each(value, function (kind, n) {
          if (!has(kinds[name], kind) || !whole(stated, n)) { found.push([side, name + "." + kind]); }
        });
      } else if (!(value === null && /^(melded|leftover)_points$/.test(name)) && !whole(stated, value)) {
        found.push([side, name]);
      }
    });
    return found;
  }

  // What the engine's parse refuses of figures that are each a whole number (rules/deal.py
  // _parse, then games.entries_from names the side).
  function parse(stated, data) {
    var unjudged = [];
    if (!Array.isArray(data) || data.length !== stated.game.sides.length) { unjudged.push([null, ""]); }
    else { data.forEach(function (d, side) { unjudged = unjudged.concat(unknown(stated, d, side)); }); }
    if (unjudged.length) { return { refusals: [], entries: null, unjudged: unjudged }; }
    var refusals = [];
    var fields = stated.words.fields;
    data.forEach(function (d, side) {
      [["melded_points", "melded_cards"], ["leftover_points", "leftover_cards"]].forEach(function (pair) {
        if (has(d, pair[0]) && d[pair[0]] !== null && filled(d[pair[1]])) {
          refusals.push(refusal(side, pair[1],
            ofSide(stated, stated.game.sides[side].name, "points_or_cards", { label: fields[pair[0]] })));
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

  function describe(stated, books) {
    var parts = [];
    each(books, function (kind, n) { if (n) { parts.push(say(stated, "books_item", { count: n, kind: kind })); } });
    return listed(stated, parts);
  }

  function checkSide(stated, index, side, e) {
    var rules = stated.rules;
    var words = stated.words;
    var called = stated.called;
    var out = [];
    function refuse(name, code, figures) { out.push(refusal(index, name, ofSide(stated, side.name, code, figures))); }
    ["books", "open_books"].forEach(function (name) {
      each(e[name], function (kind, count) {
        if (count && !has(rules.book_bonuses, kind)) {
          refuse(name + "." + kind, "no_book", { called: called, book: words.books[kind] });
        }
      });
    });
    if ((filled(e.open_books) || e.open_book_points) && !rules.open_books_to_other_team) {
      refuse(filled(e.open_books) ? "open_books" : "open_book_points", "no_open_books", { called: called });
    }
    if (e.red_threes_down && rules.red_three_down === null) {
      refuse("red_threes_down", "no_red_threes_down", { called: called });
    }
    each(e.bonuses, function (bonus, count) {
      if (count && !has(rules.extra_bonuses, bonus)) {
        refuse("bonuses." + bonus, "no_bonus", { called: called, bonus: bonus });
      } else if (count > side.players) {
        refuse("bonuses." + bonus, "bonus_players", { count: count, bonus: words.bonuses[bonus], players: side.players });
      }
    });
    ["melded_points", "leftover_points", "open_book_points"].forEach(function (name) {
      var value = e[name];
      // rules/terms.py off_the_step: card points move in the step the server states.
      if (value && value % stated.step) {
        refuse(name, "fives", { label: words.fields[name], value: value, step: stated.step });
      }
    });
    var threes = get(e.melded_cards, "black_three");
    if (threes && rules.melded_black_threes !== "always") {
      var inBook = get(e.books, "black_threes") && has(rules.book_bonuses, "black_threes");
      if (rules.melded_black_threes === "never" && !inBook) {
        refuse("melded_cards.black_three", "threes_never", { count: threes, called: called });
      } else if (!e.went_out) {
        refuse("melded_cards.black_three", "threes_going_out", { called: called });
      }
    }
    stated.going_out_only.forEach(function (kind) {
      if (get(e.books, kind) && has(rules.book_bonuses, kind) && !e.went_out) {
        refuse("books." + kind, "going_out_only", { book: words.books[kind] });
      }
    });
    if (e.went_out) {
      var missing = missingBooks(rules, e);
      if (filled(missing)) {
        refuse("went_out", "cannot_go_out", { needed: describe(stated, rules.books_to_go_out),
          missing: describe(stated, missing) });
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
    var said = stated.sentences;
    var out = [];
    // What each group's limit says of books' sizes (rules/limits.py check_decks).
    var sizes = { size: deck.book_size, dirty: Math.max(0, deck.book_size - rules.max_wilds_in_dirty_book) };
    function limit(name, group, entered, most, at, label) {
      if (entered > most) {
        var what = say(stated, has(said, "what_" + group) ? "what_" + group : "what", { label: label });
        var why = has(said, "why_" + group) ? say(stated, "why_" + group, sizes) : "";
        out.push(refusal(null, name, say(stated, "deck_limit",
          { entered: entered, what: what, decks: decks, most: most, why: why }), at));
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
    limit("red_threes", "red_threes", redThrees, deck.red_threes * decks, inputs(["red_threes_down", "red_threes_caught"]));
    var c = counted("wilds");
    limit("books", "wilds", c[0], deck.wilds * decks, c[1]);
    c = counted("naturals");
    limit("books", "naturals", c[0], deck.naturals * decks, c[1]);
    c = counted("sevens");
    limit("books.clean_sevens", "sevens", c[0], deck.sevens * decks, c[1]);
    var points = sum(entries.map(function (e) { return melded(rules, e) + leftover(rules, e) + e.open_book_points; }));
    var deckPoints = 0;
    each(deck.cards, function (card, n) { deckPoints += n * get(rules.card_values, card); });
    limit("card_points", "card_points", points, deckPoints * decks,
      inputs(["melded_points", "leftover_points", "open_book_points", "melded_cards", "leftover_cards"]));
    stated.words.card_order.forEach(function (category) {
      var found = counted(category);
      limit("cards." + category, category, found[0], deck.cards[category] * decks, found[1], stated.words.cards[category]);
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
      var names = both(stated, wentOut.map(function (i) { return sides[i].name; }));
      out.push(refusal(null, "went_out", say(stated, "two_went_out", { names: names }),
        wentOut.map(function (i) { return [i, "went_out"]; })));
    }
    return out.concat(checkDecks(stated, stated.game.decks, entries));
  }

  // What scorer_game.js builds on: the deal's functions and the helpers both use.
  root.hfScorerDeal = {
    get: get,
    each: each,
    max: max,
    comma: comma,
    say: say,
    both: both,
    signed: signed,
    figure: figure,
    entry: entry,
    fromForm: fromForm,
    parse: parse,
    figures: figures,
    refusal: refusal,
    melded: melded,
    leftover: leftover,
    checkDeal: checkDeal,
  };
})(typeof window !== "undefined" ? window : this);
