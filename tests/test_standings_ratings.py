"""The standings' Rating column (issue 30): each member's kept rating and the games behind it,
sortable, the club's default order where it chooses, rated within the season or rule set
filtered; the CSV and the API carry it.

Tuesday's club games (test_clubs.py): g1, g2 in March; g3..g6 in April (the Spring 2024
season); g8, classic, in May. The expected figures are folded here with `model.rate` alone.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from jsonschema import Draft202012Validator
from test_clubs import SLUG, classic_partnership, table, text, tuesday

from scorekeeper.services import clubs
from scorekeeper.services.ratings import kept, model

pytestmark = pytest.mark.usefixtures("quick_hashing")

STANDINGS = f"/clubs/{SLUG}/standings"
RATING = 14  # the Rating column's cell in a row: after the rank, the name and 12 figures


@pytest.fixture
def tuesday8(app, client):
    """Tuesday with the classic g8: the club, as made."""
    made = tuesday(app, client)
    made.games["g8"] = classic_partnership(app)
    return made


def shown(rows: list[list[str]]) -> dict[str, str]:
    """player -> the Rating cell, as the page shows it."""
    return {row[1]: row[RATING] for row in rows}


def cell(kept_: kept.Kept) -> str:
    """A kept rating as its cell reads: '12.3 (40)', '2.4 (3)*' (provisional), a true minus."""
    mark = "*" if model.provisional(kept_.games) else ""
    return f"{model.shown(kept_.skill):.1f} ({kept_.games}){mark}".replace("-", "−")


def kept_of(app, scope: str) -> dict[str, kept.Kept]:
    """The club's kept ratings in a scope, by member name."""
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        names = {m.id: m.name for m in club.members}
        return {names[i]: k for i, k in kept.ratings_of(club, scope).items()}


def rows_of(client, **args: str) -> list[list[str]]:
    response = client.get(STANDINGS, query_string=args)
    assert response.status_code == 200, text(response)
    return table(response, "standings")


def test_the_column_shows_each_members_kept_rating_and_games(app, client, tuesday8):
    response = client.get(STANDINGS, query_string={"season": "all"})
    page = text(response)
    assert "Swipe for all 13 columns" in page
    assert re.search(
        r'<th scope="col"><a href="[^"]*sort=rating[^"]*">Rating</a></th>', response.text
    )
    assert (
        "Rating (OpenSkill, All seasons): skill from who won, with and against whom. In "
        "brackets, its games; * provisional: under 10 games." in page
    )
    assert "Ratings are kept over all seasons" not in page
    expected = kept_of(app, kept.ALL)
    assert shown(table(response, "standings")) == {name: cell(k) for name, k in expected.items()}
    # Ann: 4 games rated (g1, g2, g4, g8); every member's games behind it, guests not listed.
    assert expected["Ann"].games == 4
    assert set(expected) == {"Ann", "Bob", "Cat", "Dan", "Eve"}


def test_sorting_by_rating_orders_by_the_conservative_figure(app, client, tuesday8):
    rows = rows_of(client, season="all", sort="rating")
    expected = kept_of(app, kept.ALL)
    ranked = [row[1] for row in rows if row[0] != "–"]
    by_ordinal = sorted(ranked, key=lambda n: (-expected[n].skill.ordinal, n.casefold()))
    assert ranked == by_ordinal and len(ranked) >= 3
    response = client.get(STANDINGS, query_string={"season": "all", "sort": "rating"})
    assert "Sorted by Rating." in text(response)
    assert re.search(r'aria-sort="descending"><a [^>]*>Rating</a>', response.text)


def test_the_clubs_default_sort_is_used_without_a_sort(app, client, tuesday8):
    settings = f"/clubs/{SLUG}/settings"
    page = client.get(settings)
    assert 'name="standings_sort"' in page.text
    assert re.search(r'<option[^>]*selected[^>]*value="win_rate"', page.text), page.text
    answer = client.post(
        settings, data={"name": "Tuesday Club", "min_games": 3, "standings_sort": "rating"}
    )
    assert answer.status_code == 302, text(answer)
    with app.app_context():
        assert clubs.club_by_slug(SLUG).standings_sort == "rating"
    expected = kept_of(app, kept.ALL)
    response = client.get(STANDINGS, query_string={"season": "all"})
    assert "Sorted by Rating." in text(response)
    ranked = [row[1] for row in table(response, "standings") if row[0] != "–"]
    assert ranked == sorted(ranked, key=lambda n: (-expected[n].skill.ordinal, n.casefold()))
    # Asked for another order, that one; the club's page's leaders follow the club's choice.
    assert "Sorted by Wins." in text(client.get(STANDINGS, query_string={"sort": "wins"}))
    overview = client.get(f"/clubs/{SLUG}", query_string={"season": "all"})
    assert [r[1] for r in table(overview, "standings") if r[0] != "–"] == ranked[:5]
    # Dates of one's own keep no rating: the column is blank, said, and win % ranks.
    mine = client.get(STANDINGS, query_string={"start": "2024-03-01", "end": "2024-04-30"})
    assert "Sorted by Win %." in text(mine)
    assert "Ratings are kept over all seasons, per season and per rule set" in text(mine)
    assert set(shown(table(mine, "standings")).values()) == {"–"}


def test_an_unknown_sort_is_refused_naming_the_field(app, client, tuesday8):
    settings = f"/clubs/{SLUG}/settings"
    answer = client.post(
        settings, data={"name": "Tuesday Club", "min_games": 3, "standings_sort": "luck"}
    )
    assert answer.status_code == 422
    assert (
        "Standings sorted by: 'luck' is not one of the standings' columns; choose one from the "
        "list." in text(answer)
    )
    assert 'href="#standings_sort"' in answer.text
    with app.app_context():
        assert clubs.club_by_slug(SLUG).standings_sort == "win_rate"
        with pytest.raises(clubs.SortRefused, match="Standings sorted by"):
            clubs.update_settings(
                clubs.club_by_slug(SLUG),
                name="Tuesday Club",
                public=False,
                min_games=3,
                standings_sort="nonsense",
            )


def test_the_season_filter_rates_within_the_season(app, client, tuesday8):
    spring = tuesday8.spring
    rows = rows_of(client, season=str(spring))
    # Spring: g3 (Cat 2,000, Bob 700, Dan -600), g4 (Ann beats Dan), g5 (Bob, Eve, Dan), g6
    # (the guest Gus beats Cat). Ann's only Spring game is g4, against Dan after g3.
    new = model.NEW
    _, _, dan = (side[0] for side in model.rate([[new], [new], [new]], [700, 2000, -600]))
    ann = model.rate([[new], [dan]], [2200, 500])[0][0]
    assert shown(rows)["Ann"] == f"{model.shown(ann):.1f} (1)*".replace("-", "−")
    season = kept_of(app, f"{kept.SEASON}{spring}")
    assert shown(rows) == {name: cell(k) for name, k in season.items()}
    # All seasons: Ann's four games give another figure.
    assert kept_of(app, kept.ALL)["Ann"].skill != season["Ann"].skill
    assert shown(rows_of(client, season="all"))["Ann"] != shown(rows)["Ann"]
    # A season and a rule set together keep no rating: blank, and said.
    both = client.get(STANDINGS, query_string={"season": str(spring), "ruleset": "club"})
    assert "Ratings are kept over all seasons, per season and per rule set" in text(both)
    assert set(shown(table(both, "standings")).values()) == {"–"}


def test_the_rule_set_filter_rates_within_the_rule_set(app, client, tuesday8):
    rows = rows_of(client, season="all", ruleset="classic")
    # Classic: g8 alone, Ann & Cat beat Bob & Gus (a guest, not listed), all new; each had
    # one partner in it (†).
    new = model.NEW
    won, lost = model.rate([[new, new], [new, new]], [3700, 600])
    assert shown(rows) == {
        "Ann": f"{model.shown(won[0]):.1f} (1)*†",
        "Cat": f"{model.shown(won[1]):.1f} (1)*†",
        "Bob": f"{model.shown(lost[0]):.1f} (1)*†".replace("-", "−"),
    }
    assert shown(rows)["Ann"] == "2.4 (1)*†"
    assert shown(rows)["Ann"] != cell(kept_of(app, kept.ALL)["Ann"])
    club_rows = rows_of(client, season="all", ruleset="club")
    assert shown(club_rows) == {n: cell(k) for n, k in kept_of(app, "rules:club").items()}


def test_the_csv_and_the_api_carry_the_rating(app, client, tuesday8):
    expected = kept_of(app, kept.ALL)
    csv_text = client.get(f"/clubs/{SLUG}/export/standings.csv?season=all&sort=rating").text
    lines = list(csv.DictReader(io.StringIO(csv_text)))
    assert list(lines[0])[-2:] == ["rating", "rated_games"]
    assert {line["player"]: (line["rating"], line["rated_games"]) for line in lines} == {
        n: (f"{model.shown(k.skill):.1f}", str(k.games)) for n, k in expected.items()
    }
    ranked = [line["player"] for line in lines if line["rank"]]
    assert ranked == sorted(ranked, key=lambda n: (-expected[n].skill.ordinal, n.casefold()))

    document = client.get("/api/v1/openapi.json").get_json()

    def matches(component: str, value) -> None:
        schema = {"$ref": f"#/components/schemas/{component}", "components": document["components"]}
        Draft202012Validator(schema).validate(value)

    answer = client.get(f"/api/v1/clubs/{SLUG}/standings", query_string={"season": "all"})
    assert answer.status_code == 200
    for row in answer.get_json():
        matches("Standing", row)
    assert {r["player"]: (r["rating"], r["rated_games"]) for r in answer.get_json()} == {
        n: (model.shown(k.skill), k.games) for n, k in expected.items()
    }
    by_rating = client.get(
        f"/api/v1/clubs/{SLUG}/standings", query_string={"season": "all", "sort": "rating"}
    ).get_json()
    ranked = [r["player"] for r in by_rating if r["rank"] is not None]
    assert ranked == sorted(ranked, key=lambda n: (-expected[n].skill.ordinal, n.casefold()))
    # Dates of one's own: no rating kept, null and 0.
    dated = client.get(
        f"/api/v1/clubs/{SLUG}/standings", query_string={"from": "2024-03-01"}
    ).get_json()
    assert {(r["rating"], r["rated_games"]) for r in dated} == {(None, 0)}
    # The members: each with their rating in the scope the standings show by default, the
    # latest season to have started (Spring 2024), as the standings answer it (none before a
    # game there).
    with app.app_context():
        clubs.add_member(clubs.club_by_slug(SLUG), "Zoe")
    members = client.get(f"/api/v1/clubs/{SLUG}/members").get_json()
    for member in members:
        matches("Member", member)
    spring = kept_of(app, f"{kept.SEASON}{tuesday8.spring}")
    assert {m["name"]: (m["rating"], m["rated_games"]) for m in members} == {
        **{n: (model.shown(k.skill), k.games) for n, k in spring.items()},
        **{n: (None, 0) for n in ("Zoe", "Ann", "Bob", "Cat", "Dan", "Eve") if n not in spring},
    }
    standing = client.get(f"/api/v1/clubs/{SLUG}/standings").get_json()
    assert {r["rating_scope"] for r in standing} == {m["rating_scope"] for m in members}
