"""services/clubs.py: the club, its table link, organisers, members and seasons."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.models import (
    Club,
    Member,
    MemberDay,
    MemberResult,
    Player,
    Season,
    club_organiser,
)
from scorekeeper.services import accounts, clubs
from scorekeeper.services.clubs import ClubRefused
from scorekeeper.services.games import SideSetup

from ._support import club_game, how_many, kept, kept_one

pytestmark = pytest.mark.usefixtures("quick_hashing")

CONTROL = "cannot hold control characters (tabs, line breaks, NUL)."
MARCH = date(2025, 3, 4)


def members_kept() -> list[tuple[str, bool]]:
    return [tuple(row) for row in kept(select(Member.name, Member.archived).order_by(Member.name))]


# --- the club -------------------------------------------------------------------------------


def test_create_club_keeps_it_run_by_its_maker(olga):
    made = clubs.create_club("  Tuesday Club ", " Tuesday-1 ", olga, public=True)
    row = kept_one(select(Club.id, Club.name, Club.slug, Club.standings_public, Club.table_code))
    assert (row.id, row.name, row.slug, row.standings_public) == (
        made.id,
        "Tuesday Club",
        "tuesday-1",
        True,
    )
    assert len(row.table_code) == 24  # 18 random bytes
    assert kept(select(club_organiser.c.club_id, club_organiser.c.organiser_id)) == [
        (made.id, olga.id)
    ]
    assert clubs.club_by_slug("tuesday-1") is made
    assert clubs.club_by_slug("Tuesday-1") is None  # not a slug: never asked for


@pytest.mark.parametrize(
    ("name", "slug", "message"),
    [
        pytest.param("Tuesday\tClub", "tuesday", f"Club name {CONTROL}", id="control"),
        pytest.param("  ", "tuesday", "A club needs a name of up to 80 characters.", id="blank"),
        pytest.param("x" * 81, "tuesday", "A club needs a name of up to 80 characters.", id="long"),
        pytest.param(
            "Tuesday Club",
            "-tuesday",
            "The web address must be 2 to 40 lowercase letters, digits or hyphens, starting with "
            "a letter or digit.",
            id="slug-hyphen-first",
        ),
        pytest.param(
            "Tuesday Club",
            "t",
            "The web address must be 2 to 40 lowercase letters, digits or hyphens, starting with "
            "a letter or digit.",
            id="slug-short",
        ),
    ],
)
def test_create_club_refuses_and_keeps_nothing(olga, name, slug, message):
    with pytest.raises(ClubRefused) as refused:
        clubs.create_club(name, slug, olga)
    assert str(refused.value) == message
    assert how_many(Club) == 0


def test_a_taken_web_address_is_refused(olga, club):
    with pytest.raises(ClubRefused) as refused:
        clubs.create_club("Another Club", "TUESDAY", olga)
    assert str(refused.value) == "The web address tuesday is taken: tuesday-2 is free."
    assert refused.value.free == "tuesday-2"
    assert kept(select(Club.name)) == [("Tuesday Club",)]


def test_a_new_table_code_replaces_the_old(club):
    old = club.table_code
    new = clubs.replace_table_code(club)
    assert new != old
    assert kept(select(Club.table_code)) == [(new,)]


def test_add_organiser_lets_another_account_run_the_club_once(olga, club):
    ivan = accounts.register("ivan", "another-fine-passphrase")
    assert clubs.add_organiser(club, " IVAN ") is ivan
    assert clubs.add_organiser(club, "ivan") is ivan  # already: nothing added twice
    organisers = kept(select(club_organiser.c.organiser_id).order_by("organiser_id"))
    assert organisers == [(olga.id,), (ivan.id,)]
    assert clubs.is_organiser(club, ivan) and clubs.is_organiser(club, olga)
    assert not clubs.is_organiser(club, None)


def test_add_organiser_needs_an_account(olga, club):
    with pytest.raises(ClubRefused) as refused:
        clubs.add_organiser(club, " zed ")
    assert str(refused.value) == "No account is called zed; they must sign up first."
    assert kept(select(club_organiser.c.organiser_id)) == [(olga.id,)]


def test_update_settings_keeps_the_name_visibility_and_threshold(club):
    clubs.update_settings(club, name=" Thursday Club ", public=True, min_games=0)
    assert kept(select(Club.name, Club.standings_public, Club.min_games_ranked)) == [
        ("Thursday Club", True, 0)
    ]


@pytest.mark.parametrize(
    ("name", "min_games", "message"),
    [
        pytest.param("Club\n", 3, f"Club name {CONTROL}", id="control"),
        pytest.param("", 3, "A club needs a name of up to 80 characters.", id="blank"),
        pytest.param(
            "Club", 1001, "The games needed to be ranked must be between 0 and 1,000.", id="1001"
        ),
        pytest.param(
            "Club", -1, "The games needed to be ranked must be between 0 and 1,000.", id="negative"
        ),
    ],
)
def test_update_settings_refuses_and_changes_nothing(club, name, min_games, message):
    with pytest.raises(ClubRefused) as refused:
        clubs.update_settings(club, name=name, public=True, min_games=min_games)
    assert str(refused.value) == message
    assert kept(select(Club.name, Club.standings_public, Club.min_games_ranked)) == [
        ("Tuesday Club", False, 3)
    ]


# --- members --------------------------------------------------------------------------------


def test_add_member_tidies_the_name(club):
    added = clubs.add_member(club, "  Bob   Smith ")
    assert added.name == "Bob Smith"
    assert members_kept() == [("Ann", False), ("Bob Smith", False), ("Cat", False)]
    assert clubs.member(club, added.id) is added
    assert clubs.member(club, 2**63) is None


@pytest.mark.parametrize(
    ("name", "message"),
    [
        pytest.param("ann", "ann is already a member.", id="same-name-other-case"),
        pytest.param(
            "Bo\u200bb",
            "A member's name cannot hold invisible or text-direction "
            "characters (zero-width spaces, joiners, right-to-left marks).",
            id="invisible",
        ),
        pytest.param("x" * 61, "A member needs a name of up to 60 characters.", id="long"),
        pytest.param(" ", "A member needs a name of up to 60 characters.", id="blank"),
    ],
)
def test_add_member_refuses_and_keeps_nothing(club, name, message):
    with pytest.raises(ClubRefused) as refused:
        clubs.add_member(club, name)
    assert str(refused.value) == message
    assert members_kept() == [("Ann", False), ("Cat", False)]


def test_a_member_of_another_club_is_not_found_in_this_one(olga, club):
    other = clubs.create_club("Other Club", "other", olga)
    stranger = clubs.add_member(other, "Zed")
    assert clubs.member(club, stranger.id) is None


def test_a_member_no_game_names_is_deleted(club):
    bob = clubs.add_member(club, "Bob")
    clubs.delete_member(bob)
    assert members_kept() == [("Ann", False), ("Cat", False)]


def test_a_member_in_the_records_is_not_deleted(club):
    ann = club.members[0]
    club_game(club, finished=True)
    club_game(club, finished=False)
    assert clubs.games_of_member(ann) == 2
    with pytest.raises(ClubRefused) as refused:
        clubs.delete_member(ann)
    assert str(refused.value) == (
        "Ann played 2 games: archive them, or merge them into another member, so the records "
        "stay whole."
    )
    assert members_kept() == [("Ann", False), ("Cat", False)]


def test_archiving_and_restoring_a_member(club):
    ann = club.members[0]
    clubs.set_archived(ann, True)
    assert members_kept() == [("Ann", True), ("Cat", False)]
    clubs.set_archived(ann, False)
    assert members_kept() == [("Ann", False), ("Cat", False)]


def test_merging_moves_the_games_and_results_to_the_other_member(club):
    ann, cat = club.members
    annie = clubs.add_member(club, "Annie")
    club_game(club, finished=True, played_on=MARCH)  # Ann beats Cat
    sides = [SideSetup("Annie", ["Annie"]), SideSetup("Cat", ["Cat"])]
    club_game(club, finished=True, sides=sides, played_on=MARCH)  # Annie beats Cat
    clubs.merge_members(annie, ann)
    assert members_kept() == [("Ann", False), ("Cat", False)]
    assert kept(select(Player.name, Player.member_id).order_by(Player.id)) == [
        ("Ann", ann.id),
        ("Cat", cat.id),
        ("Ann", ann.id),
        ("Cat", cat.id),
    ]
    assert kept(select(MemberResult.member_id).order_by(MemberResult.id)) == [
        (ann.id,),
        (cat.id,),
        (ann.id,),
        (cat.id,),
    ]
    # The night's sums added again: Ann has two games and two wins that evening.
    nights = select(MemberDay.member_id, MemberDay.games, MemberDay.won, MemberDay.final_total)
    assert sorted(kept(nights)) == sorted([(ann.id, 2, 2, 4000), (cat.id, 2, 0, 0)])


def test_two_people_who_played_each_other_are_not_merged(club):
    ann, cat = club.members
    game = club_game(club, finished=True)
    with pytest.raises(ClubRefused) as refused:
        clubs.merge_members(cat, ann)
    assert str(refused.value) == (
        f"Cat and Ann both played in game {game.id}: they are two people, so they cannot be merged."
    )
    assert members_kept() == [("Ann", False), ("Cat", False)]
    assert kept(select(Player.member_id).order_by(Player.id)) == [(ann.id,), (cat.id,)]


def test_a_member_is_merged_only_into_another_of_the_same_club(olga, club):
    ann = club.members[0]
    other = clubs.create_club("Other Club", "other", olga)
    stranger = clubs.add_member(other, "Ann")
    for source, into in ((ann, ann), (stranger, ann)):
        with pytest.raises(ClubRefused) as refused:
            clubs.merge_members(source, into)
        assert str(refused.value) == "Choose another member of the same club to merge into."
    assert how_many(Member) == 3


# --- seasons --------------------------------------------------------------------------------


def test_add_season_keeps_its_dates(club):
    clubs.add_season(club, " Spring 2025 ", date(2025, 3, 1), date(2025, 6, 30))
    assert kept(select(Season.name, Season.starts_on, Season.ends_on)) == [
        ("Spring 2025", date(2025, 3, 1), date(2025, 6, 30))
    ]


@pytest.mark.parametrize(
    ("name", "ends_on", "message"),
    [
        pytest.param(
            "Spring", date(2025, 2, 28), "A season cannot end before it starts.", id="end"
        ),
        pytest.param(
            "", date(2025, 6, 30), "A season needs a name of up to 60 characters.", id="blank"
        ),
        pytest.param("Spr\ring", date(2025, 6, 30), f"Season name {CONTROL}", id="control"),
    ],
)
def test_add_season_refuses_and_keeps_nothing(club, name, ends_on, message):
    with pytest.raises(ClubRefused) as refused:
        clubs.add_season(club, name, date(2025, 3, 1), ends_on)
    assert str(refused.value) == message
    assert how_many(Season) == 0


def test_the_current_season_holds_today_else_the_latest_started(club):
    winter = clubs.add_season(club, "Winter", date(2024, 11, 1), date(2025, 2, 28))
    spring = clubs.add_season(club, "Spring", date(2025, 4, 1), date(2025, 6, 30))
    assert clubs.current_season(club, date(2025, 1, 15)) is winter
    assert clubs.current_season(club, date(2025, 3, 15)) is winter  # between the two
    assert clubs.current_season(club, date(2025, 4, 1)) is spring
    assert clubs.current_season(club, date(2024, 10, 31)) is None
    assert clubs.season(club, spring.id) is spring
    assert clubs.season(club, spring.id + 100) is None
