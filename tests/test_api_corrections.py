"""The JSON API v1 contract for finished games and corrections of their deals.

Expected figures are worked out by hand from /work/shared/rules/VARIANTS.md, in comments.
A refused request must leave what is saved exactly as it was: each refusal test reads the
game before and after and compares.
"""

from __future__ import annotations

from _api_support import (
    assert_errors,
    deal,
    find,
    minimums,
    post_deal,
    put_deal,
    start,
    state,
    totals,
)

# ------------------------------------------------------------------------- finished games


def test_finished_game_refuses_a_deal_with_409(client):
    """After the fourth deal no deal is added, and nothing changes."""
    game = start(client, "club")
    for _ in range(3):
        deal(client, game, {"books": {"clean": 1}}, {})
    final = deal(client, game, {}, {"books": {"dirty": 1}})
    assert final["finished"] is True
    assert final["winners"] == ["Ann"]  # 3 × 500 = 1500 against 300
    before = state(client, game)
    answer = post_deal(client, game, json={"scores": [{"books": {"clean": 1}}, {}]})
    errors = assert_errors(answer, 409)
    assert any("over" in e["message"] for e in errors)
    assert state(client, game) == before


def test_finished_ten_thousand_game_refuses_a_deal_with_409(client):
    """Past 10,000 alone the game is over; a further deal is 409."""
    game = start(client, "ten-thousand", decks=10)
    # 3×500 + 300 + 6×1500 = 10800; out 100 → 10,900 (42 + 1 wild cards of 60)
    over = deal(client, game, {"books": {"clean": 3, "dirty": 1, "wild": 6}, "went_out": True}, {})
    assert totals(over) == [10900, 0]
    assert (over["finished"], over["winners"]) == (True, ["Ann & Bob"])
    before = state(client, game)
    assert_errors(post_deal(client, game, json={"scores": [{}, {}]}), 409)
    assert state(client, game) == before


# ------------------------------------------------------------------------- corrections


def test_correction_recomputes_later_totals(client):
    """Correcting deal 1 of three changes every total after it; later deals stay as entered."""
    game = start(client, "classic")
    deal(client, game, {"books": {"clean": 1}, "melded_points": 100}, {"melded_points": 50})
    deal(client, game, {"books": {"dirty": 1}}, {"books": {"clean": 1}})
    third = deal(
        client, game, {"melded_points": 20}, {"books": {"dirty": 1}, "leftover_points": 100}
    )
    # 600 + 300 + 20 = 920; 50 + 500 + 200 = 750
    assert totals(third) == [920, 750]
    answer = put_deal(
        client,
        game,
        1,
        json={"scores": [{"books": {"clean": 2}, "melded_points": 100}, {"melded_points": 50}]},
    )
    assert answer.status_code == 200, answer.get_json()
    corrected = answer.get_json()
    first = corrected["deals"][0]
    assert first["version"] == 2
    assert first["scores"][0]["breakdown"]["books"] == 1000
    assert first["scores"][0]["total"] == 1100  # 2×500 + 100
    # 1100 + 300 + 20 = 1420; 750 unchanged
    assert totals(corrected) == [1420, 750]
    assert [d["version"] for d in corrected["deals"]] == [2, 1, 1]
    assert [s["total"] for s in corrected["deals"][1]["scores"]] == [300, 500]
    assert [s["total"] for s in corrected["deals"][2]["scores"]] == [20, 200]
    assert state(client, game) == corrected


def test_correction_recomputes_later_minimums(client):
    """Ten thousand: a corrected deal 1 moves a side into the next band."""
    game = start(client, "ten-thousand")
    deal(client, game, {"books": {"clean": 1, "dirty": 1}}, {})
    second = deal(client, game, {"books": {"dirty": 1}}, {})
    assert totals(second) == [1100, 0]  # 800 + 300
    assert minimums(second) == [50, 50]
    answer = put_deal(
        client, game, 1, json={"scores": [{"books": {"clean": 2, "dirty": 1}}, {}], "version": 1}
    )
    assert answer.status_code == 200
    # 1300 + 300 = 1600 → from 1,500 the side needs 90
    assert totals(answer.get_json()) == [1600, 0]
    assert minimums(answer.get_json()) == [90, 50]


def test_stale_version_is_409_and_saves_nothing(client):
    """A correction made to version 1 after it became version 2 is refused."""
    game = start(client, "club")
    deal(client, game, {"books": {"clean": 1}}, {})
    fresh = put_deal(client, game, 1, json={"scores": [{"books": {"clean": 2}}, {}], "version": 1})
    assert fresh.status_code == 200
    assert fresh.get_json()["deals"][0]["version"] == 2
    before = state(client, game)
    stale = put_deal(client, game, 1, json={"scores": [{"books": {"dirty": 1}}, {}], "version": 1})
    errors = assert_errors(stale, 409)
    assert any("version" in (e["field"] or "") or "version" in e["message"] for e in errors)
    after = state(client, game)
    assert after == before
    assert totals(after) == [1000, 0]  # still the 2 clean books


def test_bad_version_is_refused(client):
    game = start(client, "club")
    deal(client, game, {}, {})
    before = state(client, game)
    answer = put_deal(
        client, game, 1, json={"scores": [{"books": {"clean": 1}}, {}], "version": "one"}
    )
    errors = assert_errors(answer, 422)
    assert [e["field"] for e in errors] == ["version"]
    assert state(client, game) == before


def test_refused_correction_is_422_and_saves_nothing(client):
    """A correction with a bad figure is refused like a new deal."""
    game = start(client, "club")
    deal(client, game, {"books": {"clean": 1}}, {})
    before = state(client, game)
    answer = put_deal(client, game, 1, json={"scores": [{"books": {"wild": 1}}, {}]})
    find(assert_errors(answer), 0, "books.wild")
    assert state(client, game) == before


def test_correction_that_would_end_the_game_early_is_422(client):
    """Ten thousand: deal 1 corrected past 10,000 would end the game before deals 2 and 3."""
    game = start(client, "ten-thousand", decks=10)
    deal(client, game, {"books": {"clean": 1}}, {})
    deal(client, game, {}, {"books": {"dirty": 1}})
    deal(client, game, {"books": {"dirty": 1}}, {})
    before = state(client, game)
    answer = put_deal(
        client,
        game,
        1,
        # 3×500 + 300 + 6×1500 + out 100 = 10,900
        json={"scores": [{"books": {"clean": 3, "dirty": 1, "wild": 6}, "went_out": True}, {}]},
    )
    errors = assert_errors(answer)
    message = " ".join(e["message"] for e in errors)
    assert "deal 1" in message
    assert "2" in message and "3" in message
    assert state(client, game) == before


def test_correction_reopens_a_finished_game(client):
    """Ten thousand: a total corrected back under 10,000 reopens the game for more deals."""
    game = start(client, "ten-thousand", decks=10)
    over = deal(client, game, {"books": {"clean": 3, "dirty": 1, "wild": 6}, "went_out": True}, {})
    assert over["finished"] is True
    answer = put_deal(client, game, 1, json={"scores": [{"books": {"clean": 1}}, {}]})
    assert answer.status_code == 200
    reopened = answer.get_json()
    assert (reopened["finished"], reopened["winners"]) == (False, [])
    assert totals(reopened) == [500, 0]
    assert deal(client, game, {}, {"books": {"dirty": 1}})["deals"][1]["number"] == 2


def test_correction_to_a_tie_past_10000_reopens_the_game(client):
    """Ten thousand: equal highest totals past 10,000 play another deal."""
    game = start(client, "ten-thousand", decks=20)
    full = {"books": {"clean": 3, "dirty": 1, "wild": 6}}
    over = deal(client, game, {**full, "went_out": True}, {})
    assert (over["finished"], totals(over)) == (True, [10900, 0])
    answer = put_deal(
        client,
        game,
        1,
        # 10800 + out 100 = 10,900 against 10800 + 100 card points = 10,900
        json={"scores": [{**full, "went_out": True}, {**full, "melded_points": 100}]},
    )
    assert answer.status_code == 200
    tied = answer.get_json()
    assert totals(tied) == [10900, 10900]
    assert (tied["finished"], tied["winners"]) == (False, [])
    assert minimums(tied) == [150, 150]


def test_correction_can_make_a_shared_win(client):
    """Four-deal game: a corrected last deal that ties the totals shares the win."""
    game = start(client, "classic")
    for _ in range(3):
        deal(client, game, {"books": {"clean": 1}}, {"books": {"clean": 1}})
    final = deal(client, game, {"books": {"dirty": 1}}, {})
    assert (final["finished"], final["winners"]) == (True, ["Ann & Bob"])  # 1800 against 1500
    answer = put_deal(
        client, game, 4, json={"scores": [{"books": {"dirty": 1}}, {"books": {"dirty": 1}}]}
    )
    assert answer.status_code == 200
    tied = answer.get_json()
    assert totals(tied) == [1800, 1800]
    assert (tied["finished"], tied["winners"]) == (True, ["Ann & Bob", "Cat & Dan"])


def test_a_finished_games_deal_can_still_be_corrected(client):
    """Corrections stay open after the end; the winner follows the new totals."""
    game = start(client, "club")
    for _ in range(3):
        deal(client, game, {}, {})
    deal(client, game, {"books": {"clean": 1}}, {})
    answer = put_deal(
        client, game, 4, json={"scores": [{}, {"books": {"clean": 1}, "melded_points": 5}]}
    )
    assert answer.status_code == 200
    assert answer.get_json()["winners"] == ["Cat"]  # 505 against 0
