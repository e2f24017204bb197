"""services/names.py: which characters a typed name may hold, the refusal worded per field, and
the one rule for a name's spaces that members, players, sides and guests are kept by."""

from __future__ import annotations

import pytest

from scorekeeper.services import clubs, games, members, names
from scorekeeper.services.games import SideSetup

INVISIBLE = (
    "cannot hold invisible or text-direction characters "
    "(zero-width spaces, joiners, right-to-left marks)."
)


def test_a_plain_name_has_no_problem():
    assert names.name_problem("Ann-Marie O'Neil") is None
    assert names.name_problem("Zoë 张伟") is None


@pytest.mark.parametrize(
    ("text", "what", "expected"),
    [
        pytest.param(
            "Ann\tBob",
            "Names",
            "Names cannot hold control characters (tabs, line breaks, NUL).",
            id="tab",
        ),
        pytest.param(
            "Ann\x00",
            "Side 1 name",
            "Side 1 name cannot hold control characters (tabs, line breaks, NUL).",
            id="nul",
        ),
        pytest.param("A\u200bnn", "Club name", f"Club name {INVISIBLE}", id="zero-width-space"),
        pytest.param("\u202eAnn", "Names", f"Names {INVISIBLE}", id="right-to-left-override"),
        pytest.param("Ann\u2028Bob", "Names", f"Names {INVISIBLE}", id="line-separator"),
        pytest.param(
            "Ann\ud800",
            "Season name",
            "Season name cannot hold broken text (a lone surrogate, U+D800 to U+DFFF).",
            id="lone-surrogate",
        ),
    ],
)
def test_each_refused_character_is_named_with_the_field(text, what, expected):
    assert names.name_problem(text, what) == expected


def test_the_most_alarming_problem_is_the_one_told():
    """Broken text before a control character, a control character before an invisible one."""
    assert names.name_problem("\u200b\t\ud800") == (
        "Names cannot hold broken text (a lone surrogate, U+D800 to U+DFFF)."
    )
    assert names.name_problem("\u200b\t") == (
        "Names cannot hold control characters (tabs, line breaks, NUL)."
    )


def test_has_surrogate_finds_only_broken_text():
    assert names.has_surrogate("Ann\udfff") is True
    assert names.has_surrogate("Ann\u200b\t") is False


def test_cleaned_drops_what_is_refused_and_tidies_the_spaces():
    # Tabs and line breaks part words; invisible characters simply go.
    assert names.cleaned("  Ann\tSmith\n\u200bJr\u202e  ") == "Ann Smith Jr"
    assert names.cleaned("\u200b\u200d") == ""


def test_phone_name_is_cleaned_cut_short_or_the_default():
    assert names.phone_name("  Ann's\u200b phone ") == "Ann's phone"
    assert names.phone_name(None) == "Someone"
    assert names.phone_name("\u200b\u202e", "A phone") == "A phone"
    # 40 characters at most, the space left at the cut trimmed.
    assert names.phone_name("x" * 39 + " yz") == "x" * 39
    assert names.phone_name("y" * 50) == "y" * 40


# --- one rule for a name's spaces (issue 41) ---------------------------------------------------


def test_squeezed_keeps_one_space_between_words_and_none_at_the_ends():
    assert names.squeezed("  Ann   Smith \u00a0Jr ") == "Ann Smith Jr"
    assert names.name_key("ann  SMITH") == names.name_key("Ann Smith") == "ann smith"


def test_a_member_and_a_player_typed_with_double_spaces_are_one_name(club):
    """Typed "Ann  Smith" as a member and "Ann   smith " as a player: one person, one name."""
    member = clubs.add_member(club, "Ann  Smith")
    assert member.name == "Ann Smith"
    game = games.start_game(
        "classic",
        [SideSetup("The  Sharks", ["Ann   smith ", "Bob"]), SideSetup("Them", ["Cat", "Dan"])],
        club=club,
    )
    sharks = game.sides[0]
    assert sharks.name == "The Sharks"
    assert [(p.name, p.member) for p in sharks.players] == [("Ann smith", member), ("Bob", None)]
    # Two players whose names differ only in spaces are one player, on two sides refused.
    with pytest.raises(games.GameRefused) as refused:
        games.start_game("classic", [SideSetup("Us", ["Bob  Lee"]), SideSetup("Them", ["Bob Lee"])])
    assert [r.message for r in refused.value.refusals] == ["Bob Lee cannot play on two sides."]


def test_a_side_without_players_and_a_list_of_names_are_squeezed():
    """A side with no players plays as its name, squeezed; a pasted list (members, a night's
    guests) likewise, whatever spaces it holds."""
    game = games.start_game("classic", [SideSetup(" Zed  Q ", []), SideSetup("Cat", [])])
    assert [(s.name, [p.name for p in s.players]) for s in game.sides] == [
        ("Zed Q", ["Zed Q"]),
        ("Cat", ["Cat"]),
    ]
    assert members.split_names("Ann  Lee,\n Bob\u00a0 Ray ") == ["Ann Lee", "Bob Ray"]
