"""Server-side charts as inline SVG (plus an equivalent HTML table), in pure Python.

Every piece of text placed in the markup is escaped here, so callers may mark the result
safe. No scripts, no inline styles, no external requests: only SVG presentation attributes.

Colours follow the page's theme: text, grid and zero line are drawn in `currentColor` (the
page's text colour, the grid faded by opacity), and each series (class `s0` to `s5`) takes
its colour from a `color` attribute that static/app.css overrides for night mode.

line     line_chart: running totals or a rating, one line per series
bar      bar_chart: one bar per label, some highlighted
table    chart_table: the same figures as an HTML table
drawing  colours, escaping, markers and axes; layout: where each piece goes
"""

from __future__ import annotations

from scorekeeper.web.svg_charts.bar import bar_chart
from scorekeeper.web.svg_charts.drawing import MAX_SERIES, PALETTE, Series, esc
from scorekeeper.web.svg_charts.layout import fmt
from scorekeeper.web.svg_charts.line import line_chart
from scorekeeper.web.svg_charts.table import chart_table

__all__ = [
    "MAX_SERIES",
    "PALETTE",
    "Series",
    "bar_chart",
    "chart_table",
    "esc",
    "fmt",
    "line_chart",
]
