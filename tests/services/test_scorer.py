"""services/scorer.py: what a phone needs to score a game itself."""

from __future__ import annotations

from scorekeeper.rules import PRESETS
from scorekeeper.rules.stated import stated
from scorekeeper.services import games
from scorekeeper.services.queue_words import QUEUE_WORDS
from scorekeeper.services.scorer import scorer_state

from ._support import ONE_CLEAN, ONE_DIRTY, TEAMS, entries


def test_the_state_holds_the_rules_the_table_and_every_deal_as_entered():
    game = games.record_game(
        "classic",
        TEAMS,
        [entries(ONE_CLEAN, {"melded_points": 50}), entries({}, ONE_DIRTY)],
        house_rules={"going_out_bonus": 200},
    )
    state = scorer_state(game)
    # The engine's own statement of the game's rules, house rule included.
    assert {k: v for k, v in state.items() if k not in ("game", "queue")} == stated(
        games.rules_of(game)
    )
    # And the words it says of the deals waiting on it, from their one home.
    assert state["queue"] == QUEUE_WORDS
    assert not any(words.rstrip().endswith(":") for words in QUEUE_WORDS.values())
    assert state["rules"]["going_out_bonus"] == 200
    assert state["rules"]["going_out_bonus"] != PRESETS["classic"].going_out_bonus
    assert state["game"] == {
        "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
        "decks": 5,
        # Partners apart: each side's first player, then each side's second.
        "table": ["Ann", "Cat", "Bob", "Dan"],
        "first_dealer": 0,
        "deals": [
            [{"books": {"clean": 1}}, {"melded_points": 50}],
            [{}, {"books": {"dirty": 1}}],
        ],
    }


def test_a_game_without_deals_has_none_to_replay():
    sides = [games.SideSetup("Ann", []), games.SideSetup("Cat", [])]
    game = games.start_game("club", sides, first_dealer=1)
    state = scorer_state(game)["game"]
    # A side given without players plays as its name, one seat.
    assert state["sides"] == [{"name": "Ann", "players": 1}, {"name": "Cat", "players": 1}]
    assert (state["table"], state["first_dealer"], state["deals"]) == (["Ann", "Cat"], 1, [])
