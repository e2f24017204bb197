"""What a write tells the table's phones: one more on the game's live version (`touch`), and
the news of a deal saved or corrected, told once by each phone (Game.news); what the phones
poll for is live.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.rules.terms import signed

# --- the news each phone is told once -------------------------------------------------------


def saved_news(number: int, by: str | None) -> dict[str, Any]:
    """A new deal, for Game.news; `key` is the deal and its version, so each save is one event."""
    return {"key": f"{number}.1", "kind": "saved", "deal": number, "by": by, "changes": []}


def corrected_news(
    number: int, version: int, by: str | None, changes: Sequence[tuple[int, str, int, int]]
) -> dict[str, Any]:
    """A correction, for Game.news: each side whose deal total changed (side, name, old, new)."""
    return {
        "key": f"{number}.{version}",
        "kind": "corrected",
        "deal": number,
        "by": by,
        "changes": [
            {"side": side, "name": name, "before": before, "after": after}
            for side, name, before, after in changes
        ],
    }


def news_text(news: dict[str, Any]) -> str:
    """The news in words: "Ann corrected deal 1: Them +1,355 → +1,390."."""
    deal, by = news.get("deal"), news.get("by")
    if news.get("kind") != "corrected":
        return f"{by} saved deal {deal}." if by else f"Deal {deal} saved."
    said = f"{by} corrected deal {deal}" if by else f"Deal {deal} corrected"
    changes = "; ".join(
        f"{c['name']} {signed(c['before'])} → {signed(c['after'])}"
        for c in news.get("changes") or []
    )
    return f"{said}: {changes}." if changes else f"{said}."


def touch(game_id: int, news: dict[str, Any] | None = None) -> None:
    """Something a watching phone would see changed: one more on the game's live version.

    Part of the caller's transaction. An unchanged poll is answered from this number alone.
    With `news` (a deal saved or corrected), the table's phones are told it (Game.news).
    """
    values: dict[str, Any] = {"live_version": Game.live_version + 1}
    if news is not None:
        values["news"] = news
    db.session.execute(update(Game).where(Game.id == game_id).values(**values))
