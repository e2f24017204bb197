"""Moved to scorekeeper.web.clubs.forms: kept only until every importer names its new home."""

from __future__ import annotations

from scorekeeper.web.clubs.forms import ActionForm

__all__ = ["ActionForm"]
