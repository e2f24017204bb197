"""The JSON API v1 contract for where refusals point: JSON pointers to each figure at fault.

A refused deal, correction or game names every figure of its body that was at fault; a
conflict or a refusal of what a correction would do names none.
"""

from __future__ import annotations

import pytest
from _api_support import (
    INDIVIDUALS,
    assert_errors,
    deal,
    games_saved,
    pointers,
    post_deal,
    put_deal,
    start,
    two_teams,
)

# ------------------------------------------------------------------------- where refusals point


@pytest.mark.parametrize(
    ("ruleset", "decks", "scores", "field", "expected"),
    [
        pytest.param(
            "classic",
            None,
            [{"melded_points": -5}, {}],
            "melded_points",
            ["/scores/0/melded_points"],
            id="a-sides-figure",
        ),
        pytest.param(
            "classic",
            None,
            [{}, {"books": {"clean": -1}}],
            "books.clean",
            ["/scores/1/books/clean"],
            id="a-kind-inside-a-figure",
        ),
        pytest.param(
            "classic",
            None,
            [{}, {"melded_cards": {"black_three": 2}}],
            "melded_cards.black_three",
            ["/scores/1/melded_cards/black_three"],
            id="black-threes-melded-where-they-cannot-be",
        ),
        pytest.param(
            "classic",
            4,
            [{"melded_cards": {"joker": 6}}, {"leftover_cards": {"joker": 4}}],
            "cards.joker",
            ["/scores/0/melded_cards/joker", "/scores/1/leftover_cards/joker"],
            id="a-limit-over-the-deal-names-every-figure-that-counted",
        ),
        pytest.param(
            "classic",
            4,
            [{"red_threes_down": 5}, {"red_threes_caught": 4}],
            "red_threes",
            ["/scores/0/red_threes_down", "/scores/1/red_threes_caught"],
            id="red-threes-over-the-decks",
        ),
        pytest.param(
            "classic",
            None,
            [{"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True}]
            + [{"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True}],
            "went_out",
            ["/scores/0/went_out", "/scores/1/went_out"],
            id="two-sides-went-out",
        ),
        pytest.param("classic", None, [{}], "scores", ["/scores"], id="too-few-scores"),
        pytest.param("classic", None, "all", "scores", ["/scores"], id="scores-not-a-list"),
        pytest.param(
            "classic", None, [{"a/b~c": 1}, {}], "a/b~c", ["/scores/0/a~1b~0c"], id="escaped"
        ),
        pytest.param(
            "classic",
            None,
            [{"books.clean": 1}, {}],
            "books.clean",
            ["/scores/0/books.clean"],
            id="a-key-with-a-dot-is-one-key",
        ),
        pytest.param(
            "classic",
            None,
            [{"books": {"x.y/z": 1}}, {}],
            "books.x.y/z",
            ["/scores/0/books/x.y~1z"],
            id="an-unknown-kind",
        ),
    ],
)
def test_a_refused_deal_points_at_each_figure(client, ruleset, decks, scores, field, expected):
    """Each error's inputs are JSON pointers into the body as sent, to every figure at fault."""
    game = start(client, ruleset, **({"decks": decks} if decks else {}))
    errors = assert_errors(post_deal(client, game, json={"scores": scores}))
    error = next(e for e in errors if e["field"] == field)
    assert pointers(error) == expected
    # The same pointers for a correction of a deal.
    deal(client, game, {}, {})
    corrected = assert_errors(put_deal(client, game, 1, json={"scores": scores}))
    assert pointers(next(e for e in corrected if e["field"] == field)) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(
            {"ruleset": "club", "sides": [{"name": "Ann"}, {"name": "  "}]},
            ["/sides/1/name"],
            id="a-sides-name",
        ),
        pytest.param(
            {"ruleset": "club", "sides": [{"name": "Ann"}, {"name": "Bob", "players": "Bob"}]},
            ["/sides/1/players"],
            id="players-not-a-list",
        ),
        pytest.param(
            {"ruleset": "club", "sides": INDIVIDUALS, "decks": "4"}, ["/decks"], id="decks"
        ),
        pytest.param({"sides": INDIVIDUALS}, ["/ruleset"], id="no-ruleset"),
        pytest.param(
            {"ruleset": "poker", "sides": INDIVIDUALS}, ["/ruleset"], id="no-such-ruleset"
        ),
        pytest.param({"ruleset": "club", "sides": INDIVIDUALS[:1]}, ["/sides"], id="one-side"),
        pytest.param(
            {"ruleset": "club", "sides": INDIVIDUALS, "rules": {"going_out_bonus": 102}},
            ["/rules/going_out_bonus"],
            id="a-bonus-off-the-fives",
        ),
        pytest.param(
            {"ruleset": "club", "sides": INDIVIDUALS, "rules": {"opening_minimums": [52, 90]}},
            ["/rules/opening_minimums/0"],
            id="a-minimum-off-the-fives",
        ),
        pytest.param(
            {"ruleset": "club", "sides": INDIVIDUALS, "rules": {"no_such_rule": 1}},
            ["/rules/no_such_rule"],
            id="an-unknown-rule",
        ),
        pytest.param(
            {
                "ruleset": "classic",
                "sides": two_teams(),
                "decks": 2,
                "rules": {"hand_size": 40, "foot_size": 40},
            },
            ["/decks", "/rules/hand_size", "/rules/foot_size"],
            id="decks-too-few-for-the-hands",
        ),
    ],
)
def test_a_refused_game_points_at_each_figure(client, body, expected):
    """A new game's refusals point into its body: a side's figure, decks, a house rule."""
    errors = assert_errors(client.post("/api/v1/games", json=body))
    assert expected in [pointers(e) for e in errors], errors
    assert games_saved(client) == 0


def test_a_stale_version_points_at_version_and_other_conflicts_at_nothing(client):
    """The 409 of a stale correction names /version; a game over or a key reused, no figure."""
    game = start(client, "club", rules={"end_after_deals": 1})
    deal(client, game, {"books": {"clean": 1}}, {})
    fresh = put_deal(client, game, 1, json={"scores": [{"books": {"clean": 2}}, {}], "version": 1})
    assert fresh.status_code == 200
    stale = assert_errors(put_deal(client, game, 1, json={"scores": [{}, {}], "version": 1}), 409)
    assert [e["inputs"] for e in stale] == [
        [{"side": None, "field": "version", "pointer": "/version"}]
    ]
    not_a_version = assert_errors(
        put_deal(client, game, 1, json={"scores": [{}, {}], "version": "2"})
    )
    assert [pointers(e) for e in not_a_version] == [["/version"]]
    over = assert_errors(post_deal(client, game, json={"scores": [{}, {}]}), 409)
    assert [e["inputs"] for e in over] == [[]]


def test_a_correction_that_would_end_the_game_early_is_422_about_no_figure(client):
    """Refused for what it would do to the deals after it: 422, and no figure to blame."""
    game = start(client, "ten-thousand", decks=10)
    deal(client, game, {"books": {"clean": 1}}, {})
    deal(client, game, {}, {"books": {"dirty": 1}})
    over = {"books": {"clean": 3, "dirty": 1, "wild": 6}, "went_out": True}
    errors = assert_errors(put_deal(client, game, 1, json={"scores": [over, {}]}))
    assert [e["inputs"] for e in errors] == [[]]
    assert "already follow" in errors[0]["message"]
