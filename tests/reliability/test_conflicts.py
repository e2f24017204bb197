"""Conflicts on a live server: stale corrections are 409 and overwrite nothing; the same key
(API header or the page's hidden field) sent ten times at once records one deal; two keys at
once record deals 1 and 2, never two of the same number."""

from __future__ import annotations

import threading
import uuid

import pytest
from conftest import serving

from ._server import DEAL, Game, Gunicorn, Reply, call, form_fields, new_game, new_key

AT_ONCE = 10


@pytest.fixture
def live_port(app):
    """The test app (CSRF off) served by werkzeug, threaded, on 127.0.0.1."""
    with serving(app) as server:
        yield server.server_port


@pytest.fixture(scope="module")
def gunicorn_port(tmp_path_factory):
    """gunicorn -w 4 on a SQLite file: several processes race for the same game."""
    gunicorn = Gunicorn(tmp_path_factory.mktemp("conflicts"), workers=4)
    try:
        gunicorn.init_db()
        gunicorn.start()
        yield gunicorn.port
    finally:
        gunicorn.stop()


@pytest.fixture(params=["werkzeug", "gunicorn"])
def port(request):
    return request.getfixturevalue("live_port" if request.param == "werkzeug" else "gunicorn_port")


def at_once(send, count: int = AT_ONCE) -> list[Reply | BaseException]:
    """Run send(i) in `count` threads released together by a barrier."""
    barrier = threading.Barrier(count, timeout=30)
    replies: list[Reply | BaseException | None] = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait()
            replies[i] = send(i)
        except BaseException as exc:  # kept and asserted on below
            replies[i] = exc

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    return replies


def state(port: int, game: Game) -> dict:
    reply = call(port, "GET", game.api, headers=game.headers)
    assert reply.status == 200
    return reply.json()


def figures(game_state: dict, number: int = 1) -> list[int]:
    return [s["entry"]["melded_points"] for s in game_state["deals"][number - 1]["scores"]]


def scores(north: int, south: int) -> list[dict]:
    return [{"melded_points": north}, {"melded_points": south}]


def post_deal(port: int, game: Game, key: str | None = None) -> Reply:
    headers = {**game.headers, **({"Idempotency-Key": key} if key else {})}
    return call(port, "POST", f"{game.api}/deals", json_body=DEAL, headers=headers)


# Stale corrections


def test_stale_api_correction_is_409_and_overwrites_nothing(live_port):
    game = new_game(live_port)
    assert post_deal(live_port, game).status == 201
    version = state(live_port, game)["deals"][0]["version"]
    put = f"{game.api}/deals/1"
    mine = {"scores": scores(120, 80), "version": version}
    theirs = {"scores": scores(70, 60), "version": version}

    first = call(live_port, "PUT", put, json_body=mine, headers=game.headers)
    second = call(live_port, "PUT", put, json_body=theirs, headers=game.headers)

    assert first.status == 200, first.text
    assert second.status == 409, second.text
    assert second.json()["errors"][0]["field"] == "version"
    now = state(live_port, game)
    assert figures(now) == [120, 80]
    assert [s["total"] for s in now["sides"]] == [120, 80]
    assert now["deals"][0]["version"] == version + 1


def test_concurrent_api_corrections_of_one_version_one_wins(port):
    game = new_game(port)
    assert post_deal(port, game).status == 201
    version = state(port, game)["deals"][0]["version"]

    replies = at_once(
        lambda i: call(
            port,
            "PUT",
            f"{game.api}/deals/1",
            json_body={"scores": scores(100 + 10 * i, 60), "version": version},
            headers=game.headers,
        )
    )

    statuses = sorted(r.status for r in replies)
    assert statuses == [200] + [409] * (AT_ONCE - 1), replies
    winner = next(i for i, r in enumerate(replies) if r.status == 200)
    now = state(port, game)
    assert figures(now) == [100 + 10 * winner, 60]
    assert now["deals"][0]["version"] == version + 1


def test_stale_page_correction_gets_the_conflict_page_and_keeps_the_first(live_port):
    game = new_game(live_port)
    assert post_deal(live_port, game).status == 201
    edit = f"{game.page}/deals/1/edit"
    # Two phones open the correction form of the same deal.
    phone_a = form_fields(call(live_port, "GET", edit).text, edit)
    phone_b = form_fields(call(live_port, "GET", edit).text, edit)
    assert phone_a["version"] == phone_b["version"] == "1"

    first = call(live_port, "POST", edit, form={**phone_a, "s0-melded_points": "120"})
    second = call(live_port, "POST", edit, form={**phone_b, "s0-melded_points": "70"})

    assert first.status == 302, first.text[:500]
    assert second.status == 409, second.text[:500]
    assert "Saved now (version 2)" in second.text
    assert "Yours" in second.text
    now = state(live_port, game)
    assert figures(now) == [120, 50]
    assert now["deals"][0]["version"] == 2

    # "Save mine instead" on the conflict page: a deliberate choice, made from version 2.
    mine = form_fields(second.text, edit)
    assert mine["version"] == "2" and mine["s0-melded_points"] == "70"
    assert call(live_port, "POST", edit, form=mine).status == 302
    now = state(live_port, game)
    assert figures(now) == [70, 50]
    assert now["deals"][0]["version"] == 3


# The same submission many times at once


def test_same_idempotency_key_ten_at_once_records_one_deal(port):
    game = new_game(port)
    key = new_key("same")

    replies = at_once(lambda _: post_deal(port, game, key))

    assert all(isinstance(r, Reply) for r in replies), replies
    assert [r.status for r in replies] == [201] * AT_ONCE, [r.text[:200] for r in replies]
    replayed = [r.headers.get("idempotent-replayed") == "true" for r in replies]
    assert sum(replayed) == AT_ONCE - 1
    now = state(port, game)
    assert len(now["deals"]) == 1
    assert [s["total"] for s in now["sides"]] == [50, 50]


def test_page_form_sent_ten_times_at_once_records_one_deal(live_port):
    game = new_game(live_port)
    new = f"{game.page}/deals/new"
    fields = form_fields(call(live_port, "GET", new).text, new)
    assert len(fields.get("idempotency_key", "")) == 32, "the form carries no idempotency key"
    fields.update({"s0-melded_points": "50", "s1-melded_points": "50"})

    replies = at_once(lambda _: call(live_port, "POST", new, form=fields))

    assert all(isinstance(r, Reply) for r in replies), replies
    assert [r.status for r in replies] == [302] * AT_ONCE, [r.text[:300] for r in replies]
    assert all(r.headers["location"].endswith(f"{game.page}#totals") for r in replies)
    now = state(live_port, game)
    assert len(now["deals"]) == 1
    assert [s["total"] for s in now["sides"]] == [50, 50]


def test_page_form_key_is_not_shared_between_forms(live_port):
    """Two phones each open the form for deal 1: two keys, never a false 'already saved'.

    One is saved as deal 1; the other is shown deal 1 beside its figures (409, nothing saved)
    and, sent again from that page, is saved as deal 2.
    """
    game = new_game(live_port)
    new = f"{game.page}/deals/new"
    a = form_fields(call(live_port, "GET", new).text, new)
    b = form_fields(call(live_port, "GET", new).text, new)
    assert a["idempotency_key"] != b["idempotency_key"]
    typed = {"s0-melded_points": "50", "s1-melded_points": "50"}

    replies = at_once(lambda i: call(live_port, "POST", new, form={**(a, b)[i], **typed}), 2)

    assert sorted(r.status for r in replies) == [302, 409]
    second = next(r for r in replies if r.status == 409)
    assert "Deal 1 was saved on another phone meanwhile" in second.text
    assert [d["number"] for d in state(live_port, game)["deals"]] == [1]
    again = call(live_port, "POST", new, form={**form_fields(second.text, new), **typed})
    assert again.status == 302
    assert [d["number"] for d in state(live_port, game)["deals"]] == [1, 2]


# Different submissions at once


def test_two_keys_at_once_record_deals_in_turn_never_the_same_number(port):
    game = new_game(port)
    expected = 0
    for _ in range(5):
        keys = [new_key("two"), str(uuid.uuid4())]
        replies = at_once(lambda i, keys=keys: post_deal(port, game, keys[i]), 2)
        assert all(isinstance(r, Reply) for r in replies), replies
        statuses = sorted(r.status for r in replies)
        # Both saved in turn, or (allowed) one told that the other phone got there first.
        assert statuses in ([201, 201], [201, 409]), [r.text[:300] for r in replies]
        assert all(r.headers.get("idempotent-replayed") is None for r in replies)
        expected += statuses.count(201)
        now = state(port, game)
        numbers = [d["number"] for d in now["deals"]]
        assert numbers == list(range(1, expected + 1))
        assert [s["total"] for s in now["sides"]] == [50 * expected] * 2
