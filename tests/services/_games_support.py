"""Helpers shared by the tests of services/games/ (test_games*.py): a date, the presets, readers."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.models import Player, Side

from ._support import kept

MARCH = date(2025, 3, 4)
PRESETS = "classic, club, family, casual, ten-thousand, cutthroat"


def refusals_of(refused: pytest.ExceptionInfo) -> list[tuple]:
    """Each refusal as (side, field, message)."""
    return [(r.side, r.field, r.message) for r in refused.value.refusals]


def sides_kept(game_id: int) -> list[tuple]:
    """Each side's players as kept: (side position, side name, player position, name, member)."""
    query = (
        select(Side.position, Side.name, Player.position, Player.name, Player.member_id)
        .join(Player, Player.side_id == Side.id)
        .where(Side.game_id == game_id)
        .order_by(Side.position, Player.position)
    )
    return [tuple(row) for row in kept(query)]
