"""services/clubs.py: a club's saved rule sets, their numbers, their games and the default."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.models import Game, SavedRules
from scorekeeper.services import clubs
from scorekeeper.services.clubs import ClubRefused, RulesRefused

from ._support import club_game, kept

pytestmark = pytest.mark.usefixtures("quick_hashing")


# --- saved rule sets ------------------------------------------------------------------------


def saved_kept() -> list[tuple]:
    columns = (SavedRules.name, SavedRules.ruleset, SavedRules.house_rules, SavedRules.is_default)
    return [tuple(row) for row in kept(select(*columns).order_by(SavedRules.id))]


def test_a_saved_rule_set_keeps_its_preset_and_numbers(club):
    saved = clubs.create_saved_rules(club, "  Thursday   rules ", "club", {"red_three_caught": 300})
    assert saved_kept() == [("Thursday rules", "club", {"red_three_caught": 300}, False)]
    assert clubs.saved_rules(club, saved.id) is saved
    assert clubs.default_rules(club) is None


@pytest.mark.parametrize(
    ("house_rules", "problems"),
    [
        pytest.param(
            {"nonsense": 1},
            [("nonsense", "There is no rule called 'nonsense' that a club can change.")],
            id="no-such-rule",
        ),
        pytest.param(
            {"book_bonuses": {"clean": -5}},
            [("book_bonuses", "book_bonuses.clean must be between 0 and 100,000, not -5.")],
            id="negative",
        ),
        pytest.param(
            {"going_out_bonus": 101},
            [
                (
                    "going_out_bonus",
                    "Going-out bonus must be a multiple of 5, as every score is, not 101.",
                )
            ],
            id="off-the-fives",
        ),
    ],
)
def test_numbers_that_cannot_be_played_are_refused_rule_by_rule(club, house_rules, problems):
    with pytest.raises(RulesRefused) as refused:
        clubs.create_saved_rules(club, "Thursday rules", "club", house_rules)
    assert refused.value.problems == problems
    assert str(refused.value) == problems[0][1]
    assert saved_kept() == []


def test_a_saved_rule_set_needs_a_name_of_its_own(club):
    clubs.create_saved_rules(club, "Thursday rules", "club", {})
    with pytest.raises(ClubRefused) as refused:
        clubs.create_saved_rules(club, "THURSDAY RULES", "classic", {})
    assert str(refused.value) == "The club already has a rule set called Thursday rules."
    with pytest.raises(ClubRefused) as refused:
        clubs.create_saved_rules(club, "", "classic", {})
    assert str(refused.value) == "A rule set needs a name of up to 60 characters."
    assert saved_kept() == [("Thursday rules", "club", {}, False)]


def test_updating_a_saved_rule_set_leaves_games_started_from_it_alone(club):
    saved = clubs.create_saved_rules(club, "Thursday rules", "club", {"red_three_caught": 300})
    club_game(club, finished=True, saved_rules=saved, house_rules={"red_three_caught": 300})
    # Renamed in another case only: still its own name, not another's.
    clubs.update_saved_rules(saved, "THURSDAY rules", {"red_three_caught": 200})
    assert saved_kept() == [("THURSDAY rules", "club", {"red_three_caught": 200}, False)]
    assert kept(select(Game.house_rules, Game.rules_name, Game.saved_rules_id)) == [
        ({"red_three_caught": 300}, "Thursday rules", saved.id)
    ]
    assert clubs.games_by_saved_rules(club) == {saved.id: 1}


def test_an_update_that_cannot_be_played_changes_nothing(club):
    saved = clubs.create_saved_rules(club, "Thursday rules", "club", {"red_three_caught": 300})
    with pytest.raises(RulesRefused):
        clubs.update_saved_rules(saved, "Friday rules", {"red_three_caught": 301})
    assert saved_kept() == [("Thursday rules", "club", {"red_three_caught": 300}, False)]


def test_deleting_a_saved_rule_set_leaves_its_games_their_numbers_and_name(club):
    saved = clubs.create_saved_rules(club, "Thursday rules", "club", {"red_three_caught": 300})
    club_game(club, finished=True, saved_rules=saved, house_rules={"red_three_caught": 300})
    clubs.delete_saved_rules(saved)
    assert saved_kept() == []
    assert kept(select(Game.house_rules, Game.rules_name, Game.saved_rules_id)) == [
        ({"red_three_caught": 300}, "Thursday rules", None)
    ]
    assert clubs.games_by_saved_rules(club) == {}


def test_one_default_at_a_time_or_none(club):
    thursday = clubs.create_saved_rules(club, "Thursday rules", "club", {})
    friday = clubs.create_saved_rules(club, "Friday rules", "classic", {})
    clubs.make_default(club, thursday)
    clubs.make_default(club, friday)
    assert [(name, default) for name, _, _, default in saved_kept()] == [
        ("Thursday rules", False),
        ("Friday rules", True),
    ]
    assert clubs.default_rules(club) is friday
    clubs.make_default(club, None)
    assert [default for *_, default in saved_kept()] == [False, False]


def test_another_clubs_rule_set_is_not_this_clubs_default(olga, club):
    other = clubs.create_club("Other Club", "other", olga)
    theirs = clubs.create_saved_rules(other, "Their rules", "club", {})
    assert clubs.saved_rules(club, theirs.id) is None
    with pytest.raises(ClubRefused) as refused:
        clubs.make_default(club, theirs)
    assert str(refused.value) == "Choose one of this club's own rule sets."
    assert [default for *_, default in saved_kept()] == [False]
