"""The deal form's number: a form opened for deal N and sent after deal N was saved elsewhere
saves nothing and keeps every figure typed (the 409); and what the pages carry for phones off
the network: the service worker, the offline page, the manifest, where to poll and say.
"""

from __future__ import annotations

import re

import pytest
from live_table import TYPED, api_deal, form_of, saved_deals, start, text, typed_deal

# ------------------------------------------------------------------------- the deal's number


def test_deal_form_carries_the_next_deal_number(client):
    game = start(client)
    api_deal(client, game)
    page = form_of(client.get(f"{game.link}/deals/new"))
    assert page.hidden["number"] == "2"


def test_posting_with_the_next_number_saves_it(client):
    game = start(client)
    data = typed_deal(client, game)
    assert data["number"] == "1"
    answer = client.post(f"{game.link}/deals/new", data=data)
    assert answer.status_code == 302
    assert len(saved_deals(client, game)) == 1


def test_a_deal_saved_meanwhile_is_shown_and_nothing_is_lost(client):
    game = start(client)
    api_deal(client, game)
    mine = typed_deal(client, game)
    assert mine["number"] == "2"
    api_deal(client, game)  # another phone saves deal 2 first

    clash = client.post(f"{game.link}/deals/new", data=mine)
    assert clash.status_code == 409
    assert len(saved_deals(client, game)) == 2
    assert "Deal 2 was saved on another phone meanwhile" in text(clash)
    kept = form_of(clash)
    for field, value in TYPED.items():
        assert kept.values.get(field) == value, field
    assert kept.values.get("went_out") == ""
    assert kept.hidden["number"] == "3"
    assert kept.hidden["idempotency_key"] == mine["idempotency_key"]
    assert any("Save deal 3" in b for b in kept.buttons), kept.buttons

    again = client.post(f"{game.link}/deals/new", data=kept.values)
    assert again.status_code == 302
    deals = saved_deals(client, game)
    assert len(deals) == 3
    # Ann: one clean book 500 + 300 melded = 800; Cat: 200 - 40 = 160.
    assert [side["total"] for side in deals[2]["scores"]] == [800, 160]


def test_several_deals_saved_meanwhile_are_all_named(client):
    game = start(client)
    mine = typed_deal(client, game)
    api_deal(client, game)
    api_deal(client, game)
    clash = client.post(f"{game.link}/deals/new", data=mine)
    assert clash.status_code == 409
    assert re.search(r"Deals 1.2 were saved on another phone meanwhile", text(clash))
    assert form_of(clash).hidden["number"] == "3"
    assert len(saved_deals(client, game)) == 2


def test_a_stale_number_on_a_finished_game_saves_nothing(client):
    game = start(client)
    for _ in range(3):
        api_deal(client, game)
    mine = typed_deal(client, game)
    assert mine["number"] == "4"
    api_deal(client, game)  # the last deal, from another phone

    clash = client.post(f"{game.link}/deals/new", data=mine)
    assert clash.status_code == 409
    words = text(clash)
    assert "Deal 4 was saved on another phone meanwhile" in words
    assert "game is over" in words
    page = form_of(clash)
    assert not any("Save" in b for b in page.buttons), page.buttons
    for field, value in TYPED.items():
        assert page.values.get(field) == value, field
    assert len(saved_deals(client, game)) == 4
    # Sent again as it came back, it still saves nothing: the scoreboard says the game is over.
    again = client.post(f"{game.link}/deals/new", data=page.values)
    assert again.status_code == 302
    assert "game is over" in text(client.get(again.headers["Location"]))
    assert len(saved_deals(client, game)) == 4


@pytest.mark.parametrize("number", ["1", "2", "7", "", None])
def test_a_form_already_recorded_is_recorded_once_whatever_its_number(client, number):
    game = start(client)
    data = typed_deal(client, game)
    assert client.post(f"{game.link}/deals/new", data=data).status_code == 302
    if number is None:
        del data["number"]
    else:
        data["number"] = number
    again = client.post(f"{game.link}/deals/new", data=data)
    assert again.status_code == 302
    assert len(saved_deals(client, game)) == 1


@pytest.mark.parametrize("number", [None, "", "two"], ids=["absent", "empty", "not-a-number"])
def test_a_form_without_a_number_is_saved_as_before(client, number):
    game = start(client)
    api_deal(client, game)
    data = typed_deal(client, game)
    if number is None:
        del data["number"]
    else:
        data["number"] = number
    assert client.post(f"{game.link}/deals/new", data=data).status_code == 302
    deals = saved_deals(client, game)
    assert len(deals) == 2
    assert [side["total"] for side in deals[1]["scores"]] == [800, 160]


def test_a_correction_form_has_no_deal_number(client):
    game = start(client)
    api_deal(client, game)
    page = form_of(client.get(f"{game.link}/deals/1/edit"))
    assert "number" not in page.values


# ------------------------------------------------------------------------- offline


def test_service_worker_from_the_root(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert "outbox" in answer.get_data(as_text=True)


def test_offline_page(client):
    answer = client.get("/offline")
    assert answer.status_code == 200
    assert answer.mimetype == "text/html"
    assert "No signal" in text(answer)


@pytest.mark.parametrize(
    "path", ["/", "/games/new", "/offline", "{link}", "{link}/deals/new", "{link}/rules"]
)
def test_every_page_links_the_manifest_and_touch_icon(client, path):
    game = start(client)
    answer = client.get(path.format(link=game.link))
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    manifest = re.search(r'<link rel="manifest" href="([^"]+)"', html)
    icon = re.search(r'<link rel="apple-touch-icon" href="([^"]+)"', html)
    assert manifest and icon, html[:500]
    assert client.get(manifest.group(1)).status_code == 200
    assert client.get(icon.group(1)).status_code == 200


def test_deal_page_tells_the_script_where_to_poll_and_say(client):
    game = start(client)
    html = client.get(f"{game.link}/deals/new").get_data(as_text=True)
    assert f'data-live="{game.link}/live"' in html
    assert f'data-entering="{game.link}/entering"' in html
    assert 'data-deal="1"' in html
