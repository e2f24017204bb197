"""A club's nights (issue 29): listed, read, started and seated round by round.

As the night pages (web/nights/pages.py): organisers and holders of the club's table link
(X-Table-Code) read a night, whose tables name their games' keys, which that link may score;
organisers (signed in) open a night and seat its rounds, and so does the table link where the
club allows it (`services/access.may_run_nights`). Anyone else is refused as any club route
that needs the table link is: 404 in a private club, 403 in a public one.
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import abort, request, url_for

from scorekeeper.plumbing.models import Club, Night, SavedRules
from scorekeeper.rules import Refusal
from scorekeeper.services import clubs, standings
from scorekeeper.services.access import may_run_nights
from scorekeeper.services.members import split_names
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.ratings import kept
from scorekeeper.services.ratings import reading as ratings
from scorekeeper.web.access import Level, refuse, require
from scorekeeper.web.api.answer_base import answered
from scorekeeper.web.api.club_answers import Member, rated_in
from scorekeeper.web.api.club_requests import (
    NIGHT_BODY,
    SEAT_BODY,
    NightSeat,
    NightSetup,
    NightsQuery,
)
from scorekeeper.web.api.game_requests import ref
from scorekeeper.web.api.modelled import Unfit, query_parameters, read, read_query
from scorekeeper.web.api.night_state import night_answer, night_brief
from scorekeeper.web.api.operations import (
    POINTERS,
    TABLE_CODE,
    TOO_MANY,
    answer,
    errors,
    route,
)
from scorekeeper.web.api.reading import body
from scorekeeper.web.api.refusals import refused, stop

NO_CLUB = errors(
    "No club with that slug, or a private club asked without its X-Table-Code or an "
    "organiser's sign-in (all answered alike)"
)
NO_NIGHT = errors(
    "No club with that slug, no such night of the club (another club's night too), or a "
    "private club asked without its X-Table-Code or an organiser's sign-in"
)
TABLE_ONLY = errors(
    "A public club's nights name their tables' games: reading them needs the club's table "
    "code (X-Table-Code) or an organiser's sign-in"
)
ORGANISERS_ONLY = errors(
    "Only the club's organisers (signed in: the session's cookie) open a night and seat its "
    "rounds, and the table code where the club's settings let the table link run nights; "
    "else the table code only reads them"
)
NIGHT_URL = "The night's address in this API"


@route(
    "GET",
    "/clubs/<slug>/members",
    "listMembers",
    "A club's members by id, as a night names them (public clubs, or with the table code)",
    endpoint="members",
    parameters=(TABLE_CODE,),
    answers={
        "200": answer(
            {"type": "array", "items": ref("Member")},
            "The club's members, by name; archived ones too, marked (a night seats none)",
        ),
        "404": NO_CLUB,
        "429": TOO_MANY,
    },
)
def club_members(slug: str):
    """The club's members with their ids, which a new night's `members` lists; who may see
    them as the members page (its member pages are addressed by the same ids)."""
    club, _ = _club(slug, Level.READ)
    # In the scope the standings show by default (this season, where there is one): one query.
    shown = standings.rating_scope(standings.this_season(club, datetime.now(UTC).date()))
    rated = ratings.in_scope(club, shown or kept.ALL)
    return answered(
        [
            Member(
                id=m.id,
                name=m.name,
                archived=m.archived,
                **rated_in(rated.ratings.get(m.id), rated.scope, rated.name),
            )
            for m in club.members
        ]
    )


@route(
    "GET",
    "/clubs/<slug>/nights",
    "listNights",
    "A club's nights, the newest first (organisers, or with the table code)",
    endpoint="nights",
    parameters=(*query_parameters(NightsQuery), TABLE_CODE),
    answers={
        "200": answer({"type": "array", "items": ref("NightBrief")}, "The newest nights"),
        "403": TABLE_ONLY,
        "404": NO_CLUB,
        "422": errors("limit is not a number from 1 to the most listed (inputs: [])"),
        "429": TOO_MANY,
    },
)
def club_nights(slug: str):
    """The club's newest nights, in brief."""
    club, _ = _club(slug, Level.TABLE)
    try:
        most = read_query(NightsQuery, request.args).limit
    except Unfit as exc:
        stop(exc.refusals)
    return answered([night_brief(night, slug) for night in night_play.nights_of(club, most)])


@route(
    "GET",
    "/clubs/<slug>/nights/<int:night_id>",
    "getNight",
    "A club night: its rounds' tables and games, standings and next round",
    endpoint="night",
    parameters=(TABLE_CODE,),
    answers={
        "200": answer(ref("Night"), "The night as its page shows it"),
        "403": TABLE_ONLY,
        "404": NO_NIGHT,
        "429": TOO_MANY,
    },
)
def club_night(slug: str, night_id: int):
    """One night of the club, as its page shows it."""
    club, level = _club(slug, Level.TABLE)
    return answered(night_answer(_night(club, night_id), slug, level))


@route(
    "POST",
    "/clubs/<slug>/nights",
    "startNight",
    "Open tonight's night (organisers; the table link if the club allows): its players, "
    "rules and rounds; no round seated yet",
    endpoint="start_night",
    parameters=(TABLE_CODE,),
    body="NightSetup",
    answers={
        "201": answer(ref("Night"), "Opened: the night, round 1 to seat", Location=NIGHT_URL),
        "403": ORGANISERS_ONLY,
        "404": NO_CLUB,
        "429": TOO_MANY,
        "422": errors(
            "The night cannot be opened as asked: each error names the figure and why (a "
            "member not the club's, a guest who is a member, 99 rounds, too many or too few "
            "players for the tables, rules the tables cannot seat, ruleset and saved_rules "
            "both or neither, a ranking not offered or own_average with a round sat out as 0 "
            f"points). {POINTERS}: /members, /guests/2, /rounds, /saved_rules, /ranking"
        ),
    },
)
def start_night(slug: str):
    """Open tonight's night: 201 with the night, or 422 naming each figure refused."""
    club, level = _runner(slug)
    data = body()
    try:
        asked = read(NightSetup, data)
        _check_guests(asked.guests)
        rules, rules_field = _rules(asked, club)
        night = night_play.open_night(
            club,
            asked.members,
            "\n".join(asked.guests),
            rules,
            asked.rounds,
            asked.partners,
            asked.sit_out,
            asked.shape or "",
            ranking=asked.ranking,
        )
    except Unfit as exc:
        return refused(exc.refusals, into=NIGHT_BODY, sent=data)
    except night_play.NightRefused as exc:
        named = {"rules": rules_field}
        said = [Refusal(None, named.get(field, field), words) for field, words in exc.problems]
        return refused(said, into=NIGHT_BODY, sent=data)
    response = answered(night_answer(night, slug, level))
    response.headers["Location"] = url_for(".night", slug=slug, night_id=night.id)
    return response, 201


@route(
    "POST",
    "/clubs/<slug>/nights/<int:night_id>/rounds",
    "seatRound",
    "Seat a night's next round and start its tables' games (organisers; the table link if "
    "the club allows)",
    endpoint="seat_round",
    parameters=(TABLE_CODE,),
    body="NightSeat",
    answers={
        "201": answer(
            ref("Night"),
            "Seated: the night with the round's tables and their games (each read with GET "
            "/api/v1/games/{game_id} and its key)",
            Location=NIGHT_URL,
        ),
        "403": ORGANISERS_ONLY,
        "404": NO_NIGHT,
        "409": errors(
            "The round cannot be seated now, in words (field round): it is seated already (the "
            "request was sent before), a table of the last round still plays, every round "
            "planned is seated, the night has ended, its seating was drawn again since the "
            "`draw` sent, or too few players are here to seat it"
        ),
        "422": errors(f"round is not the next round to seat. {POINTERS}: /round"),
        "429": TOO_MANY,
    },
)
def seat_round(slug: str, night_id: int):
    """Seat the night's next round: 201 with the night, 409 why not now, 422 a wrong round."""
    club, level = _runner(slug)
    night = _night(club, night_id)
    data = body()
    try:
        seat = read(NightSeat, data)
    except Unfit as exc:
        return refused(exc.refusals, into=SEAT_BODY, sent=data)
    try:
        night_play.seat_round(night, seat.draw, seat.round)
    except night_play.RoundAhead as exc:
        # A round further on is a wrong figure sent: 422, pointing at it.
        said = [Refusal(None, field, words) for field, words in exc.problems]
        return refused(said, into=SEAT_BODY, sent=data)
    except night_play.NightRefused as exc:
        return refused([Refusal(None, field, words) for field, words in exc.problems], 409)
    response = answered(night_answer(night, slug, level))
    response.headers["Location"] = url_for(".night", slug=slug, night_id=night.id)
    return response, 201


def _club(slug: str, needed: Level) -> tuple[Club, Level]:
    """The club and the visitor's level, or 404/403 as its night pages refuse one below
    `needed`."""
    club = clubs.club_by_slug(slug)
    if club is None:
        abort(404)
    return club, require(club, needed)


def _runner(slug: str) -> tuple[Club, Level]:
    """The club, for a visitor who may run its nights, or the refusal the pages give."""
    club, level = _club(slug, Level.TABLE)
    if not may_run_nights(club, level):
        refuse(level)
    return club, level


def _night(club: Club, night_id: int) -> Night:
    """One of the club's nights; another club's is as missing as none."""
    found = night_play.night_of(club, night_id)
    if found is None:
        abort(404)
    return found


def _check_guests(guests: list[str]) -> None:
    """The guests' names, one an item: one the night would read as two is refused."""
    unfit = [
        Refusal(
            None,
            "guests",
            f"Guest {n + 1}'s name holds a comma or a line break: send one name an item.",
            inputs=((None, f"guests.{n}"),),
        )
        for n, name in enumerate(guests)
        if len(split_names(name)) > 1
    ]
    if unfit:
        raise Unfit(unfit)


def _rules(asked: NightSetup, club: Club) -> tuple[SavedRules | str, str]:
    """The night's rules (a saved rule set of the club, or a preset's key), and the figure
    that named them."""
    saved_id, key = asked.saved_rules, asked.ruleset
    if saved_id is None and key is None:
        words = "Name the night's rules: ruleset (a preset's key) or saved_rules (an id)."
        raise Unfit([Refusal(None, "ruleset", words)])
    if saved_id is not None and key is not None:
        words = "Send the night's rules once: ruleset or saved_rules, not both."
        raise Unfit([Refusal(None, "ruleset", words, ((None, "ruleset"), (None, "saved_rules")))])
    if key is not None:
        return key, "ruleset"
    saved = clubs.saved_rules(club, saved_id)
    if saved is None:
        raise Unfit([Refusal(None, "saved_rules", f"The club has no saved rule set {saved_id}.")])
    return saved, "saved_rules"
