"""The table: start a game, see the scoreboard, enter and correct deals.

One blueprint, `bp` ("games"), and its views by what they show:

starting    a new game: the rule set, the sides, the house rules
scoreboard  the scoreboard (services/game_view.py read into its page), who deals first, Play
            again, a casual table's own rules remembered, deleting a game, the old addresses
entering    the whole deal's form, correcting a deal, a stale form's conflict, the preview
tonight     a club night's game: the links to its night's board and results
"""

from __future__ import annotations

import re

from flask import Blueprint

from scorekeeper.web.access import my_rules
from scorekeeper.web.forms import default_sender, place, sender_name

bp = Blueprint("games", __name__)
# The home page lists the rules this phone remembers (see `remember_these_rules`).
bp.add_app_template_global(my_rules, "my_rules")
VERSION = re.compile(r"[0-9]{1,9}")
# A version typed as digits is a number however long (a huge one no deal has is a conflict);
# past 30 digits it is no number this server wrote, and refused as such.
DIGITS = re.compile(r"[0-9]{1,30}")


# The live corner shows it until the phone names itself (templates/_live.html).
bp.add_app_template_global(default_sender, "default_sender")


# The views add their routes to bp as they are imported, so they come after it.
from scorekeeper.web.games import agreeing, entering, scoreboard, starting, tonight  # noqa: E402, F401
from scorekeeper.web.games.scoreboard import deal_pages, deal_url, moved  # noqa: E402

__all__ = [
    "DIGITS",
    "VERSION",
    "bp",
    "deal_pages",
    "deal_url",
    "default_sender",
    "moved",
    "place",
    "sender_name",
]
