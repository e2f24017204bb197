"""Pages, CSS, JS and JSON travel gzipped to browsers that accept it, and only to them."""

from __future__ import annotations

import gzip
import json

import pytest

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.mark.parametrize("path", ["/static/app.css", "/static/app.js", "/rules", "/games/new"])
def test_text_is_gzipped_for_browsers_that_accept_it(client, path):
    plain = client.get(path)
    packed = client.get(path, headers=GZIP)
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 2


def test_json_is_gzipped_and_decodes_to_the_same_game(client):
    sides = [{"name": "North"}, {"name": "South"}]
    made = client.post("/api/v1/games", json={"ruleset": "classic", "sides": sides})
    path = f"/api/v1/games/{made.json['id']}"
    game_key = {"X-Game-Key": made.json["key"]}
    deal = {"scores": [{"melded_points": 50}, {"melded_points": 75}]}
    for _ in range(2):  # each deal's breakdown makes the JSON worth compressing
        assert client.post(f"{path}/deals", json=deal, headers=game_key).status_code == 201
    plain = client.get(path, headers=game_key)
    assert plain.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert len(plain.data) > 1024
    packed = client.get(path, headers={**GZIP, **game_key})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(packed.data)) == plain.json


def test_small_responses_are_left_alone(client):
    small = client.get("/api/v1/rulesets", headers=GZIP)  # under 1 KiB: not worth it
    assert small.status_code == 200 and len(small.data) < 1024
    assert "Content-Encoding" not in small.headers


def test_the_apps_own_small_files_go_gzipped_when_that_saves_bytes(client):
    """Compressed once per version, a small file of the app's costs no CPU per request."""
    icon = client.get("/static/icon.svg", headers=GZIP)  # 463 bytes, some 280 gzipped
    assert icon.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(icon.data) == client.get("/static/icon.svg").data
    assert len(icon.data) < 300
    # A file of some 150 bytes is sent gzipped only where gzip saves bytes (its header costs 18).
    for small in ("/static/nojs.css", "/static/larger.css"):
        plain = client.get(small).data
        sent = client.get(small, headers=GZIP)
        saves = len(gzip.compress(plain, mtime=0)) < len(plain)
        assert ("Content-Encoding" in sent.headers) == saves, small


def test_a_refused_deal_page_is_gzipped_too(client):
    """A 422 page with every typed figure is the heaviest page of all: it travels gzipped."""
    made = client.post(
        "/api/v1/games", json={"ruleset": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    )
    path = f"/t/{made.json['key']}/deals/new"
    refused = client.post(path, data={"s0-melded_points": "233"}, headers=GZIP)
    assert refused.status_code == 422
    assert refused.headers["Content-Encoding"] == "gzip"
    assert b"not a multiple of 5" in gzip.decompress(refused.data)


def test_a_gzipped_static_file_still_answers_304_to_its_tag(client):
    first = client.get("/static/app.css", headers=GZIP)
    assert first.headers["ETag"].startswith('W/"')  # gzipped bytes are not the file's bytes
    again = client.get("/static/app.css", headers={**GZIP, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.data == b""
