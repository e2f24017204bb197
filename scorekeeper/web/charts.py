"""Charts for the pages, drawn on the server from the engine's figures."""

from __future__ import annotations

from markupsafe import Markup

from scorekeeper.plumbing.models import Game
from scorekeeper.rules import Progress
from scorekeeper.web import svg_charts


def running_totals_chart(game: Game, progress: Progress) -> tuple[Markup, Markup] | None:
    """Each side's running total after each deal, as SVG and as a table for screen readers."""
    if not progress.deals:
        return None
    title = "Running totals"
    labels = ["Start"] + [f"Deal {d.number}" for d in progress.deals]
    series = [
        svg_charts.Series(side.name, [0] + [d.totals[index] for d in progress.deals])
        for index, side in enumerate(game.sides[: svg_charts.MAX_SERIES])
    ]
    return (
        Markup(svg_charts.line_chart(title, labels, series, chart_id=f"totals-{game.id}")),
        Markup(svg_charts.chart_table(title, labels, series)),
    )
