"""The table: start a game, see the scoreboard, enter and correct deals.

One blueprint, `bp` ("games"), and its views by what they show:

starting    a new game: the rule set, the sides, the house rules
scoreboard  the scoreboard (services/game_view.py read into its page), who deals first, Play
            again, a casual table's own rules remembered, deleting a game, the old addresses
entering    the whole deal's form, correcting a deal, a stale form's conflict, the preview
"""

from __future__ import annotations

import re

from flask import Blueprint
from flask_login import current_user

from scorekeeper.services.names import SOMEONE, phone_name
from scorekeeper.web.access import my_rules

bp = Blueprint("games", __name__)
# The home page lists the rules this phone remembers (see `remember_these_rules`).
bp.add_app_template_global(my_rules, "my_rules")
VERSION = re.compile(r"[0-9]{1,9}")
# A version typed as digits is a number however long (a huge one no deal has is a conflict);
# past 30 digits it is no number this server wrote, and refused as such.
DIGITS = re.compile(r"[0-9]{1,30}")


def default_sender() -> str:
    """The name a phone goes by when it gives none: its signed-in organiser's, else Someone."""
    return current_user.username if current_user.is_authenticated else SOMEONE


# The live corner shows it until the phone names itself (templates/_live.html).
bp.add_app_template_global(default_sender, "default_sender")


def sender_name(sent: str | None) -> str:
    """The name the phone sending this request goes by (`names.phone_name`, `default_sender`)."""
    return phone_name(sent, default_sender())


# The views add their routes to bp as they are imported, so they come after it.
from scorekeeper.web.games import entering, scoreboard, starting  # noqa: E402, F401
from scorekeeper.web.games.entering import place  # noqa: E402
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
