"""The scoreboard's Agree and Query (issue 40), and a side's line read only on the other
side's phones: over HTTP, each phone a test client of its own."""

from __future__ import annotations

from typing import Any

from _api_support import deal, start

ONE_CLEAN = {"books": {"clean": 1}}


def a_game(client) -> tuple[dict[str, Any], str]:
    game = start(client, "club")
    deal(client, game, ONE_CLEAN, {})
    return game, f"/t/{game['key']}"


def test_a_phone_on_no_side_answers_for_one_and_is_on_it_from_then_on(app, client):
    game, link = a_game(client)
    page = client.get(link).text
    assert "Deal 1</a>: Ann to agree · Cat to agree" in page
    assert "Agree for Ann" in page and "Agree for Cat" in page
    answered = client.post(
        f"{link}/deals/1/answer", data={"answer": "agree", "side": "1", "version": "1", "by": "Cat"}
    )
    assert answered.status_code == 302
    assert answered.headers["Location"].endswith("#deal-1")
    page = client.get(link).text
    assert "Cat agreed deal 1." in page
    # On Cat's side now: asked nothing more (Cat agreed its one deal); Ann's phone still is.
    assert 'id="agree"' not in page
    ann = app.test_client()
    asked = ann.get(link).text
    assert "Agree for Ann" in asked and "Agree for Cat" not in asked
    ann.post(f"{link}/deals/1/answer", data={"answer": "agree", "side": "0", "version": "1"})
    assert "✓ agreed" in ann.get(link).text


def test_a_query_shows_on_every_phone_with_its_words(app, client):
    game, link = a_game(client)
    client.post(
        f"{link}/deals/1/answer",
        data={"answer": "query", "side": "1", "version": "1", "by": "Cat", "reason": "Two books"},
    )
    words = (
        "Deal 1 queried by Cat: Two books. Talk it over: correct the deal, or agree it as it "
        "stands."
    )
    assert words in app.test_client().get(link).text
    assert words in client.get(link).text


def test_an_answer_to_a_deal_corrected_since_is_not_kept(client):
    game, link = a_game(client)
    fixed = client.put(
        f"/api/v1/games/{game['id']}/deals/1",
        headers={"X-Game-Key": game["key"]},
        json={"scores": [{"books": {"dirty": 1}}, {}], "version": 1},
    )
    assert fixed.status_code == 200
    client.post(f"{link}/deals/1/answer", data={"answer": "agree", "side": "1", "version": "1"})
    page = client.get(link).text
    assert "Deal 1 was corrected since this phone showed it" in page
    assert "✓ agreed" not in page


def test_refused_answers_say_why(client):
    game, link = a_game(client)
    client.post(f"{link}/deals/1/answer", data={"answer": "agree", "side": "7", "version": "1"})
    assert "side must be one of the game&#39;s sides, 0 to 1." in client.get(link).text
    client.post(f"{link}/deals/1/answer", data={"answer": "query", "side": "0", "version": "x"})
    assert "version is the deal&#39;s version as shown" in client.get(link).text
    assert (
        client.post(f"{link}/deals/9/answer", data={"side": "0", "version": "1"}).status_code == 302
    )
    assert "This game has no deal 9." in client.get(link).text


def test_the_other_sides_line_is_shown_and_not_offered_to_change(app, client):
    game, link = a_game(client)
    sent = client.post(f"{link}/deals/next/0", data={"number": "2", "s0-books-clean": "1"})
    assert sent.status_code == 302, sent.text
    # Ann's phone (it sent the line) is offered to change it; Cat's phone is not.
    assert "Change the line for Ann" in client.get(link).text
    cat = app.test_client()
    board = cat.get(link).text
    assert "Change the line for Ann" not in board
    assert "Ann: in, from" in board
    line = cat.get(f"{link}/deals/next/0")
    assert line.status_code == 200
    assert "Send this line" not in line.text
    assert "only a phone on Ann&#39;s side changes it" in line.text
    changed = cat.post(f"{link}/deals/next/0", data={"number": "2", "s0-books-dirty": "1"})
    assert changed.status_code == 403
    kept = client.get(
        f"/api/v1/games/{game['id']}/deals/next/parts", headers={"X-Game-Key": game["key"]}
    )
    assert kept.get_json()["parts"][0]["entry"] == {"books": {"clean": 1}}
    # Said to be on Ann's side, the phone may change it.
    assert cat.post(f"{link}/side", data={"side": "0"}).status_code == 302
    assert "Send this line" in cat.get(f"{link}/deals/next/0").text
