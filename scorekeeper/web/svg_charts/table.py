"""A chart's figures as an HTML table, for screen readers and for reading the numbers."""

from __future__ import annotations

from scorekeeper.web.svg_charts.drawing import NO_DATA, Series, esc
from scorekeeper.web.svg_charts.layout import fmt


def chart_table(title: str, labels: list[str], series: list[Series]) -> str:
    """The chart's figures as an accessible HTML table: one row per label, one column per series."""
    out = ['<table class="chart-table">', f"<caption>{esc(title)}</caption>"]
    if not labels or not series:
        out.append(f"<tbody><tr><td>{esc(NO_DATA)}</td></tr></tbody>")
        out.append("</table>")
        return "\n".join(out)
    for s in series:
        if len(s.values) != len(labels):
            raise ValueError(
                f"series {s.name!r} has {len(s.values)} values for {len(labels)} labels"
            )
    head = "".join(f'<th scope="col">{esc(s.name)}</th>' for s in series)
    out.append(f"<thead><tr><td></td>{head}</tr></thead>")
    out.append("<tbody>")
    for i, label in enumerate(labels):
        cells = "".join(f'<td class="num">{esc(fmt(s.values[i]))}</td>' for s in series)
        out.append(f'<tr><th scope="row">{esc(label)}</th>{cells}</tr>')
    out.append("</tbody>")
    out.append("</table>")
    return "\n".join(out)
