"""JSON API v1: rule sets, games and deals, for other clients and acceptance checks."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from itertools import islice
from typing import Any, NoReturn

from flask import Blueprint, abort, jsonify, make_response, request, url_for
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

from scorekeeper import rules as engine
from scorekeeper.plumbing.bodies import MAX_JSON_BODY
from scorekeeper.plumbing.models import Club, Game, SavedRules
from scorekeeper.rules import Progress, Refusal
from scorekeeper.rules.deal import KIND_FIELDS
from scorekeeper.rules.game import deal_limit_reached
from scorekeeper.rules.limits import CARD_FIELDS
from scorekeeper.rules.terms import (
    DEALS_PER_PAGE,
    MAX_DEVICE_NAME,
    MAX_ERRORS_LISTED,
    MAX_PLAYERS_PER_SIDE,
    MAX_SIDES,
)
from scorekeeper.services import clubs, creations, deals, games, links, side_lines, standings
from scorekeeper.services.names import cleaned
from scorekeeper.web.access import Level, game_or_404, refuse, require, require_game
from scorekeeper.web.creating import too_many
from scorekeeper.web.invite import base_url
from scorekeeper.web.openapi import openapi_document

bp = Blueprint("api", __name__, url_prefix="/api/v1")
# A deal's figures nest four levels ({"scores": [{"books": {...}}]}): a body nesting far deeper
# is no request of this API, and is refused before anything walks it.
MAX_DEPTH = 32
TOO_DEEP = f"The body nests too deeply: more than {MAX_DEPTH} levels of [ and {{."
# Every [ and { of a body is a list or an object to build and walk. The largest legitimate body
# (a new game of 12 sides, 84 names of 60 characters) holds some 100, and 5,040 more if every
# character of every name were one; a body of 256 KiB of [] holds 87,000, which cost 0.3-0.6 s
# to parse and walk. Counted in the raw body (in C, in microseconds) before it is parsed.
MAX_BRACKETS = 10_000
TOO_MANY = (
    f"The body holds more than {MAX_BRACKETS:,} [ and {{: no game, deal or line has that many."
)
# bodies.MAX_JSON_BODY: four times the largest body a client of this API sends.
TOO_LARGE = (
    f"The body is over {MAX_JSON_BODY:,} bytes, the most this API reads: nothing of it was "
    "read. No game, deal or line is near that size."
)
# How many rules a club can change: house rules naming more are refused before any is read.
HOUSE_RULES = len(engine.PRESETS["classic"].house_rule_fields())
# A line names the deal it is for, so that it is never kept for another (issue 26).
NO_DEAL = (
    "deal is required: the number of the deal the line is for (the game's next_deal when it "
    "was read), so that a line is never kept for another deal."
)
# A deal number, as the game JSON's deals_from takes it; longer is no deal any game holds.
DEAL_NUMBER = re.compile(r"[0-9]{1,9}")
# A moment as RFC 3339 writes it (section 5.6): a date, a time, and its offset from UTC.
MOMENT = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2})"
)


@dataclass(frozen=True)
class Body:
    """A request body's shape, as far as an error's pointers lead into it."""

    sides: str  # the list holding one object per side (with `one`: the one side's object)
    fields: tuple[str, ...]  # the figures of the request as a whole
    nested: tuple[str, ...] = ()  # a side's figures that hold named counts ("books.clean")
    one: int | None = None  # a body holding one side's figures alone: that side's index

    def pointer(self, side: int | None, field: str, sent: Any = None) -> str | None:
        """The JSON pointer (RFC 6901) to a figure a refusal names, in the body as sent.

        None for another side's figure in a body of one side's figures: it is not in the body.
        """
        if side is None:
            return pointer(*field.split(".")) if field else ""
        if self.one is not None and side != self.one:
            return None
        head, dot, rest = field.partition(".")
        if self.one is None:
            place: tuple[str | int, ...] = (self.sides, side)
            entry = _item(sent, self.sides, side)
        else:
            place, entry = (self.sides,), sent.get(self.sides) if isinstance(sent, dict) else None
        # A key the client wrote with a dot in it is one key, not a kind inside a figure.
        literal = isinstance(entry, dict) and field in entry
        path = [head, rest] if dot and head in self.nested and not literal else [field]
        return pointer(*place, *(p for p in path if p))

    def of(self, side: int) -> Body:
        """This body as one side's: pointers lead to its figures, another side's to none."""
        return replace(self, one=side)


# The bodies the API reads: a deal's (entered or corrected), a side's line of one, a new game's.
DEAL_BODY = Body("scores", ("scores", "version"), (*KIND_FIELDS, *CARD_FIELDS))
# A new deal's body names the deal it is for; a correction's, its number in the path.
NEW_DEAL_BODY = Body("scores", ("scores", "deal"), (*KIND_FIELDS, *CARD_FIELDS))
PART_BODY = Body("entry", ("entry", "deal", "sent_by", "entered_at"), (*KIND_FIELDS, *CARD_FIELDS))
GAME_BODY = Body("sides", ("ruleset", "sides", "decks", "rules", "club", "saved_rules"))


def pointer(*tokens: str | int) -> str:
    """A JSON pointer to the value these keys and indexes lead to, each escaped (RFC 6901)."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def _item(sent: Any, name: str, index: int) -> Any:
    """The body's `name`[index], if the body has one."""
    items = sent.get(name) if isinstance(sent, dict) else None
    return items[index] if isinstance(items, list) and 0 <= index < len(items) else None


def refused(refusals: list[Refusal], status: int = 422, into: Body | None = None, sent: Any = None):
    """A 422 (or the given status) naming every refused figure and where it is in the body.

    `into` is the shape of the body the refusals are about (None: they are about no figure of
    a body, but a header, the query or the game); `sent` is the body itself.
    """
    listed = refusals[:MAX_ERRORS_LISTED]
    answer: dict[str, Any] = {"errors": [_error(r, into, sent) for r in listed]}
    if len(refusals) > len(listed):
        # Only the first are written out: a body refused a million times answers in a few KB.
        answer["errors_left_out"] = len(refusals) - len(listed)
    return jsonify(answer), status


def _error(refusal: Refusal, into: Body | None, sent: Any) -> dict[str, Any]:
    """One refusal as the API answers it: the engine's words, and a pointer for each input."""
    if into is None:
        return {**refusal.to_dict(), "inputs": []}
    figures = refusal.figures
    if refusal.inputs is None and refusal.side is None:
        # A refusal of a figure of the whole request (decks, version) is about that figure.
        figures = ((None, refusal.field),) if refusal.field in into.fields else ()
    # Another side's figure is in no body of one side's line: left out (the message names it).
    inputs = [
        {"side": side, "field": name, "pointer": at}
        for side, name in figures
        if (at := into.pointer(side, name, sent)) is not None
    ]
    return {**refusal.to_dict(), "inputs": inputs}


def body() -> dict[str, Any]:
    """The request's JSON object; 415 if it is not JSON, 400 if it does not parse or nests deep."""
    if not request.is_json:
        abort(415)
    allowed = request.max_content_length
    if request.content_length is None and allowed and len(request.get_data()) >= allowed:
        # Sent in chunks, with no length: Werkzeug stops reading at the allowance, so a body
        # that filled it ran past it. Refused as one sent with its length would have been.
        raise RequestEntityTooLarge()
    raw = request.get_data()
    if raw.count(b"[") + raw.count(b"{") > MAX_BRACKETS:
        _unread(TOO_MANY)
    try:
        data = request.get_json()
    except RecursionError:
        # The parser recurses once per [ or {: thousands of them exhaust Python's stack.
        _unread(TOO_DEEP)
    except BadRequest:
        abort(400)
    if _nests_deeper(data, MAX_DEPTH):
        _unread(TOO_DEEP)
    if not isinstance(data, dict):
        abort(400)
    return data


def _nests_deeper(data: Any, limit: int) -> bool:
    """Whether the parsed body nests more than `limit` levels (walked a level at a time)."""
    level = [data]
    for _ in range(limit):
        below: list[Any] = []
        for value in level:
            if isinstance(value, dict):
                below.extend(value.values())
            elif isinstance(value, list):
                below.extend(value)
        if not below:
            return False
        level = below
    # What `limit` levels hold: a list or an object among them nests one level more.
    return any(isinstance(value, dict | list) for value in level)


@bp.errorhandler(RequestEntityTooLarge)
def too_large(_exc: RequestEntityTooLarge):
    """A body past the API's allowance (bodies.py): 413, naming the limit."""
    return refused([Refusal(None, "body", TOO_LARGE)], 413)


def _unread(why: str) -> NoReturn:
    """Stop with a 400 that says why the body was not read."""
    abort(make_response(refused([Refusal(None, "body", why)], 400)))


def _deals_from() -> int:
    """The first deal the game JSON lists (`?deals_from=`, 1 by default); 422 if not a number."""
    raw = request.args.get("deals_from")
    if raw is None:
        return 1
    if not DEAL_NUMBER.fullmatch(raw) or int(raw) < 1:
        shown = raw if len(raw) <= 20 else raw[:17] + "..."
        _reject("deals_from", f"deals_from must be a deal number from 1, not '{shown}'.")
    return int(raw)


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI document of this API."""
    # What bodies.py allows this request is what it allows every request of this API.
    return jsonify(openapi_document(request.max_content_length, MAX_DEPTH, MAX_BRACKETS))


@bp.get("/rulesets")
def rulesets():
    """Every preset, in brief."""
    return jsonify(
        [
            {
                "key": r.key,
                "name": r.name,
                "summary": r.summary,
                "url": url_for(".ruleset", key=r.key),
            }
            for r in engine.PRESETS.values()
        ]
    )


@bp.get("/rulesets/<key>")
def ruleset(key: str):
    """One preset with every parameter."""
    if key not in engine.PRESETS:
        abort(404)
    return jsonify(engine.PRESETS[key].to_dict())


@bp.post("/games")
def create_game():
    """Start a game: 201 with its state, 422 naming what is wrong, or 429 past the address's
    allowance of new games (creations.py)."""
    data = body()
    try:
        sides = _sides(data.get("sides"))
        decks = data.get("decks")
        if decks is not None and (isinstance(decks, bool) or not isinstance(decks, int)):
            raise games.GameRefused([Refusal(None, "decks", "Decks must be a whole number.")])
        club = _club_for_game(data.get("club"))
        saved = _saved_for_game(data, club)
        if saved is not None:
            key, house_rules = saved.ruleset, dict(saved.house_rules)
        elif isinstance(data.get("ruleset"), str):
            key, house_rules = data["ruleset"], _house_rules(data.get("rules"))
        else:
            raise games.GameRefused([Refusal(None, "ruleset", "Name a rule set by its key.")])
        # Counted with the game, in its transaction: a game refused by start_game is not.
        too_many_games = creations.allow(creations.GAME, request.remote_addr)
        if too_many_games is not None:
            return too_many(too_many_games)
        game = games.start_game(key, sides, decks, house_rules, club, saved_rules=saved)
    except games.GameRefused as exc:
        return refused(exc.refusals, into=GAME_BODY, sent=data)
    # The secret is told once, to whoever started the game: it is what every later request needs.
    response = jsonify(
        {**game_state(game), "key": game.secret, "link": links.link_of(game, base_url())}
    )
    response.headers["Location"] = url_for(".game", game_id=game.id)
    return response, 201


def _house_rules(rules: Any) -> Any:
    """The house rules as sent (the engine reads them); more than there are rules: refused
    unread, as one refusal rather than one for each rule no club can change."""
    if isinstance(rules, dict) and len(rules) > HOUSE_RULES:
        message = (
            f"House rules change at most the {HOUSE_RULES} rules a club can, not {len(rules):,}."
        )
        raise games.GameRefused([Refusal(None, "rules", message)])
    return rules or None


def _club_for_game(slug: Any) -> Club | None:
    """The club a new game belongs to: the table link's code must come with it."""
    if slug is None:
        return None
    club = clubs.club_by_slug(slug) if isinstance(slug, str) else None
    if club is None:
        abort(404)
    require(club, Level.TABLE)
    return club


def _saved_for_game(data: dict[str, Any], club: Club | None) -> SavedRules | None:
    """The club's saved rule set a new game starts from (`saved_rules`), or None if not asked.

    `ruleset` and `rules` may then be left out; given, they must be the saved rule set's.
    """
    asked = data.get("saved_rules")
    if asked is None:
        return None
    if isinstance(asked, bool) or not isinstance(asked, int):
        message = "saved_rules is the id of one of the club's saved rule sets."
        raise games.GameRefused([Refusal(None, "saved_rules", message)])
    saved = clubs.saved_rules(club, asked) if club is not None else None
    if saved is None:
        message = (
            f"The club has no saved rule set {asked}."
            if club is not None
            else "A saved rule set is a club's: send `club` (and X-Table-Code) with it."
        )
        raise games.GameRefused([Refusal(None, "saved_rules", message)])
    refusals = []
    if "ruleset" in data and data["ruleset"] != saved.ruleset:
        message = f"{saved.name} is based on '{saved.ruleset}': leave ruleset out, or send that."
        refusals.append(Refusal(None, "ruleset", message))
    rules = data.get("rules")
    if rules is not None and not (
        isinstance(rules, dict) and games.same_rules(saved, saved.ruleset, rules)
    ):
        message = f"These rules are not {saved.name}'s: leave rules out, or send its own."
        refusals.append(Refusal(None, "rules", message))
    if refusals:
        raise games.GameRefused(refusals)
    return saved


def _sides(value: Any) -> list[games.SideSetup]:
    """The sides as sent, each read only as far as a game could hold it (one refusal a side)."""
    if not isinstance(value, list) or len(value) < 2:
        raise games.GameRefused(
            [Refusal(None, "sides", "Give at least two sides, each with a name.")]
        )
    if len(value) > MAX_SIDES:
        # Refused before any side is read: each would only be refused again.
        message = f"A game has at most {MAX_SIDES} sides, not {len(value):,}."
        raise games.GameRefused([Refusal(None, "sides", message)])
    sides, refusals = [], []
    for index, side in enumerate(value):
        name = side.get("name") if isinstance(side, dict) else None
        players = side.get("players", []) if isinstance(side, dict) else None
        if not isinstance(name, str):
            refusals.append(Refusal(index, "name", f"Side {index + 1} needs a name (text)."))
        elif isinstance(players, list) and len(players) > MAX_PLAYERS_PER_SIDE:
            # One refusal for the side, its players unread: not one for each of a million.
            message = (
                f"Side {index + 1} has {len(players):,} players: a side has 1 to "
                f"{MAX_PLAYERS_PER_SIDE}."
            )
            refusals.append(Refusal(index, "players", message))
        elif not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            refusals.append(Refusal(index, "players", f"{name}: players must be a list of names."))
        else:
            sides.append(games.SideSetup(name, players))
    if refusals:
        raise games.GameRefused(refusals)
    return sides


@bp.get("/games/<int:game_id>")
def game(game_id: int):
    """The game's state."""
    game = game_or_404(game_id)
    require_game(game, Level.READ)
    return jsonify(game_state(game, deals_from=_deals_from()))


@bp.post("/games/<int:game_id>/deals")
def add_deal(game_id: int):
    """Enter the next deal: 201, 422 naming each refused figure, or 409 if the game is over."""
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    start = _deals_from()  # read first: a bad one must not follow a deal that was saved
    data = body()
    key = request.headers.get("Idempotency-Key")
    # "deal": the deal these figures are for, so that one saved meanwhile is never saved over.
    number = _deal_number(data, "figures")
    outcome = deals.enter_deal(game, level, data.get("scores"), key, number)
    return _answer(game, level, outcome, 201, start, data, NEW_DEAL_BODY)


@bp.put("/games/<int:game_id>/deals/<int:number>")
def correct_deal(game_id: int, number: int):
    """Correct a deal: 200 with everything after it recomputed, 409 if made from a stale copy."""
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    start = _deals_from()
    data = body()
    outcome = deals.correct_deal(game, level, number, data.get("scores"), data.get("version"))
    return _answer(game, level, outcome, 200, start, data)


@bp.put("/games/<int:game_id>/deals/next/parts/<int:side>")
def send_line(game_id: int, side: int):
    """Send one side's line of the next deal: 200 kept, or 201 when it was the last and the
    deal was saved; 422 naming each refused figure, 409 if stale or the game takes no deal."""
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    start = _deals_from()
    data = body()
    outcome = side_lines.send_line(game, level, side, data.get("entry"), **_line_sent(data))
    match outcome:
        case side_lines.LineKept(number, lines):
            return jsonify(deal=number, saved=False, parts=[line.as_json() for line in lines])
        case side_lines.LaterLineKept() as later:
            return refused([Refusal(side, "entered_at", later.message)], 409)
        case deals.Ended(refusals) | deals.LimitReached(refusals):
            return refused(refusals, 409)
        case side_lines.NoSuchSide():
            abort(404)
    return _answer(game, level, outcome, 201, start, data, PART_BODY.of(side))


@bp.get("/games/<int:game_id>/deals/next/parts")
def next_lines(game_id: int):
    """Each side's line of the next deal, in or not yet (none once no deal can be entered)."""
    game = game_or_404(game_id)
    require_game(game, Level.READ)
    progress = games.progress_of(game)
    full = deal_limit_reached(games.rules_of(game), progress) is not None
    number = None if progress.finished or full else progress.next_deal
    return jsonify(deal=number, saved=False, parts=_lines_in(game, progress, full))


def _line_sent(data: dict[str, Any]) -> dict[str, Any]:
    """The deal a line was for, who sent it and when it was entered; 422 if not as documented."""
    number, name, moment = _deal_number(data, "line"), data.get("sent_by"), data.get("entered_at")
    if number is None:
        # Without it a line raced the whole deal and was saved into it, or into the next one.
        _reject("deal", NO_DEAL, data)
    if name is not None and not isinstance(name, str):
        _reject("sent_by", "sent_by is the name of whoever sent the line (text).", data)
    return {
        "opened_for": number,
        "sent_by": cleaned(name or "")[:MAX_DEVICE_NAME].strip() or "Someone",
        "entered_at": None if moment is None else _moment(moment, data),
    }


def _deal_number(data: dict[str, Any], what: str) -> int | None:
    """The number of the deal the body is for (None if not sent); 422 naming /deal if not one."""
    number = data.get("deal")
    if number is not None and not (
        isinstance(number, int) and not isinstance(number, bool) and 0 < number < 10**9
    ):
        _reject("deal", f"deal is the number of the deal the {what} is for, from 1.", data)
    return number


def _moment(value: Any, data: dict[str, Any]) -> datetime:
    """An RFC 3339 date-time, in UTC; 422 naming /entered_at if it is none."""
    try:
        if isinstance(value, str) and MOMENT.fullmatch(value):
            return datetime.fromisoformat(value.upper()).astimezone(UTC)
    except (ValueError, OverflowError):
        pass  # a 13th month, a 61st second, or a moment before year 1 in UTC
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    message = f"entered_at is an RFC 3339 date-time, like 2026-04-30T19:05:00Z, not {shown}."
    _reject("entered_at", message, data)


def _answer(
    game: Game,
    level: Level,
    outcome: deals.Outcome,
    saved_status: int,
    deals_from: int = 1,
    sent: Any = None,
    into: Body = DEAL_BODY,
):
    """The JSON answer for what entering or correcting a deal came to (`sent`: the body, whose
    shape is `into`)."""
    match outcome:
        case deals.Saved():
            return jsonify(game_state(game, deals_from=deals_from)), saved_status
        case deals.AlreadySaved():
            # The same key again: the deal it recorded stands, and the answer is the same.
            response = jsonify(game_state(game, deals_from=deals_from))
            response.headers["Idempotent-Replayed"] = "true"
            return response, saved_status
        case deals.KeyReused() as reused:
            return refused([Refusal(None, "Idempotency-Key", reused.message)])
        case deals.SavedMeanwhile() as meanwhile:
            return refused([Refusal(None, "deal", meanwhile.message)], 409)
        case deals.ChangedMeanwhile() as changed:
            # The version sent is the figure at fault: the deal moved on from it.
            return refused([Refusal(None, "version", changed.message)], 409, DEAL_BODY, sent)
        case deals.Ended(refusals) | deals.LimitReached(refusals):
            return refused(refusals, 409, DEAL_BODY, sent)
        case deals.Refused(refusals):
            return refused(refusals, into=into, sent=sent)
        case deals.NotAllowed():
            refuse(level)
    abort(404)  # NoSuchDeal


def _dealer(game: Game, seats: list[engine.Seat], number: int) -> dict[str, Any]:
    """Who deals a deal: the seat's number (from 0), its side and its player."""
    seat = engine.dealer_seat(seats, game.first_dealer, number)
    return {"seat": seat, "side": seats[seat].side, "player": seats[seat].player}


def game_state(game: Game, progress: Progress | None = None, deals_from: int = 1) -> dict[str, Any]:
    """The game as the JSON API shows it: its totals, and DEALS_PER_PAGE deals from `deals_from`."""
    progress = progress or games.progress_of(game)
    rules = games.rules_of(game)
    full = deal_limit_reached(rules, progress) is not None
    total = len(game.deals)
    last = deals_from - 1 + DEALS_PER_PAGE
    shown = islice(zip(game.deals, progress.deals, strict=True), deals_from - 1, last)
    following = url_for(".game", game_id=game.id, deals_from=last + 1) if last < total else None
    seats = games.seats_of(game)
    return {
        "id": game.id,
        "url": links.path_of(game),
        "ruleset": game.ruleset,
        "house_rules": game.house_rules or {},
        # The club's saved rule set the game started from, as it is called now; and its name
        # when the game started (kept if the saved rule set is renamed or deleted since).
        "saved_rules": (
            {"id": game.saved_rules.id, "name": game.saved_rules.name}
            if game.saved_rules is not None
            else None
        ),
        "rules_name": game.rules_name,
        # The rules in force: the preset with the house rules applied.
        "rules": rules.to_dict(),
        "decks": game.decks,
        "finished": progress.finished,
        "winners": [game.sides[i].name for i in progress.winners],
        # None when no deal can be entered: the game is over, or holds its most deals.
        "next_deal": None if progress.finished or full else progress.next_deal,
        "deal_limit": rules.deal_limit,
        "deal_limit_reached": full,
        # Who sits where (partners apart) and who deals: the deal passes to the left.
        "first_dealer": game.first_dealer,
        "seats": [{"side": seat.side, "player": seat.player} for seat in seats],
        "next_dealer": (
            None if progress.finished or full else _dealer(game, seats, progress.next_deal)
        ),
        "sides": [
            {
                "name": side.name,
                "players": [p.name for p in side.players],
                "total": total,
                "next_opening_minimum": minimum,
                # v1's first name for it: in sides, the minimum for the next deal.
                "opening_minimum": minimum,
            }
            for side, total, minimum in zip(
                game.sides, progress.totals, progress.minimums, strict=True
            )
        ],
        "deals": [
            {
                "number": deal.number,
                "version": deal.version,
                "dealer": _dealer(game, seats, deal.number),
                "warnings": result.warnings,
                "scores": [
                    {
                        "side": side.name,
                        "total": score.total,
                        "running_total": running,
                        "minimum_applied": minimum,
                        # v1's first name for it: in a deal, the minimum that applied.
                        "opening_minimum": minimum,
                        "breakdown": score.breakdown(),
                        "entry": row.entry,
                    }
                    for side, score, running, minimum, row in zip(
                        game.sides,
                        result.scores,
                        result.totals,
                        result.minimums,
                        deal.scores,
                        strict=True,
                    )
                ],
            }
            for deal, result in shown
        ],
        "deals_total": total,
        "deals_from": deals_from,
        "next": following,
        # Each side's own line of the next deal, as sent so far (none once no deal can be added).
        "parts": _lines_in(game, progress, full),
        # The table's next game (Play again): whoever reads this game holds its link already.
        "next_game": (
            {
                "id": game.next_game.id,
                "url": links.path_of(game.next_game),
                "started_by": game.next_started_by or "Someone",
            }
            if game.next_game is not None
            else None
        ),
    }


def _lines_in(game: Game, progress: Progress, full: bool) -> list[dict[str, Any]]:
    """Each side's line of the next deal, in or not yet, in one query; [] if none can be added."""
    if progress.finished or full:
        return []
    rows = deals.lines_in(game, progress.next_deal)
    return [line.as_json() for line in side_lines.lines_from(game, rows)]


def _club_to_read(slug: str) -> Club:
    """The club whose records a request reads: 404 if none, refused as its pages are."""
    club = clubs.club_by_slug(slug)
    if club is None:
        abort(404)
    require(club, Level.READ)
    return club


@bp.get("/clubs/<slug>/standings", endpoint="standings")
def club_standings(slug: str):
    """A club's standings: `season` (id, or "all"), `from`, `to`, `ruleset`; as the page shows."""
    club = _club_to_read(slug)
    chosen = _standings_filters(club)
    return jsonify(
        [
            {
                "player": row.player,
                "games": row.games,
                "wins": row.wins,
                "win_rate": round(row.win_rate, 4),
                "average_score": round(row.average_score, 1),
                "average_per_deal": round(row.average_per_deal, 1),
                "total_points": row.total_points,
                "rank": row.rank,
            }
            for row in standings.standings(club, chosen, request.args.get("sort", "win_rate"))
        ]
    )


@bp.get("/clubs/<slug>/rule-sets", endpoint="rule_sets")
def club_rule_sets(slug: str):
    """A club's saved rule sets, each with the rules in force; as the standings, who may see."""
    club = _club_to_read(slug)
    return jsonify(
        [
            {
                "id": saved.id,
                "name": saved.name,
                "ruleset": saved.ruleset,
                "house_rules": saved.house_rules or {},
                "default": saved.is_default,
                "rules": games.rules_of_saved(saved).to_dict(),
            }
            for saved in club.saved_rules
        ]
    )


def _standings_filters(club: Club) -> standings.Filters:
    """Filters from the query string; a malformed one is a 422, not a guess."""
    args = request.args
    ruleset = args.get("ruleset") or None
    if ruleset is not None and ruleset not in engine.PRESETS:
        _reject("ruleset", f"No rule set '{ruleset}'.")
    saved_rules = args.get("saved_rules") or None
    saved_rules_id = None
    if saved_rules is not None:
        small = re.fullmatch(r"[0-9]{1,9}", saved_rules)
        saved = clubs.saved_rules(club, int(saved_rules)) if small else None
        if saved is None:
            shown = saved_rules if len(saved_rules) <= 20 else saved_rules[:17] + "..."
            _reject("saved_rules", f"No saved rule set '{shown}' in this club.")
        saved_rules_id = saved.id
    chosen = {"ruleset": ruleset, "saved_rules_id": saved_rules_id}
    try:
        start = date.fromisoformat(args["from"]) if args.get("from") else None
        end = date.fromisoformat(args["to"]) if args.get("to") else None
    except ValueError:
        _reject("from", "Dates are written like 2026-04-30.")
    season = args.get("season")
    if season and season != "all":
        small = re.fullmatch(r"[0-9]{1,9}", season)
        chosen_season = clubs.season(club, int(season)) if small else None
        if chosen_season is None:
            _reject("season", f"No season '{season}' in this club.")
        return standings.Filters.for_season(chosen_season, **chosen)
    if not season and start is None and end is None:
        return standings.Filters.for_season(
            clubs.current_season(club, datetime.now(UTC).date()), **chosen
        )
    return standings.Filters(start, end, **chosen)


def _reject(field: str, message: str, sent: dict[str, Any] | None = None) -> NoReturn:
    """Stop with a 422 naming one query figure; or one figure of a line's body, if `sent`."""
    into = PART_BODY if sent is not None else None
    abort(make_response(refused([Refusal(None, field, message)], into=into, sent=sent)))
