"""Issue 39, writes bounded: a game's corrections, deals and lines, per game and per address.

8 threads correcting deal 1 of one game without pause made other tables' saves 11x slower. Each
test sends writes past an allowance (services/writes.py) and checks the refusal's words, status
and Retry-After, that nothing of the refused write was saved, and that another game or address
is not held back.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from game_links import key, link
from page_reader import read_page
from sqlalchemy import event

from scorekeeper.plumbing.db import db
from scorekeeper.services import writes

TEAMS = [{"name": "North", "players": ["Ann", "Bob"]}, {"name": "South", "players": ["Cat", "Dan"]}]
OTHER = "10.9.8.7"  # another address, as the test client sends it (REMOTE_ADDR)


# The clock stopped 29.5 s into a minute, 329.5 s into ten: no window ends during a test. The
# windows slide: a write past the allowance waits until enough of its window has slid out.
HALF_WAY = 2_000_000 * 600 + 329.5


@pytest.fixture(autouse=True)
def _stopped_clock(monkeypatch):
    """Every test starts with no refusal remembered by this process (writes._refused)."""
    monkeypatch.setattr(writes, "clock", lambda: HALF_WAY)
    writes.forget_refusals()
    yield
    writes.forget_refusals()


def start(client, **environ: str) -> dict[str, Any]:
    """A casual game by the API, with one deal in it."""
    answer = client.post("/api/v1/games", json={"ruleset": "classic", "sides": TEAMS})
    assert answer.status_code == 201, answer.get_json()
    game = answer.get_json()
    saved = deal(client, game, 50)
    assert saved.status_code == 201, saved.get_json()
    return game


def deal(client, game: dict[str, Any], melded: int, address: str = "127.0.0.1"):
    """The answer to entering the next deal by the API."""
    return client.post(
        f"/api/v1/games/{game['id']}/deals",
        json={"scores": [{"melded_points": melded}, {"melded_points": 100}]},
        headers={"X-Game-Key": game["key"]},
        environ_base={"REMOTE_ADDR": address},
    )


def correct(client, game: dict[str, Any], melded: int, address: str = "127.0.0.1"):
    """The answer to correcting deal 1 by the API."""
    return client.put(
        f"/api/v1/games/{game['id']}/deals/1",
        json={"scores": [{"melded_points": melded}, {"melded_points": 100}]},
        headers={"X-Game-Key": game["key"]},
        environ_base={"REMOTE_ADDR": address},
    )


def deal_one(client, game: dict[str, Any]) -> dict[str, Any]:
    """Deal 1 as saved: its version and North's melded points."""
    state = client.get(f"/api/v1/games/{game['id']}", headers={"X-Game-Key": game["key"]})
    first = state.get_json()["deals"][0]
    return {"version": first["version"], "entries": [s["entry"] for s in first["scores"]]}


def message(answer) -> str:
    errors = answer.get_json()["errors"]
    assert errors[0]["field"] is None and errors[0]["inputs"] == []
    return errors[0]["message"]


def test_the_7th_correction_of_a_game_within_a_minute_is_refused_with_its_words(client):
    """The default allowance (6 within a minute): the 7th is 429 and changes nothing; a
    correction of another game from the same address, and of this one from another, differ."""
    most = writes.ALLOWANCES[(writes.CORRECTION, writes.GAME)].most
    game, other = start(client), start(client)
    for n in range(most):
        assert correct(client, game, 60 + 5 * n).status_code == 200
    before = deal_one(client, game)
    refused = correct(client, game, 999)
    assert refused.status_code == 429
    # 6 within this minute: one more when a sixth of them has slid out of the last minute, at
    # 70 s from its start, 40.5 s from now.
    assert refused.headers["Retry-After"] == "41"
    assert message(refused) == (
        f"This game has had {most} corrections within a minute, the most a game may. "
        "Nothing was saved: try again in 41 seconds."
    )
    assert deal_one(client, game) == before  # nothing of the refused one saved
    # Another address is held back too: the allowance is the game's.
    assert correct(client, game, 998, address=OTHER).status_code == 429
    # Another game is not.
    assert correct(client, other, 70).status_code == 200
    assert deal_one(client, other)["version"] == 2


def test_an_addresss_corrections_are_counted_across_its_games(app, client):
    """Past the address's allowance (lowered here) every game refuses it; another address not."""
    app.config["CORRECTIONS_PER_ADDRESS"] = 3
    games = [start(client) for _ in range(4)]
    for game in games[:3]:
        assert correct(client, game, 60).status_code == 200
    refused = correct(client, games[3], 60)
    assert refused.status_code == 429
    assert message(refused).startswith(
        "This address has sent 3 corrections within a minute, the most one address may send."
    )
    assert deal_one(client, games[3])["version"] == 1
    assert correct(client, games[3], 65, address=OTHER).status_code == 200


def test_a_correction_refused_for_its_figures_still_counts(app, client):
    """What is counted is what was let through, saved or not: a stale or refused correction
    costs the server as much as one saved (it replays the game), so a flood of them is bounded."""
    app.config["CORRECTIONS_PER_GAME"] = 2
    game = start(client)
    stale = client.put(
        f"/api/v1/games/{game['id']}/deals/1",
        json={"scores": [{"melded_points": 70}, {"melded_points": 100}], "version": 7},
        headers=key(client, game["id"]),
    )
    assert stale.status_code == 409
    bad = correct(client, game, -5)
    assert bad.status_code == 422
    refused = correct(client, game, 80)
    assert refused.status_code == 429
    assert "This game has had 2 corrections" in message(refused)
    assert deal_one(client, game)["version"] == 1


def test_deals_past_the_games_allowance_are_refused_and_not_saved(app, client):
    """Deals and sides' lines share one allowance per game: past it, 429 and no deal saved."""
    app.config["ENTRIES_PER_GAME"] = 3
    game, other = start(client), start(client)  # one entry each already
    assert deal(client, game, 60).status_code == 201
    line = client.put(
        f"/api/v1/games/{game['id']}/deals/next/parts/0",
        json={"deal": 3, "entry": {"melded_points": 50}},
        headers=key(client, game["id"]),
    )
    assert line.status_code == 200, line.get_json()
    refused = deal(client, game, 70)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "471"  # when a third of these 3 has slid out
    assert message(refused) == (
        "This game has had 3 deals and lines within 10 minutes, the most a game may. Nothing "
        "was saved: try again in 8 minutes."
    )
    state = client.get(f"/api/v1/games/{game['id']}", headers=key(client, game["id"]))
    assert len(state.get_json()["deals"]) == 2
    assert deal(client, other, 60).status_code == 201


def test_the_pages_correction_past_the_allowance_shows_the_form_again(app, client):
    """The deal's edit form posted past the allowance: 429, the form again with the figures as
    typed and the message naming what was limited and when to try again; nothing saved."""
    app.config["CORRECTIONS_PER_GAME"] = 1
    game = start(client)
    page = client.get(f"{link(client, game['id'])}/deals/1/edit")
    data = read_page(page.get_data(as_text=True)).values
    data["s0-melded_points"] = "150"
    saved = client.post(f"{link(client, game['id'])}/deals/1/edit", data=data)
    assert saved.status_code == 302
    data = read_page(client.get(saved.headers["Location"]).get_data(as_text=True)).values
    page = client.get(f"{link(client, game['id'])}/deals/1/edit")
    data = read_page(page.get_data(as_text=True)).values
    data["s0-melded_points"] = "250"
    refused = client.post(f"{link(client, game['id'])}/deals/1/edit", data=data)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "91"  # when the one has slid out of the minute
    shown = read_page(refused.get_data(as_text=True))
    assert shown.values["s0-melded_points"] == "250"  # the figures as typed, kept
    words = " ".join(" ".join(shown.words).split())
    assert re.search(
        r"This game has had 1 correction within a minute, the most a game may\. Nothing "
        r"was saved: try again in 2 minutes\.",
        words,
    ), words
    assert deal_one(client, game)["entries"][0]["melded_points"] == 150


def test_the_pages_deal_and_line_past_the_allowance_keep_their_figures(app, client):
    """The deal form and a side's line form refused the same way: 429, figures kept."""
    app.config["ENTRIES_PER_GAME"] = 1
    game = start(client)
    form = client.get(f"{link(client, game['id'])}/deals/new")
    data = read_page(form.get_data(as_text=True)).values
    data["s0-melded_points"] = "120"
    refused = client.post(f"{link(client, game['id'])}/deals/new", data=data)
    assert refused.status_code == 429
    shown = read_page(refused.get_data(as_text=True))
    assert shown.values["s0-melded_points"] == "120"
    assert "This game has had 1 deal or line within 10 minutes" in " ".join(shown.words)
    line = client.get(f"{link(client, game['id'])}/deals/next/1")
    data = read_page(line.get_data(as_text=True)).values
    data["s1-melded_points"] = "130"
    refused = client.post(f"{link(client, game['id'])}/deals/next/1", data=data)
    assert refused.status_code == 429
    assert read_page(refused.get_data(as_text=True)).values["s1-melded_points"] == "130"
    state = client.get(f"/api/v1/games/{game['id']}", headers=key(client, game["id"]))
    assert len(state.get_json()["deals"]) == 1
    parts = client.get(
        f"/api/v1/games/{game['id']}/deals/next/parts", headers=key(client, game["id"])
    )
    assert [part["in"] for part in parts.get_json()["parts"]] == [False, False]


def test_the_allowance_is_a_setting(app, client, monkeypatch):
    """CORRECTIONS_PER_GAME (app config, or SCOREKEEPER_CORRECTIONS_PER_GAME) sets the number;
    a value that is no allowance leaves the default."""
    with app.test_request_context():
        assert writes.most_of(writes.CORRECTION, writes.GAME) == 6
        monkeypatch.setenv("SCOREKEEPER_CORRECTIONS_PER_GAME", "5")
        assert writes.most_of(writes.CORRECTION, writes.GAME) == 5
        monkeypatch.setenv("SCOREKEEPER_CORRECTIONS_PER_GAME", "lots")
        assert writes.most_of(writes.CORRECTION, writes.GAME) == 6
        app.config["CORRECTIONS_PER_GAME"] = 7
        assert writes.most_of(writes.CORRECTION, writes.GAME) == 7


def test_the_windows_slide_so_no_burst_of_twice_the_allowance_comes_at_their_turn(
    client, monkeypatch
):
    """6 corrections late in one minute leave room for only one early in the next (the last
    minute's 6 still count for the part of it not yet slid out); the Retry-After is honest."""
    game = start(client)
    minute = 2_000_000 * 600
    monkeypatch.setattr(writes, "clock", lambda: minute + 50.0)
    for n in range(6):
        assert correct(client, game, 60 + 5 * n).status_code == 200
    monkeypatch.setattr(writes, "clock", lambda: minute + 70.0)  # 10 s into the next minute
    assert correct(client, game, 95).status_code == 200  # 1 + 6 x 5/6 = 6
    refused = correct(client, game, 100)
    assert refused.status_code == 429
    # 1 more needs 2 + 6 x (1 - f) <= 6: f = 1/3, 20 s into the minute, 10 s from now.
    assert refused.headers["Retry-After"] == "10"
    monkeypatch.setattr(writes, "clock", lambda: minute + 80.5)
    assert correct(client, game, 100).status_code == 200
    assert deal_one(client, game)["version"] == 9


def test_a_flood_is_refused_again_without_asking_the_database_for_its_count(app, client):
    """Once refused, the game's next API writes are answered from the process's memory: only
    the link is looked up, nothing about the allowance or the game read, until it lapses."""
    app.config["CORRECTIONS_PER_GAME"] = 1
    game = start(client)
    assert correct(client, game, 60).status_code == 200
    assert correct(client, game, 65).status_code == 429
    seen: list[str] = []

    def asked(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", asked)
    try:
        again = correct(client, game, 70)
    finally:
        event.remove(engine, "before_cursor_execute", asked)
    assert again.status_code == 429 and "1 correction within a minute" in message(again)
    assert not any("write_tally" in s or "deal" in s for s in seen), seen
