"""Charts for the pages, drawn on the server from the engine's figures."""

from __future__ import annotations

from flask import url_for
from markupsafe import Markup

from scorekeeper.plumbing.models import Game, Member
from scorekeeper.rules import Progress
from scorekeeper.services.ratings.reading import Course
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


def rating_chart(target: Member, course: Course) -> tuple[Markup, Markup] | None:
    """The member's rating after each game: a line chart, and its table with each game's link
    and change (the same points, in the same order); None before their first rated game."""
    if not course.points:
        return None
    title = f"{target.name}: rating after each game"
    if course.earlier:
        title += f" (the last {len(course.points)})"
    labels = [p.played_on.strftime("%d %b %Y") for p in course.points]
    series = [svg_charts.Series("Rating", [p.rating for p in course.points])]
    chart = svg_charts.line_chart(title, labels, series, chart_id="rating", decimals=1)
    return Markup(chart), Markup(_rating_table(title, labels, course))


def _rating_table(title: str, labels: list[str], course: Course) -> str:
    """The rating chart's twin: each game's date (its link), the rating after it and the change."""
    esc = svg_charts.esc
    out = [
        '<table class="chart-table rating-table">',
        f"<caption>{esc(title)}</caption>",
        '<thead><tr><th scope="col">Date</th><th scope="col">Rating</th>'
        '<th scope="col">Change</th></tr></thead>',
        "<tbody>",
    ]
    for label, point in zip(labels, course.points, strict=True):
        # A club's game opens to whoever may read the club (`require_game`), as this page does.
        href = url_for("games.scoreboard", secret=point.secret)
        # The date is the game's link (three columns fit a 320 px phone); its name says which
        # of their games it was, as two games of one night share a date.
        named = f"Game {point.number}, {label}"
        out.append(
            f'<tr><th scope="row"><a href="{esc(href)}" aria-label="{esc(named)}">'
            f"{esc(label)}</a></th>"
            f'<td class="num">{esc(svg_charts.fmt(point.rating, 1))}</td>'
            f'<td class="num">{esc(_signed(point.change))}</td></tr>'
        )
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def _signed(change: float) -> str:
    """A rating's change as a deal's score reads: always signed (+2.4, +0.0, −0.7)."""
    return ("+" if change >= 0 else "") + svg_charts.fmt(change, 1)
