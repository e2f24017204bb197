"""Club pages read from a Tuesday club built once a module: standings, history, scoreboard.

Club games, members and organisers changed through the pages are in test_club_games.py,
test_club_admin.py and test_club_export_import.py; the helpers in _club_support.py.

Games are set up with `record_game` (a whole finished game at once) or through the pages.
Every expected figure is worked out by hand in the comments from
/work/shared/rules/VARIANTS.md, never computed with the app's own code.

"club" rules (individuals): clean book 500, dirty 300, red three laid +100, caught -500,
going out +100 (needs 2 clean + 2 dirty), four deals. "classic" (partnerships): clean 500,
dirty 300, wild 1,500, going out +100 (needs 2 clean + 2 dirty + 1 wild), four deals.
A deal scores books + red threes + going out + melded - leftover card points.
"""

from __future__ import annotations

import re
from functools import partial

import pytest

# Named here too for the tests that import them from test_clubs (their home is
# _club_support.py).
from _club_support import (  # noqa: F401
    EXPECTED_ALL,
    GAME_LINK,
    SLUG,
    E,
    Tuesday,
    add_members,
    add_season,
    classic_partnership,
    figures,
    game_id_of,
    game_links,
    html,
    member_ids,
    new_club,
    ranks,
    record,
    signup,
    solo,
    standings_rows,
    table,
    text,
    tuesday,
)
from game_links import link
from werkzeug.security import generate_password_hash

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.services import accounts

pytestmark = pytest.mark.usefixtures("quick_hashing")


def _built(tmp_path_factory, databases, with_g8: bool):
    """A module-wide Tuesday club (optionally with g8) for tests that only read it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            accounts,
            "generate_password_hash",
            partial(generate_password_hash, method="pbkdf2:sha256:1"),
        )
        folder = tmp_path_factory.mktemp("clubs")
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "test",
                "SQLALCHEMY_DATABASE_URI": databases.sqlite_copy(folder, "clubs.sqlite"),
                "WTF_CSRF_ENABLED": False,
            }
        )
        client = app.test_client()
        made = tuesday(app, client)
        if with_g8:
            made.games["g8"] = classic_partnership(app)
    return app, client, made


def _done(app) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="module")
def shared(tmp_path_factory, databases):
    """Tuesday, g1..g7, read only."""
    built = _built(tmp_path_factory, databases, with_g8=False)
    yield built
    _done(built[0])


@pytest.fixture(scope="module")
def shared8(tmp_path_factory, databases):
    """Tuesday with g8, read only."""
    built = _built(tmp_path_factory, databases, with_g8=True)
    yield built
    _done(built[0])


# Over g1..g6 (season=all), by hand:

# ------------------------------------------------------------------------- standings


def test_standings_figures_ranks_guests_and_unfinished_games(shared):
    _, client, _ = shared
    rows = standings_rows(client, season="all")
    assert rows == EXPECTED_ALL
    page = text(client.get(f"/clubs/{SLUG}/standings?season=all"))
    assert "Gus" not in page  # a guest is never listed, though Gus won g6


def test_each_name_in_the_standings_links_to_that_members_page(shared):
    """The table builds its member links from one address (not one url_for a line): each must
    still reach the page of the member it names."""
    _, client, _ = shared
    for where in (f"/clubs/{SLUG}/standings?season=all", f"/clubs/{SLUG}?season=all"):
        page = client.get(where).get_data(as_text=True)
        links = re.findall(r'<th scope="row"><a href="([^"]+)">([^<]+)</a>', page)
        assert [name for _, name in links][:4] == ["Ann", "Bob", "Cat", "Dan"]
        for href, name in links:
            assert re.fullmatch(rf"/clubs/{SLUG}/members/\d+", href), href
            member = client.get(href)
            assert member.status_code == 200
            assert f"<h1>{name}" in member.get_data(as_text=True), (href, name)


def test_members_below_the_minimum_are_unranked_until_it_is_lowered(app, client):
    tuesday(app, client)
    assert ranks(client, season="all")[-1] == ("–", "Eve")
    response = client.post(f"/clubs/{SLUG}/settings", data={"name": "Tuesday Club", "min_games": 1})
    assert response.status_code == 302
    # With 1 game enough, Eve (0 of 1) ties Dan (0 of 3) on a win rate of 0: both 4th.
    assert ranks(client, season="all") == [
        ("1", "Ann"),
        ("2", "Bob"),
        ("2", "Cat"),
        ("4", "Dan"),
        ("4", "Eve"),
    ]
    client.post(f"/clubs/{SLUG}/settings", data={"name": "Tuesday Club", "min_games": 4})
    assert [rank for rank, _ in ranks(client, season="all")] == ["–"] * 5


# Sorted by each column, best (largest) first; equal figures share a rank, then by name;
# Eve (unranked) always last. Figures from the table above.
SORTED = {
    "win_rate": [("1", "Ann"), ("2", "Bob"), ("2", "Cat"), ("4", "Dan")],
    "wins": [("1", "Ann"), ("2", "Bob"), ("2", "Cat"), ("4", "Dan")],
    "games": [("1", "Ann"), ("1", "Bob"), ("1", "Cat"), ("1", "Dan")],
    "average_score": [("1", "Ann"), ("2", "Bob"), ("3", "Cat"), ("4", "Dan")],
    "average_per_deal": [("1", "Ann"), ("2", "Bob"), ("3", "Cat"), ("4", "Dan")],
    "total_points": [("1", "Ann"), ("2", "Bob"), ("3", "Cat"), ("4", "Dan")],
    "clean_books": [("1", "Ann"), ("1", "Bob"), ("3", "Cat"), ("4", "Dan")],  # 6, 6, 3, 0
    "dirty_books": [("1", "Ann"), ("2", "Bob"), ("3", "Cat"), ("4", "Dan")],  # 7, 4, 3, 1
    "wild_books": [("1", "Ann"), ("1", "Bob"), ("1", "Cat"), ("1", "Dan")],  # all 0
    "went_out": [("1", "Ann"), ("2", "Bob"), ("3", "Cat"), ("4", "Dan")],  # 3, 2, 1, 0
    # fewer caught is better: 0, 0, then 1, 1
    "red_threes_caught": [("1", "Ann"), ("1", "Cat"), ("3", "Bob"), ("3", "Dan")],
}


def test_sorting_by_each_column(shared):
    _, client, _ = shared
    for sort, expected in SORTED.items():
        assert ranks(client, season="all", sort=sort) == [*expected, ("–", "Eve")], sort
    page = client.get(f"/clubs/{SLUG}/standings?season=all&sort=wins").text
    # The column headings sort and keep the filters.
    assert re.search(r'href="[^"]*sort=went_out[^"]*"', page)
    for heading in re.findall(r'href="(/clubs/tuesday/standings\?[^"]*sort=[^"]*)"', page):
        assert "season=all" in heading


def test_filters_by_season_date_range_and_rule_set(shared8):
    _, client, made = shared8
    # Spring 2024 (1-30 April): g3, g4, g5, g6 (g7 unfinished).
    #   Ann g4 2,200 W; Bob g3 700 + g5 1,800 W = 2,500; Cat g3 2,000 W + g6 400 = 2,400;
    #   Dan g3 -600 + g4 500 + g5 50 = -50; Eve g5 400.
    assert figures(client, season=str(made.spring)) == {
        "Ann": ("1", "1", "2,200"),
        "Bob": ("2", "1", "2,500"),
        "Cat": ("2", "1", "2,400"),
        "Dan": ("3", "0", "−50"),
        "Eve": ("1", "0", "400"),
    }
    # Only Dan has the 3 games needed to be ranked in spring.
    assert ranks(client, season=str(made.spring))[0] == ("1", "Dan")
    # March: g1 and g2. Ann 2,500 + 2,000; Bob 2,100; Cat 600.
    assert figures(client, start="2024-03-01", end="2024-03-31") == {
        "Ann": ("2", "2", "4,500"),
        "Bob": ("1", "0", "2,100"),
        "Cat": ("1", "0", "600"),
    }
    # Classic only: g8. Partners share the team's result; the guest Gus is not listed.
    rows = standings_rows(client, season="all", ruleset="classic")
    assert [row[1:] for row in rows] == [
        ["Ann", "1", "1", "100%", "3,700", "925", "3,700", "2", "2", "1", "0", "1", "0"],
        ["Cat", "1", "1", "100%", "3,700", "925", "3,700", "2", "2", "1", "0", "1", "0"],
        ["Bob", "1", "0", "0%", "600", "150", "600", "1", "0", "0", "0", "0", "0"],
    ]
    # Club rules only: g8 is left out, so the figures are those of g1..g6.
    assert standings_rows(client, season="all", ruleset="club") == EXPECTED_ALL
    # Every rule set: g8 adds 1 game, 1 win, 3,700 to Ann and Cat, 1 game and 600 to Bob.
    assert figures(client, season="all")["Cat"] == ("4", "2", "6,700")
    assert figures(client, season="all")["Bob"] == ("4", "1", "5,200")


def test_the_api_agrees_with_the_page(shared8):
    _, client, made = shared8
    for args in (
        {"season": "all"},
        {"season": str(made.spring)},
        {"from": "2024-03-01", "to": "2024-03-31"},
        {"season": "all", "ruleset": "classic"},
        {"season": "all", "sort": "total_points"},
    ):
        page_args = {
            "start" if k == "from" else "end" if k == "to" else k: v for k, v in args.items()
        }
        page = standings_rows(client, **page_args)
        answer = client.get(f"/api/v1/clubs/{SLUG}/standings", query_string=args)
        assert answer.status_code == 200
        api = answer.get_json()
        assert [r["player"] for r in api] == [row[1] for row in page], args
        for r, row in zip(api, page, strict=True):
            # The API's number, as the page shows it: grouped, with a true minus sign.
            shown = f"{r['total_points']:,}".replace("-", "−")
            assert (str(r["games"]), str(r["wins"]), shown) == (
                row[2],
                row[3],
                row[7],
            )
            assert ("–" if r["rank"] is None else str(r["rank"])) == row[0]
    api = client.get(f"/api/v1/clubs/{SLUG}/standings?season=all&ruleset=club").get_json()
    # 1, 1/3, 1/3, 0, 0; 6,700/3, 4,600/3, 3,000/3, -50/3, 400/1.
    assert [(r["player"], r["win_rate"], r["average_score"], r["rank"]) for r in api] == [
        ("Ann", 1.0, 2233.3, 1),
        ("Bob", 0.3333, 1533.3, 2),
        ("Cat", 0.3333, 1000.0, 2),
        ("Dan", 0.0, -16.7, 4),
        ("Eve", 0.0, 400.0, None),
    ]


# ------------------------------------------------------------------------- history


def test_history_filters_by_season_player_and_rule_set(shared8):
    app, client, made = shared8
    g = made.games

    def listed(**args: str) -> list[int]:
        response = client.get(f"/clubs/{SLUG}/games", query_string=args)
        assert response.status_code == 200
        return game_links(app, response)

    # Newest first; the unfinished g7 is not history.
    assert listed(season="all") == [g[k] for k in ("g8", "g6", "g5", "g4", "g3", "g2", "g1")]
    assert listed(season=str(made.spring)) == [g[k] for k in ("g6", "g5", "g4", "g3")]
    assert listed(season="all", player=str(made.members["Eve"])) == [g["g5"]]
    assert listed(season="all", player=str(made.members["Ann"])) == [
        g[k] for k in ("g8", "g4", "g2", "g1")
    ]
    assert listed(season="all", ruleset="classic") == [g["g8"]]
    assert listed(season=str(made.spring), player=str(made.members["Bob"])) == [g["g5"], g["g3"]]


# ------------------------------------------------------------------------- member page


def test_member_page_figures_form_and_chart(shared):
    app, client, made = shared
    response = client.get(f"/clubs/{SLUG}/members/{made.members['Bob']}?season=all")
    assert response.status_code == 200
    page = text(response)
    # Bob: 3 games, 1 win (33%), average 4,600 / 3 = 1,533, rank 2 (tied with Cat).
    assert re.search(r"Games 3 Wins 1 \(33%\) Average score 1,533 Rank 2", page), page
    # Oldest first: g1 lost, g3 lost, g5 won.
    assert re.findall(r'class="form-([wl])"', response.text) == ["l", "l", "w"]
    assert "<svg" in response.text
    assert table(response, "chart-table") == [
        ["05 Mar", "2,100"],
        ["02 Apr", "700"],
        ["16 Apr", "1,800"],
    ]
    # The rating's table, a row per game oldest first, then the list of games, newest first.
    newest_first = [made.games[k] for k in ("g5", "g3", "g1")]
    assert game_links(app, response) == newest_first[::-1] + newest_first


# ------------------------------------------------------------------------- scoreboard


def test_scoreboard_running_totals_chart_and_table(shared):
    app, client, made = shared
    response = client.get(link(app, made.games["g1"]))
    assert response.status_code == 200
    assert "<svg" in response.text
    # g1 after each deal: Ann 2,100 then +400 = 2,500; Bob 100 then +2,000 = 2,100.
    assert table(response, "chart-table") == [
        ["Start", "0", "0"],
        ["Deal 1", "2,100", "100"],
        ["Deal 2", "2,500", "2,100"],
        ["Deal 3", "2,500", "2,100"],
        ["Deal 4", "2,500", "2,100"],
    ]


def test_organiser_scoreboard_has_a_clean_title_and_one_delete_button(shared):
    app, client, made = shared
    g1 = link(app, made.games["g1"])
    page = client.get(g1).text
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert "<form" not in title and "Delete" not in title
    assert page.count(f'action="{g1}/delete"') == 1
