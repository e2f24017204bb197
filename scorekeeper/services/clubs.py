"""Clubs: the club itself, its table link, organisers, members and seasons.

Standings and history are `standings.py`; organisers' accounts are `accounts.py`; a club's
saved rule sets are `saved_rules.py`, and what a club change refuses `club_refusals.py` (both
named here too, for the many who ask this module).
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from datetime import date

from sqlalchemy import delete, func, select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import (
    Club,
    Member,
    MemberDay,
    MemberResult,
    NightPlayer,
    Organiser,
    Player,
    Season,
    Side,
)
from scorekeeper.rules.terms import MAX_CLUB_NAME, MAX_NAME, MAX_SLUG, MIN_SLUG
from scorekeeper.services import creations, figures
from scorekeeper.services.accounts import organiser_named
from scorekeeper.services.club_refusals import ClubRefused as ClubRefused
from scorekeeper.services.club_refusals import RulesRefused as RulesRefused
from scorekeeper.services.club_refusals import check_name as _check_name
from scorekeeper.services.locking import MOST_HOURS as MOST_LOCK_HOURS
from scorekeeper.services.names import squeezed
from scorekeeper.services.ratings import kept
from scorekeeper.services.saved_rules import create_saved_rules as create_saved_rules
from scorekeeper.services.saved_rules import default_rules as default_rules
from scorekeeper.services.saved_rules import delete_saved_rules as delete_saved_rules
from scorekeeper.services.saved_rules import games_by_saved_rules as games_by_saved_rules
from scorekeeper.services.saved_rules import make_default as make_default
from scorekeeper.services.saved_rules import saved_rules as saved_rules
from scorekeeper.services.saved_rules import update_saved_rules as update_saved_rules
from scorekeeper.services.standings_ranking import SORTS

# A club's web address: MIN_SLUG to MAX_SLUG lowercase letters, digits or hyphens, the first no
# hyphen. The one check: creating a club refuses any other, looking one up finds none.
SLUG = re.compile(rf"[a-z0-9][a-z0-9-]{{{MIN_SLUG - 1},{MAX_SLUG - 1}}}")
SLUG_HELP = (
    f"The web address must be {MIN_SLUG} to {MAX_SLUG} lowercase letters, digits or hyphens, "
    "starting with a letter or digit."
)
# Letters that NFKD does not part into a plain letter and its accent, as an address spells them.
_SPELLED = str.maketrans(
    {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"}
)
# The furthest -2, -3... a suggested address counts to.
MOST_SUGGESTED = 9999


def new_table_code() -> str:
    """An unguessable code for the table link."""
    return secrets.token_urlsafe(18)


# --- clubs -------------------------------------------------------------------------------


def club_by_slug(slug: str) -> Club | None:
    """A club by its slug."""
    if not SLUG.fullmatch(slug):
        return None
    return db.session.execute(select(Club).where(Club.slug == slug)).scalar_one_or_none()


def slugify(name: str, most: int = MAX_SLUG) -> str:
    """The web address a name suggests ("Tuesday Club" is tuesday-club): accents folded, every
    run of anything but a to z and digits one hyphen, cut to `most` (between words if it can);
    "" for under MIN_SLUG.

    static/slug.js makes the same as the club's name is typed (tests/browser/test_members.py).
    """
    spelled = unicodedata.normalize("NFKD", name.lower().translate(_SPELLED))
    plain = "".join(c for c in spelled if not unicodedata.category(c).startswith("M")).lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")
    if len(slug) > most:
        # Cut between words where the part kept has a hyphen, else within the one word.
        cut = slug[:most]
        whole = slug[most] == "-" or "-" not in cut
        slug = (cut if whole else cut[: cut.rindex("-")]).rstrip("-")
    return slug if len(slug) >= MIN_SLUG else ""


def free_slug(name: str) -> str:
    """The address the name suggests, or the first of it -2, -3... no club has ("" for none)."""
    base = slugify(name)
    if not base:
        return ""
    # Every candidate starts with the name cut for the longest ending: one query finds them all.
    stem = slugify(name, MAX_SLUG - len(f"-{MOST_SUGGESTED}"))
    taken = set(db.session.execute(select(Club.slug).where(Club.slug.startswith(stem))).scalars())
    for number in range(1, MOST_SUGGESTED + 1):
        ending = f"-{number}" if number > 1 else ""
        candidate = slugify(name, MAX_SLUG - len(ending)) + ending
        if candidate not in taken:
            return candidate
    return ""


class SlugTaken(ClubRefused):
    """The web address asked for is another club's; `free` is the next one free ("" for none)."""

    def __init__(self, slug: str, free: str) -> None:
        said = f"The web address {slug} is taken"
        super().__init__(f"{said}: {free} is free." if free else f"{said}.")
        self.free = free


def create_club(
    name: str,
    slug: str,
    organiser: Organiser,
    *,
    public: bool = False,
    made_from: str | None = None,
) -> Club:
    """A new club, run by the organiser who created it; a blank address takes the one its name
    suggests (`free_slug`). OverAllowance past the allowance of clubs of the address it is
    `made_from` (creations.py; None: not counted)."""
    name, slug = name.strip(), slug.strip().lower()
    _check_name(name, "Club name")
    if not 1 <= len(name) <= MAX_CLUB_NAME:
        raise ClubRefused(f"A club needs a name of up to {MAX_CLUB_NAME} characters.")
    if not slug:
        slug = free_slug(name)
        if not slug:
            raise ClubRefused(
                "The name has too few letters a to z or digits to make a web address: type one."
            )
    if not SLUG.fullmatch(slug):
        raise ClubRefused(SLUG_HELP)
    if club_by_slug(slug) is not None:
        raise SlugTaken(slug, free_slug(slug))
    creations.count(creations.CLUB, made_from)
    club = Club(name=name, slug=slug, table_code=new_table_code(), standings_public=public)
    club.organisers.append(organiser)
    db.session.add(club)
    db.session.commit()
    return club


def replace_table_code(club: Club) -> str:
    """A new table link; every old one stops working."""
    club.table_code = new_table_code()
    db.session.commit()
    return club.table_code


def is_organiser(club: Club, organiser: Organiser | None) -> bool:
    """Whether this account runs the club."""
    return organiser is not None and any(o.id == organiser.id for o in club.organisers)


def add_organiser(club: Club, username: str) -> Organiser:
    """Let another account run the club."""
    organiser = organiser_named(username)
    if organiser is None:
        raise ClubRefused(f"No account is called {username.strip()}; they must sign up first.")
    if not is_organiser(club, organiser):
        club.organisers.append(organiser)
        db.session.commit()
    return organiser


class SortRefused(ClubRefused):
    """A standings order the standings do not know (its words name the settings' field)."""


def update_settings(
    club: Club,
    *,
    name: str,
    public: bool,
    min_games: int,
    tables_run_nights: bool | None = None,
    standings_sort: str | None = None,
    self_check_in: bool | None = None,
    lock_after_hours: int | None = None,
) -> None:
    """Change the club's name, visibility and ranking threshold, whether phones holding the
    table link may open and run club nights, the standings' order when none is asked, and the
    hours after which a finished game locks (`locking.py`) (None: left as it is)."""
    _check_name(name, "Club name")
    if not 1 <= len(name.strip()) <= MAX_CLUB_NAME:
        raise ClubRefused(f"A club needs a name of up to {MAX_CLUB_NAME} characters.")
    if not 0 <= min_games <= 1000:
        raise ClubRefused("The games needed to be ranked must be between 0 and 1,000.")
    if lock_after_hours is not None and not 0 <= lock_after_hours <= MOST_LOCK_HOURS:
        raise ClubRefused(
            f"The hours before a finished game locks must be between 0 and {MOST_LOCK_HOURS}."
        )
    if standings_sort is not None and standings_sort not in SORTS:
        shown = standings_sort if len(standings_sort) <= 20 else standings_sort[:17] + "..."
        raise SortRefused(
            f"Standings sorted by: '{shown}' is not one of the standings' columns; choose one "
            "from the list."
        )
    club.name, club.standings_public, club.min_games_ranked = name.strip(), public, min_games
    if tables_run_nights is not None:
        club.tables_run_nights = tables_run_nights
    if self_check_in is not None:  # players checking in from their phones (issue 37)
        club.self_check_in = self_check_in
    if standings_sort is not None:
        club.standings_sort = standings_sort
    if lock_after_hours is not None:  # issue 40: when a finished game locks
        club.lock_after_hours = lock_after_hours
    db.session.commit()


# --- members -----------------------------------------------------------------------------


def member(club: Club, member_id: int) -> Member | None:
    """A member of this club by id."""
    found = db.session.get(Member, member_id) if 0 < member_id < 2**63 else None
    return found if found is not None and found.club_id == club.id else None


def add_member(club: Club, name: str) -> Member:
    """A new member; names are unique in a club, whatever their case."""
    name = squeezed(name)
    _check_name(name, "A member's name")
    if not 1 <= len(name) <= MAX_NAME:
        raise ClubRefused(f"A member needs a name of up to {MAX_NAME} characters.")
    if any(m.name.casefold() == name.casefold() for m in club.members):
        raise ClubRefused(f"{name} is already a member.")
    added = Member(name=name)
    club.members.append(added)
    db.session.commit()
    return added


def games_of_member(target: Member) -> int:
    """How many games name this member."""
    query = select(func.count()).select_from(Player).where(Player.member_id == target.id)
    return db.session.execute(query).scalar_one()


def delete_member(target: Member) -> None:
    """Remove a member no game mentions; one in the records is archived or merged instead."""
    used = games_of_member(target)
    if used:
        raise ClubRefused(
            f"{target.name} played {used} game{'s' if used != 1 else ''}: archive them, "
            "or merge them into another member, so the records stay whole."
        )
    db.session.delete(target)
    db.session.commit()


def set_archived(target: Member, archived: bool) -> None:
    """Archive a member (kept in the records, no longer offered for new games), or restore."""
    target.archived = archived
    db.session.commit()


def merge_members(source: Member, into: Member) -> None:
    """Fold a duplicate member into another: their games become the other's."""
    if source.id == into.id or source.club_id != into.club_id:
        raise ClubRefused("Choose another member of the same club to merge into.")
    shared = _shared_game(source, into)
    if shared is not None:
        raise ClubRefused(
            f"{source.name} and {into.name} both played in game {shared}: "
            "they are two people, so they cannot be merged."
        )
    # Two players' games become one player's: every rating of the club is folded again (marked
    # first, so the club is taken before its figures are written, as a game's finishing takes it).
    kept.club_changed(into.club_id)
    for player in db.session.execute(select(Player).where(Player.member_id == source.id)).scalars():
        player.member_id = into.id
        player.name = into.name
    results = select(MemberResult).where(MemberResult.member_id == source.id)
    for result in db.session.execute(results).scalars():
        result.member_id = into.id
    # Their nights too (each under the name they came as), or the records' nights would lose
    # them: their place on the member's page, their night wins.
    db.session.execute(
        update(NightPlayer).where(NightPlayer.member_id == source.id).values(member_id=into.id)
    )
    db.session.execute(delete(MemberDay).where(MemberDay.member_id == source.id))
    db.session.delete(source)
    figures.refresh_member_days(into.club_id)
    db.session.commit()


def _shared_game(one: Member, other: Member) -> int | None:
    """A game both members played in, if any."""
    theirs = (
        select(Side.game_id)
        .join(Player, Player.side_id == Side.id)
        .where(Player.member_id == other.id)
    )
    query = (
        select(Side.game_id)
        .join(Player, Player.side_id == Side.id)
        .where(Player.member_id == one.id, Side.game_id.in_(theirs))
        .limit(1)
    )
    return db.session.execute(query).scalar_one_or_none()


# --- seasons -----------------------------------------------------------------------------


def add_season(club: Club, name: str, starts_on: date, ends_on: date) -> Season:
    """A named stretch of dates."""
    name = name.strip()
    _check_name(name, "Season name")
    if not 1 <= len(name) <= MAX_NAME:
        raise ClubRefused(f"A season needs a name of up to {MAX_NAME} characters.")
    if ends_on < starts_on:
        raise ClubRefused("A season cannot end before it starts.")
    season = Season(name=name, starts_on=starts_on, ends_on=ends_on)
    club.seasons.append(season)
    db.session.flush()
    kept.scope_changed(club.id, kept.season_scope(season))
    db.session.commit()
    return season


def season(club: Club, season_id: int) -> Season | None:
    """One of the club's seasons."""
    return next((s for s in club.seasons if s.id == season_id), None)


def current_season(club: Club, today: date) -> Season | None:
    """The season that holds today, else the latest to have started."""
    started = [s for s in club.seasons if s.starts_on <= today]
    holding = [s for s in started if today <= s.ends_on]
    return (holding or started or [None])[0]
