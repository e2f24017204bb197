"""A game's private link itself: 128 random bits of its own, the old address, the API's key, the
public URL in every link, no timing tells, guessing slowed, and the table invited by a QR code
of the link (issue 13).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from game_links import statements_asked
from private_games import DEAL, _id_of, _start, _wrong_secret
from qr_reader import matrix_of, read_qr
from sqlalchemy import update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import LinkMiss
from scorekeeper.services import links

# ------------------------------------------------------------------ the link itself


def test_the_secret_is_128_random_bits_and_each_game_has_its_own(app, client):
    paths = {_start(client, "Ann", "Bob") for _ in range(5)}
    assert len(paths) == 5
    for path in paths:
        secret = path[3:]
        assert links.SECRET.fullmatch(secret)
        assert len(secret) * 6 >= 128  # 22 URL-safe characters carry 132 bits; 128 are random


def test_the_game_opens_with_its_link_and_not_with_another(app, client):
    a = _start(client, "Ann", "Bob")
    b = _start(client, "Cleo", "Dev")
    assert "Ann" in client.get(a).text and "Cleo" in client.get(b).text
    # One letter changed: another secret, which no game has.
    flipped = a[:-1] + ("A" if a[-1] != "A" else "B")
    assert client.get(flipped).status_code == 404
    assert client.get(a[:-1]).status_code == 404  # too short: no secret at all
    assert client.get(a + "x").status_code == 404
    assert client.get(a.lower() if a.lower() != a else a.upper()).status_code == 404


def test_the_old_address_says_where_games_went_and_reveals_nothing(app, client):
    path = _start(client, "Ann", "Bob")
    game_id = _id_of(app, path)
    stranger = app.test_client()
    real = stranger.get(f"/games/{game_id}")
    missing = stranger.get(f"/games/{game_id + 1000}")
    deeper = stranger.post(f"/games/{game_id}/deals/new", data=DEAL)
    assert real.status_code == missing.status_code == deeper.status_code == 404
    assert real.data == missing.data == deeper.data
    assert "private link" in real.text and "Ann" not in real.text
    assert f"{game_id}" not in re.sub(r"<[^>]+>", "", real.text.split("<main")[1])


def test_the_api_needs_the_games_key(app, client):
    made = client.post(
        "/api/v1/games", json={"ruleset": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    ).get_json()
    other = client.post(
        "/api/v1/games", json={"ruleset": "classic", "sides": [{"name": "C"}, {"name": "D"}]}
    ).get_json()
    assert made["link"].endswith(f"/t/{made['key']}") and made["url"] == f"/t/{made['key']}"
    assert made["link"].startswith("http://localhost/")
    path = f"/api/v1/games/{made['id']}"
    assert client.get(path).status_code == 404
    assert client.get(path, headers={"X-Game-Key": other["key"]}).status_code == 404
    assert client.get(path, headers={"X-Game-Key": made["key"]}).status_code == 200
    assert "key" not in client.get(path, headers={"X-Game-Key": made["key"]}).get_json()
    deal = {"scores": [{"melded_points": 50}, {"melded_points": 60}]}
    assert client.post(f"{path}/deals", json=deal).status_code == 404
    assert client.post(f"{path}/deals", json=deal, headers={"X-Game-Key": "x"}).status_code == 404
    saved = client.post(f"{path}/deals", json=deal, headers={"X-Game-Key": made["key"]})
    assert saved.status_code == 201
    fix = {"scores": [{"melded_points": 55}, {"melded_points": 60}], "version": 1}
    assert client.put(f"{path}/deals/1", json=fix).status_code == 404
    fixed = client.put(f"{path}/deals/1", json=fix, headers={"X-Game-Key": made["key"]})
    assert fixed.status_code == 200


def test_public_url_names_the_server_in_every_link(app, client):
    app.config["PUBLIC_URL"] = "https://scores.example.org"
    made = client.post(
        "/api/v1/games", json={"ruleset": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    ).get_json()
    assert made["link"] == f"https://scores.example.org/t/{made['key']}"
    board = client.get(made["url"]).text
    assert f'value="https://scores.example.org/t/{made["key"]}"' in board


# ------------------------------------------------------------------ no timing tells


def test_a_wrong_key_and_a_missing_game_take_the_same_path(app, client):
    """No timing difference can tell them apart: the database is asked the same statements."""
    made = client.post(
        "/api/v1/games", json={"ruleset": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    ).get_json()
    wrong = {"X-Game-Key": _wrong_secret()}
    real = statements_asked(app, client, f"/api/v1/games/{made['id']}", wrong)
    missing = statements_asked(app, client, f"/api/v1/games/{made['id'] + 500}", wrong)
    assert real[0] == missing[0] == 404
    assert real[1] == missing[1] and len(real[1]) >= 1
    # On the pages a link is only its secret: a wrong one is a missing game, by definition.


# ------------------------------------------------------------------ guessing is slowed


def test_repeated_wrong_links_from_one_address_are_refused_a_while(app, client):
    path = _start(client, "Ann", "Bob")
    guesser = {"REMOTE_ADDR": "203.0.113.9"}
    for _ in range(links.MISSES_ALLOWED):
        assert client.get("/t/" + _wrong_secret(), environ_base=guesser).status_code == 404
    refused = client.get("/t/" + _wrong_secret(), environ_base=guesser)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= links.MISS_WINDOW.total_seconds() + 1
    assert "Wait a few minutes" in refused.text
    # While refused, nothing is looked up: the real link is refused alike, so a guess that
    # happened to be right could not be told from a wrong one.
    assert client.get(path, environ_base=guesser).status_code == 429
    api = client.get("/api/v1/games/1", headers={"X-Game-Key": path[3:]}, environ_base=guesser)
    assert api.status_code == 429 and api.get_json()["errors"]
    # Another address is not slowed by this one.
    assert client.get(path, environ_base={"REMOTE_ADDR": "198.51.100.7"}).status_code == 200
    # Once the misses are older than the window, the address is heard again.
    with app.app_context():
        earlier = datetime.now(UTC) - links.MISS_WINDOW - timedelta(seconds=1)
        db.session.execute(update(LinkMiss).values(at=earlier))
        db.session.commit()
    assert client.get(path, environ_base=guesser).status_code == 200


def test_misses_on_the_api_count_too_and_old_addresses_do_not(app, client):
    guesser = {"REMOTE_ADDR": "203.0.113.10"}
    for n in range(30):
        # An old address carries no secret to guess: never counted (a phone may still poll it).
        assert client.get(f"/games/{n + 1}/live", environ_base=guesser).status_code == 404
    for _ in range(links.MISSES_ALLOWED):
        answer = client.get("/api/v1/games/1", headers={"X-Game-Key": "x"}, environ_base=guesser)
        assert answer.status_code == 404
    answer = client.get("/api/v1/games/1", headers={"X-Game-Key": "x"}, environ_base=guesser)
    assert answer.status_code == 429


# ------------------------------------------------------------------ invite the table


def test_the_scoreboard_invites_the_table_with_a_qr_code_of_its_link(app, client):
    path = _start(client, "Ann", "Bob")
    board = client.get(path).text
    assert "Invite the table" in board
    link = f"http://localhost{path}"
    assert f'value="{link}"' in board
    # The code is a picture of its own (issue 18: the page carries only its address)...
    shown = re.search(r'<img class="qr" src="([^"]+)" alt="[^"]+"[^>]*>', board)
    assert shown, "no QR code"
    assert shown.group(1) == f"{path}/invite.svg"
    picture = client.get(shown.group(1))
    assert picture.status_code == 200 and picture.mimetype == "image/svg+xml"
    # ...and the code drawn is the code of the link: read back, the modules segno makes for it.
    modules, border = read_qr(picture.data)
    assert modules == matrix_of(link) and border >= 4
    assert "http" not in picture.text.replace("http://www.w3.org/2000/svg", "")
    # Only the link's holder sees it: another game's secret, or none, finds nothing.
    assert client.get(f"/t/{_wrong_secret()}/invite.svg").status_code == 404
