"""The table tests' shared helpers (test_table_features.py, test_table_own_rules.py): who
deals as the pages say it, and finishing a game.
"""

from __future__ import annotations

import re

from _pages_support import api_deal, text
from game_links import link
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game

THREE = [("Ann", ["Ann"]), ("Bob", ["Bob"]), ("Cat", ["Cat"])]
# A clean book each deal for the first side, nothing for the others: four deals end the game.
CLEAN = {"books": {"clean": 1}}


def game_count(client) -> int:
    with client.application.app_context():
        return db.session.execute(select(func.count()).select_from(Game)).scalar_one()


def first_dealer(client, game_id: int) -> int:
    with client.application.app_context():
        return db.session.get(Game, game_id).first_dealer


def deal_line(client, game_id: int) -> str:
    """The "Deal N: X deals" line of the scoreboard."""
    found = re.search(r"Deal \d+: \w+ deals", text(client.get(link(client, game_id))))
    return found.group(0) if found else ""


def deal_form_line(client, game_id: int, path: str = "/deals/new") -> str:
    found = re.search(r"Deal \d+: \w+ deal(s|t)", text(client.get(link(client, game_id) + path)))
    return found.group(0) if found else ""


def finish(client, game_id: int, sides: int = 2) -> None:
    for _ in range(4):
        api_deal(client, game_id, CLEAN, *[{}] * (sides - 1))
