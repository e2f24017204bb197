"""Who is ranked, stated above the standings (issue 28): the club's threshold, and who has not
reached it yet with their games so far; on the standings and on the club's page.

Tuesday's club games (test_clubs.py): Ann, Bob, Cat and Dan 3 games each, Eve 1.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import render_template
from test_clubs import SLUG, text, tuesday

from scorekeeper.services.standings import Standing, Unranked

SETTINGS = f"/clubs/{SLUG}/settings"


def ranked_after(client, path: str = f"/clubs/{SLUG}/standings?season=all") -> str:
    """The line stated above the standings table, as read; and it is above the table."""
    response = client.get(path)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    found = re.search(r'<p class="ranked-after" id="ranked-after">(.*?)</p>', page, re.S)
    assert found, text(response)[:500]
    assert found.start() < page.index('<table class="standings"')
    return words(found.group(1))


def words(fragment: str) -> str:
    """A fragment of HTML as read: tags gone, entities read, whitespace collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def threshold(client, games: int) -> None:
    answer = client.post(SETTINGS, data={"name": "Tuesday Club", "min_games": games})
    assert answer.status_code == 302, text(answer)


def test_who_is_not_yet_ranked_is_said_above_the_table(app, client):
    tuesday(app, client)
    assert ranked_after(client) == "Ranked after 3 games. Not yet ranked: Eve (1 game)."
    # Said once, above: the old note under the table is gone.
    assert "listed without a rank" not in text(client.get(f"/clubs/{SLUG}/standings?season=all"))
    # The club's page, whose leaders are the first five, says it of every member counted.
    assert ranked_after(client, f"/clubs/{SLUG}?season=all") == ranked_after(client)

    threshold(client, 4)
    assert ranked_after(client) == (
        "Nobody is ranked yet: members are ranked after 4 games. "
        "So far: Ann (3 games), Bob (3 games), Cat (3 games) and 2 more."
    )
    threshold(client, 2)
    assert ranked_after(client) == "Ranked after 2 games. Not yet ranked: Eve (1 game)."
    threshold(client, 0)
    assert ranked_after(client) == "Every member is ranked from their first game."


def standing(player: str, games: int) -> Standing:
    return Standing(1, player, games, 0, 0, 0, 0, 0, 0, 0, 0, 0)


ANN, BOB, CAT, DAN = (standing(n, g) for n, g in (("Ann", 2), ("Bob", 1), ("Cat", 1), ("Dan", 1)))


@pytest.mark.parametrize(
    ("unranked", "said"),
    [
        (Unranked(0, 4, (), 0), "Every member is ranked from their first game."),
        (Unranked(1, 4, (), 0), "Every member is ranked from their first game."),
        (Unranked(3, 4, (), 0), "Ranked after 3 games: everyone here has played that many."),
        (Unranked(3, 2, (ANN,), 0), "Ranked after 3 games. Not yet ranked: Ann (2 games)."),
        (
            Unranked(3, 2, (ANN, BOB), 0),
            "Ranked after 3 games. Not yet ranked: Ann (2 games) and Bob (1 game).",
        ),
        (
            Unranked(3, 1, (ANN, BOB, CAT, DAN), 0),
            "Ranked after 3 games. Not yet ranked: Ann (2 games), Bob (1 game), Cat (1 game) "
            "and Dan (1 game).",
        ),
        (
            Unranked(3, 1, (ANN, BOB, CAT), 5),
            "Ranked after 3 games. Not yet ranked: Ann (2 games), Bob (1 game), Cat (1 game) "
            "and 5 more.",
        ),
        (
            Unranked(3, 0, (ANN, BOB, CAT), 1_200),
            "Nobody is ranked yet: members are ranked after 3 games. "
            "So far: Ann (2 games), Bob (1 game), Cat (1 game) and 1,200 more.",
        ),
        (
            Unranked(2, 0, (BOB,), 0),
            "Nobody is ranked yet: members are ranked after 2 games. So far: Bob (1 game).",
        ),
    ],
)
def test_the_words_of_each_case(app, unranked, said):
    with app.test_request_context():
        shown = render_template("clubs/_unranked.html", unranked=unranked)
    assert words(shown) == said
