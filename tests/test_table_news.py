"""Specific news to the table's other phones: who saved or corrected which deal, and what changed.

The live answer carries the last deal saved or corrected (`news`), keyed by the deal and its
version so that each phone tells each event once; a phone whose line is in is no longer listed
as entering the deal.
"""

from __future__ import annotations

import pytest
from live_table import PHONE_A, PHONE_B, PHONE_C, QUIET, api_deal, entering_of, live_of, say, start

from scorekeeper.services import table_news


def news_of(client, game) -> dict | None:
    return live_of(client, game).get_json()["news"]


def totals_of(client, game, number: int) -> list[int]:
    state = client.get(f"/api/v1/games/{game.id}", headers=game.key).get_json()
    return [score["total"] for score in state["deals"][number - 1]["scores"]]


@pytest.mark.parametrize(
    ("news", "said"),
    [
        (table_news.saved_news(3, "Ann"), "Ann saved deal 3."),
        (table_news.saved_news(3, None), "Deal 3 saved."),
        (
            table_news.corrected_news(1, 2, "Ann", [(1, "Them", 1355, 1390)]),
            "Ann corrected deal 1: Them +1,355 → +1,390.",
        ),
        (
            table_news.corrected_news(2, 4, None, [(0, "Us", 20, -1355), (1, "Them", -5, 0)]),
            "Deal 2 corrected: Us +20 → −1,355; Them −5 → +0.",
        ),
        (table_news.corrected_news(1, 3, "Bea", []), "Bea corrected deal 1."),
    ],
)
def test_the_news_in_words(news, said):
    assert table_news.news_text(news) == said


def test_a_correction_names_who_and_each_deal_total_that_changed(client):
    game = start(client)
    assert news_of(client, game) is None
    saved = client.post(
        f"{game.link}/deals/new", data={"s0-books-clean": "1", "number": "1", "sent_by": "Bea"}
    )
    assert saved.status_code == 302
    assert news_of(client, game) == {
        "key": "1.1",
        "kind": "saved",
        "deal": 1,
        "by": "Bea",
        "changes": [],
        "text": "Bea saved deal 1.",
    }
    before = totals_of(client, game, 1)
    figures = {"s0-books-clean": "1", "s1-leftover_points": "1355", "version": "1"}
    corrected = client.post(f"{game.link}/deals/1/edit", data={**figures, "sent_by": "Ann"})
    assert corrected.status_code == 302
    after = totals_of(client, game, 1)
    assert before[0] == after[0] and after[1] == before[1] - 1355
    news = news_of(client, game)
    assert news["key"] == "1.2" and news["by"] == "Ann"
    assert news["changes"] == [{"side": 1, "name": "Cat", "before": before[1], "after": after[1]}]
    assert news["text"] == (
        f"Ann corrected deal 1: Cat {table_news.signed(before[1])} → {table_news.signed(after[1])}."
    )
    assert "−1,355" in news["text"]
    # The same correction sent again changes nothing, so the news stays the same event.
    client.post(f"{game.link}/deals/1/edit", data={**figures, "version": "2", "sent_by": "Ann"})
    assert news_of(client, game)["key"] == "1.2"


def test_a_name_not_given_or_unfit_is_cleaned(client):
    game = start(client)
    client.post(f"{game.link}/deals/new", data={"number": "1", "sent_by": "\u202eAnn\x07"})
    assert news_of(client, game)["text"] == "Ann saved deal 1."
    client.post(f"{game.link}/deals/new", data={"number": "2"})
    assert news_of(client, game)["text"] == "Someone saved deal 2."
    # The API names nobody.
    api_deal(client, game, *QUIET)
    assert news_of(client, game)["text"] == "Deal 3 saved."
    assert news_of(client, game)["key"] == "3.1"


def test_the_last_line_in_names_its_sender_and_a_sent_line_is_no_longer_entering(client):
    game = start(client)
    assert say(client, game, PHONE_A, 1, "Ann").status_code == 204
    assert say(client, game, PHONE_C, 1, "Cat").status_code == 204
    assert [e["name"] for e in entering_of(live_of(client, game, PHONE_B))] == ["Ann", "Cat"]

    line = {"number": "1", "sent_by": "Ann", "device": PHONE_A, "s0-books-clean": "1"}
    assert client.post(f"{game.link}/deals/next/0", data=line).status_code == 302
    # Ann's line is in: she is entering no more, and Cat still is.
    answer = live_of(client, game, PHONE_B).get_json()
    assert [e["name"] for e in answer["entering"]] == ["Cat"]
    assert [(p["side"], p["sent_by"]) for p in answer["parts"]] == [(0, "Ann")]

    line = {"number": "1", "sent_by": "Cat", "device": PHONE_C, "s1-melded_points": "50"}
    assert client.post(f"{game.link}/deals/next/1", data=line).status_code == 302
    answer = live_of(client, game, PHONE_B).get_json()
    assert answer["deals"] == 1 and answer["entering"] == []
    assert answer["news"]["text"] == "Cat saved deal 1."
