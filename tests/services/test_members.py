"""services/members.py: members added as a list, names alike asked about, a member renamed;
and services/clubs.py's address made from a club's name (issue 28, the organiser's phone)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.models import Club, Member, Player, Side
from scorekeeper.services import clubs, games, members
from scorekeeper.services.clubs import ClubRefused
from scorekeeper.services.games import SideSetup
from scorekeeper.services.members import Added, Alike, ListRefused, Skipped, Unsure

from ._support import NOTHING, ONE_CLEAN, club_game, entries, kept

pytestmark = pytest.mark.usefixtures("quick_hashing")

INVISIBLE = (
    "cannot hold invisible or text-direction characters "
    "(zero-width spaces, joiners, right-to-left marks)."
)


def names_kept() -> list[str]:
    return [row.name for row in kept(select(Member.name).order_by(Member.id))]


# --- the rule of names alike ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ann", "Anne"),  # one letter added
        ("John", "Jon"),  # one dropped
        ("Micheal", "Michael"),  # two neighbours swapped
        ("Catherine", "Katherine"),  # one changed, in a name of five letters or more
        ("Mary-Ann", "mary ann"),  # the same letters, punctuation and case aside
        ("Zoë", "ZOE"),  # accents aside
        ("Ann B", "Ann"),  # an initial added
    ],
)
def test_names_that_look_alike(one, other):
    assert members.looks_alike(one, other)
    assert members.looks_alike(other, one)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Bob", "Rob"),  # one changed in a short name: another name
        ("Tim", "Tom"),
        ("Mary", "Mara"),  # four letters: still short
        ("Ann", "Dan"),  # two apart
        ("Jo", "Jon Smith"),
        ("A", "Al"),  # a letter added to a single letter: too little to go on
        ("Ann B", "Ann C"),  # four letters, one changed
        ("Table 1", "Table 2"),  # told apart by a digit
        ("Player 10", "Player 01"),
        ("🙂", "😀"),  # no letters at all: nothing to compare
    ],
)
def test_names_that_do_not(one, other):
    assert not members.looks_alike(one, other)
    assert not members.looks_alike(other, one)


def test_a_list_splits_on_lines_and_commas_and_tidies_spaces():
    typed = " Ann ,Bob\r\n\n  Cat   Smith\t\n,, Dan\n"
    assert members.split_names(typed) == ["Ann", "Bob", "Cat Smith", "Dan"]


# --- adding a list --------------------------------------------------------------------------


def test_eight_members_added_at_once_in_the_order_typed(club):
    outcome = members.add_members(club, "Bob, Dan\nEve\nFay, Gus, Hal\nIvy\nJay")
    assert outcome == Added(("Bob", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jay"), ())
    assert outcome.summary() == "8 members added: Bob, Dan, Eve, Fay, Gus, Hal, Ivy, Jay."
    assert names_kept() == ["Ann", "Cat", "Bob", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jay"]


def test_members_already_and_repeats_are_left_out_and_said(club):
    clubs.set_archived(clubs.add_member(club, "Zed"), True)
    outcome = members.add_members(club, "ann\nBob\nCat\nbob\nBob\n zed ")
    assert outcome == Added(
        ("Bob",),
        (
            Skipped("ann", "already a member, as Ann"),
            Skipped("Cat", "already a member"),
            Skipped("bob", "Bob again"),
            Skipped("Bob", "in the list twice"),
            Skipped("zed", "already a member, as Zed (archived: restore them on their page)"),
        ),
    )
    assert outcome.summary() == (
        "1 member added: Bob. Not added again: ann is already a member, as Ann; Cat is already "
        "a member; bob is Bob again; Bob is in the list twice; zed is already a member, as Zed "
        "(archived: restore them on their page)."
    )
    assert names_kept() == ["Ann", "Cat", "Zed", "Bob"]


def test_names_alike_are_asked_about_and_nothing_saved_until_confirmed(club):
    typed = "Anne, Bob, Jon\nJohn"
    outcome = members.add_members(club, typed)
    assert isinstance(outcome, Unsure)
    assert outcome.listed.names == ("Anne", "Bob", "Jon", "John")
    assert outcome.listed.alike == (
        Alike("Anne", "Ann", "already a member"),
        Alike("John", "Jon", "also in this list"),
    )
    assert [str(a) for a in outcome.listed.alike] == [
        "Anne looks like Ann, already a member",
        "John looks like Jon, also in this list",
    ]
    assert names_kept() == ["Ann", "Cat"]

    confirmed = members.add_members(club, typed, confirmed=True)
    assert confirmed == Added(("Anne", "Bob", "Jon", "John"), ())
    assert names_kept() == ["Ann", "Cat", "Anne", "Bob", "Jon", "John"]


@pytest.mark.parametrize(
    ("typed", "problems"),
    [
        pytest.param(
            "Bob\nDa\u200bn\nEve",
            (f"Name 2 (Dan) {INVISIBLE}",),
            id="invisible",
        ),
        pytest.param(
            "Bob, " + "x" * 61,
            (f"Name 2 ({'x' * 24}…) is 61 characters long: a member's name holds 60.",),
            id="too-long",
        ),
        pytest.param(
            "A\x00B\nBob\n\u202eC",
            (
                "Name 1 (AB) cannot hold control characters (tabs, line breaks, NUL).",
                f"Name 3 (C) {INVISIBLE}",
            ),
            id="each-named",
        ),
        pytest.param(
            " \n , ",
            ("Type at least one name: one a line, or separated by commas.",),
            id="blank",
        ),
        pytest.param(
            ", ".join(f"Player {n}" for n in range(101)),
            ("At most 100 names at once: this list has 101.",),
            id="too-many",
        ),
        pytest.param(
            "ann\nCat",
            ("Nothing new to add: ann is already a member, as Ann; Cat is already a member.",),
            id="nothing-new",
        ),
    ],
)
def test_a_refused_list_saves_nobody(club, typed, problems):
    outcome = members.add_members(club, typed, confirmed=True)
    assert outcome == ListRefused(problems)
    assert names_kept() == ["Ann", "Cat"]


def test_one_hundred_names_are_added(club):
    outcome = members.add_members(club, "\n".join(f"Player {n:03}" for n in range(100)))
    assert isinstance(outcome, Added) and len(outcome.names) == 100
    assert len(names_kept()) == 102


# --- renaming ---------------------------------------------------------------------------------


def sides_and_players() -> list[tuple[str, list[str]]]:
    sides = kept(select(Side.id, Side.name).order_by(Side.game_id, Side.position))
    players = kept(select(Player.side_id, Player.name).order_by(Player.position))
    return [(side.name, [p.name for p in players if p.side_id == side.id]) for side in sides]


def test_a_rename_reaches_every_game_and_every_side_named_after_its_players(club):
    bob = clubs.add_member(club, "Bob")
    clubs.add_member(club, "Dan")
    club_game(club, finished=True)  # Ann v Cat, each a side named after its player
    teams = [SideSetup("ann & Bob", ["ann", "Bob"]), SideSetup("The Sharks", ["Cat", "Dan"])]
    games.record_game("classic", teams, [entries(ONE_CLEAN, NOTHING)] * 4, club=club)
    club_game(club, finished=False, sides=[SideSetup("Ann", ["Ann"]), SideSetup("Bob", ["Bob"])])
    ann = club.members[0]

    assert members.rename_member(ann, "  Anne   Marie ") == "Ann"
    assert names_kept() == ["Anne Marie", "Cat", "Bob", "Dan"]
    # The typed "ann" of the team game is her too; "The Sharks" keep their own name.
    assert sides_and_players() == [
        ("Anne Marie", ["Anne Marie"]),
        ("Cat", ["Cat"]),
        ("Anne Marie & Bob", ["Anne Marie", "Bob"]),
        ("The Sharks", ["Cat", "Dan"]),
        ("Anne Marie", ["Anne Marie"]),
        ("Bob", ["Bob"]),
    ]
    # A side's name past 60 characters ends in an ellipsis.
    members.rename_member(bob, "B" * 60)
    team = sides_and_players()[2]
    assert team == (("Anne Marie & " + "B" * 60)[:59] + "…", ["Anne Marie", "B" * 60])


def test_a_member_renamed_by_case_alone(club):
    members.rename_member(club.members[0], "ANN")
    assert names_kept() == ["ANN", "Cat"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        pytest.param(
            "cat",
            "Cat is already a member: choose another name, or merge Ann into Cat on this page.",
            id="another-members",
        ),
        pytest.param("Ann\u200d", f"The new name {INVISIBLE}", id="invisible"),
        pytest.param("x" * 61, "A member needs a name of up to 60 characters.", id="long"),
        pytest.param("  ", "A member needs a name of up to 60 characters.", id="blank"),
    ],
)
def test_a_refused_rename_changes_nothing(club, name, message):
    club_game(club, finished=True)
    with pytest.raises(ClubRefused) as refused:
        members.rename_member(club.members[0], name)
    assert str(refused.value) == message
    assert names_kept() == ["Ann", "Cat"]
    assert sides_and_players() == [("Ann", ["Ann"]), ("Cat", ["Cat"])]


# --- a club's address from its name -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Tuesday Club", "tuesday-club"),
        ("  Café Crème — Hand & Foot!  ", "cafe-creme-hand-foot"),
        ("Ørsted Straße Æsir", "orsted-strasse-aesir"),
        ("Club 42", "club-42"),
        # Cut to 40 between words, or within the one word.
        ("The " + "very " * 10 + "long club", "the-very-very-very-very-very-very-very"),
        ("Supercalifragilisticexpialidocious Players", "supercalifragilisticexpialidocious"),
        ("x" * 45, "x" * 40),
        ("Ä", ""),  # one letter: too short an address
        ("🂡🂱", ""),
    ],
)
def test_slugify(name, slug):
    made = clubs.slugify(name)
    assert made == slug
    assert made == "" or clubs.SLUG.fullmatch(made)


def test_a_blank_address_takes_the_names_or_the_next_free_one(olga):
    assert clubs.create_club("Tuesday Club", "", olga).slug == "tuesday-club"
    assert clubs.create_club("Tuesday club!", " ", olga).slug == "tuesday-club-2"
    assert clubs.free_slug("TUESDAY CLUB") == "tuesday-club-3"
    long = "Forty characters of a club name, and more"
    assert clubs.create_club(long, "", olga).slug == "forty-characters-of-a-club-name-and-more"
    assert clubs.create_club(long, "", olga).slug == "forty-characters-of-a-club-name-and-2"
    assert [row.slug for row in kept(select(Club.slug).order_by(Club.id))] == [
        "tuesday-club",
        "tuesday-club-2",
        "forty-characters-of-a-club-name-and-more",
        "forty-characters-of-a-club-name-and-2",
    ]


def test_a_name_with_no_address_in_it_needs_one_typed(olga):
    with pytest.raises(ClubRefused) as refused:
        clubs.create_club("🂡 ♠", "", olga)
    assert str(refused.value) == (
        "The name has too few letters a to z or digits to make a web address: type one."
    )
    assert kept(select(Club.slug)) == []
