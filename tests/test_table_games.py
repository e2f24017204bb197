"""Games from a club's table link count as the club decides (issue 39: a table link's holder
played 30 one-deal games in 10 s and took a member to first in the club).

A club set to "Only games an organiser has confirmed" rates a table-link game once confirmed;
whatever the setting, a game finished quicker than its deals can be played, or a player's game
past `MOST_AN_HOUR` in an hour, is held; only the club's organisers confirm.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from sqlalchemy import select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, MemberResult, Rating
from scorekeeper.services import accounts, clubs, rating_holds
from scorekeeper.services.ratings import kept, model

SLUG = "tue"
ONE_DEAL = {"end_after_deals": 1}
# Side 1 melds more: it wins the one deal.
SCORES = [{"books": {"clean": 1}, "melded_points": 200}, {"melded_points": 150}]
TEAMS = [
    {"name": "Ann & Bob", "players": ["Ann", "Bob"]},
    {"name": "Cat & Dan", "players": ["Cat", "Dan"]},
]

GUESTS = [{"name": "Eve", "players": ["Eve"]}, {"name": "Fay", "players": ["Fay"]}]


@pytest.fixture
def club(app):
    """A private club of four members, its organiser Olga."""
    with app.app_context():
        olga = accounts.register("olga", "table-for-four")
        made = clubs.create_club("Tuesday Club", SLUG, olga)
        for name in ("Ann", "Bob", "Cat", "Dan"):
            clubs.add_member(made, name)
        return made.table_code


def sign_in(client) -> None:
    answer = client.post("/login", data={"username": "olga", "password": "table-for-four"})
    assert answer.status_code == 302


def started(client, code: str | None, sides=TEAMS) -> dict:
    """A one-deal club game started through the API (with the table code, if given)."""
    headers = {"X-Table-Code": code} if code else {}
    body = {"ruleset": "classic", "sides": sides, "club": SLUG, "rules": ONE_DEAL}
    answer = client.post("/api/v1/games", json=body, headers=headers)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def finished(client, game: dict, *, after: timedelta) -> None:
    """The game's one deal entered `after` it started (its start moved back so much)."""
    with client.application.app_context():
        moved = db.session.get(Game, game["id"]).created_at - after
        db.session.execute(update(Game).where(Game.id == game["id"]).values(created_at=moved))
        db.session.commit()
    answer = client.post(
        f"/api/v1/games/{game['id']}/deals",
        json={"scores": SCORES},
        headers={"X-Game-Key": game["key"]},
    )
    assert answer.status_code == 201, answer.get_json()


def ratings(app) -> dict[tuple[str, int | None], tuple[float, float, int]]:
    """Every kept rating of the club: (scope, member) to (mu, sigma, games)."""
    with app.app_context():
        query = select(Rating.scope, Rating.member_id, Rating.mu, Rating.sigma, Rating.games)
        return {(s, m): (mu, sg, n) for s, m, mu, sg, n in db.session.execute(query)}


def held_of(app, game: dict) -> tuple[bool, str | None]:
    with app.app_context():
        found = db.session.get(Game, game["id"])
        return found.held_from_ratings, found.rating_review


def in_step(app) -> None:
    """The kept ratings are a fold from scratch of the games that count."""
    with app.app_context():
        assert kept.recompute_club(db.session.get(Club, 1), dry_run=True) == 0


def members_results(app, game: dict) -> int:
    with app.app_context():
        query = select(MemberResult.id).where(MemberResult.game_id == game["id"])
        return len(db.session.execute(query).all())


def test_a_club_set_to_confirm_rates_a_table_game_once_an_organiser_confirms_it(app, client, club):
    sign_in(client)
    page = client.get(f"/clubs/{SLUG}/settings")
    assert page.status_code == 200
    text = unescape(page.get_data(as_text=True))
    # The choice and the rule that holds a game whatever it, in words, on the settings page.
    for label, meaning in rating_holds.TABLE_GAMES.values():
        assert label in text and meaning in text
    assert rating_holds.HELD_RULE in text
    assert re.search(r'value="every"[^>]*checked|checked[^>]*value="every"', text)
    answer = client.post(
        f"/clubs/{SLUG}/settings/table-games", data={"table_games": rating_holds.CONFIRMED}
    )
    assert answer.status_code == 302

    phone = app.test_client()
    game = started(phone, club)
    finished(phone, game, after=timedelta(minutes=20))
    assert held_of(app, game) == (True, rating_holds.CLUB)
    # In no rating scope and no standings until confirmed; the ratings still a fold from scratch.
    assert ratings(app) == {}
    assert members_results(app, game) == 0
    in_step(app)
    scoreboard = unescape(phone.get(f"/t/{game['key']}").get_data(as_text=True))
    assert (
        rating_holds.HELD_NOTE in scoreboard
        and rating_holds.WHY_HELD[rating_holds.CLUB] in scoreboard
    )

    organiser = app.test_client()
    sign_in(organiser)
    front = unescape(organiser.get(f"/clubs/{SLUG}").get_data(as_text=True))
    assert "1 game from the table link held for review" in front
    listed = unescape(organiser.get(f"/clubs/{SLUG}/held").get_data(as_text=True))
    assert (
        f"Confirm game {game['id']}" in listed
        and rating_holds.WHY_HELD[rating_holds.CLUB] in listed
    )
    confirmed = organiser.post(f"/clubs/{SLUG}/held/{game['id']}/confirm")
    assert confirmed.status_code == 302 and confirmed.headers["Location"].endswith(
        f"/clubs/{SLUG}/held"
    )
    assert held_of(app, game) == (False, rating_holds.CONFIRMED_REVIEW)
    assert members_results(app, game) == 4

    # Rated now: each player's rating is the model's fold of the one game, from a newcomer's.
    after = ratings(app)
    winners, losers = model.rate([[model.NEW] * 2, [model.NEW] * 2], [1, 0])
    with app.app_context():
        ids = {m.name: m.id for m in clubs.club_by_slug(SLUG).members}
    for name, skill in zip(("Ann", "Bob", "Cat", "Dan"), [*winners, *losers], strict=True):
        mu, sigma, games = after[(kept.ALL, ids[name])]
        assert (mu, sigma, games) == pytest.approx((skill.mu, skill.sigma, 1))
    assert after[(kept.ALL, ids["Ann"])][0] > after[(kept.ALL, ids["Cat"])][0]
    in_step(app)


def test_a_burst_is_held_whatever_the_setting_and_an_organisers_game_never(app, client, club):
    phone = client
    # Played at a real pace: each counts at once (the club keeps "Every game counts").
    games = [started(phone, club) for _ in range(rating_holds.MOST_AN_HOUR + 1)]
    for game in games[:-1]:
        finished(phone, game, after=timedelta(minutes=20))
        assert held_of(app, game) == (False, rating_holds.COUNTS)
    # Ann's game past MOST_AN_HOUR in the hour: held.
    finished(phone, games[-1], after=timedelta(minutes=20))
    assert held_of(app, games[-1]) == (True, rating_holds.BURST)
    assert members_results(app, games[-1]) == 0
    counted = ratings(app)
    with app.app_context():
        ann = next(m.id for m in clubs.club_by_slug(SLUG).members if m.name == "Ann")
    assert counted[(kept.ALL, ann)][2] == rating_holds.MOST_AN_HOUR
    in_step(app)

    organiser = app.test_client()
    sign_in(organiser)
    ours = started(organiser, None)
    finished(organiser, ours, after=timedelta(0))
    assert held_of(app, ours) == (False, None)  # an organiser's game is never judged

    listed = unescape(organiser.get(f"/clubs/{SLUG}/held").get_data(as_text=True))
    assert "1 game held" in listed and rating_holds.WHY_HELD[rating_holds.BURST] in listed
    scoreboard = unescape(phone.get(f"/t/{games[-1]['key']}").get_data(as_text=True))
    assert rating_holds.WHY_HELD[rating_holds.BURST] in scoreboard
    answer = organiser.post(f"/clubs/{SLUG}/held/confirm-all")
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/held")
    assert held_of(app, games[-1]) == (False, rating_holds.CONFIRMED_REVIEW)
    assert members_results(app, games[-1]) == 4
    # Ann's burst game and the organiser's: both counted now.
    assert ratings(app)[(kept.ALL, ann)][2] == rating_holds.MOST_AN_HOUR + 2
    in_step(app)


def test_a_players_day_past_the_most_is_held(app, client, club):
    """Games an hour and more apart, as many as nobody plays in a day: the next is held."""
    now = datetime.now(UTC)
    for k in range(rating_holds.MOST_A_DAY):
        game = started(client, club, GUESTS)
        finished(client, game, after=timedelta(minutes=20))
        assert held_of(app, game) == (False, rating_holds.COUNTS)
        # Finished earlier in the day, in the same order: at most one in any hour.
        at = now - (rating_holds.MOST_A_DAY - k) * timedelta(minutes=90)
        with app.app_context():
            db.session.execute(update(Game).where(Game.id == game["id"]).values(finished_at=at))
            db.session.commit()
    game = started(client, club, GUESTS)
    finished(client, game, after=timedelta(minutes=20))
    assert held_of(app, game) == (True, rating_holds.BURST)
    with app.app_context():
        # Guests rated by their name's key (`names.name_key`).
        guests = select(Rating.guest, Rating.games).where(Rating.scope == kept.ALL)
        assert dict(db.session.execute(guests).all()) == {
            "eve": rating_holds.MOST_A_DAY,
            "fay": rating_holds.MOST_A_DAY,
        }
    in_step(app)


def test_only_organisers_see_and_confirm_held_games(app, client, club):
    with app.app_context():
        rating_holds.choose(clubs.club_by_slug(SLUG), rating_holds.CONFIRMED)
    game = started(client, club)
    finished(client, game, after=timedelta(0))
    assert held_of(app, game)[0]
    routes = [
        ("get", f"/clubs/{SLUG}/held"),
        ("post", f"/clubs/{SLUG}/held/{game['id']}/confirm"),
        ("post", f"/clubs/{SLUG}/held/confirm-all"),
        ("post", f"/clubs/{SLUG}/settings/table-games"),
    ]
    stranger = app.test_client()
    holder = app.test_client()
    assert holder.post(f"/clubs/{SLUG}/table/{club}").status_code == 302
    for method, path in routes:
        data = {"table_games": rating_holds.CONFIRMED}
        assert getattr(stranger, method)(path, data=data).status_code == 404, path
        assert getattr(holder, method)(path, data=data).status_code == 403, path
    assert held_of(app, game) == (True, rating_holds.CLUB)
    with app.app_context():
        assert clubs.club_by_slug(SLUG).table_games == rating_holds.CONFIRMED


def test_an_unknown_choice_is_refused_in_words_and_nothing_changes(app, client, club):
    sign_in(client)
    answer = client.post(
        f"/clubs/{SLUG}/settings/table-games",
        data={"table_games": "nobody"},
        follow_redirects=True,
    )
    assert "Games started from the table link: choose one of" in unescape(
        answer.get_data(as_text=True)
    )
    with app.app_context():
        assert clubs.club_by_slug(SLUG).table_games == rating_holds.EVERY


def test_confirming_takes_the_pages_token(app, client, club):
    """Confirm is a form like any other: without its page's token nothing is confirmed."""
    with app.app_context():
        rating_holds.choose(clubs.club_by_slug(SLUG), rating_holds.CONFIRMED)
    game = started(client, club)
    finished(client, game, after=timedelta(minutes=20))
    organiser = app.test_client()
    sign_in(organiser)
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        forged = organiser.post(f"/clubs/{SLUG}/held/confirm-all")
        assert forged.status_code == 400
        assert "This form has expired" in forged.get_data(as_text=True)
        assert held_of(app, game) == (True, rating_holds.CLUB)
        page = organiser.get(f"/clubs/{SLUG}/held").get_data(as_text=True)
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)[1]
        answer = organiser.post(
            f"/clubs/{SLUG}/held/{game['id']}/confirm", data={"csrf_token": token}
        )
        assert answer.status_code == 302
    finally:
        app.config["WTF_CSRF_ENABLED"] = False
    assert held_of(app, game) == (False, rating_holds.CONFIRMED_REVIEW)
    in_step(app)


def test_the_attack_of_thirty_one_deal_games_moves_four(app, client, club):
    """The issue's attack: 30 one-deal games in a row from the table link, one member winning
    each. A club that chose nothing counts the first `MOST_AN_HOUR`; the rest wait for review."""
    for _ in range(30):
        game = started(client, club)
        finished(client, game, after=timedelta(0))
    with app.app_context():
        club_row = clubs.club_by_slug(SLUG)
        ann = next(m.id for m in club_row.members if m.name == "Ann")
        assert rating_holds.held_count(club_row) == 30 - rating_holds.MOST_AN_HOUR
        results = select(MemberResult.id).where(MemberResult.member_id == ann)
        assert len(db.session.execute(results).all()) == rating_holds.MOST_AN_HOUR
    assert ratings(app)[(kept.ALL, ann)][2] == rating_holds.MOST_AN_HOUR
    in_step(app)
