"""A line chart: running totals across a game's deals, one line per side."""

from __future__ import annotations

from scorekeeper.web.svg_charts.drawing import (
    PALETTE,
    Series,
    axes,
    chart_id_of,
    check_size,
    esc,
    marker,
    no_data,
    num,
    series_attrs,
    svg_open,
    validate_series,
    x_labels,
)
from scorekeeper.web.svg_charts.layout import (
    LEGEND_ROW_H,
    X_LABEL_H,
    fmt,
    frame,
    legend_layout,
    legend_rows,
)


def line_chart(
    title: str,
    labels: list[str],
    series: list[Series],
    *,
    width: int = 360,
    height: int = 220,
    chart_id: str | None = None,
    decimals: int = 0,
) -> str:
    """Running totals across a game's deals: one line per series, labels on the x axis; the
    points' figures to `decimals` places (a rating's 12.3), the axis in whole numbers."""
    check_size(width, height)
    cid = chart_id_of(chart_id, "line", title, labels, [(s.name, s.values) for s in series])
    if not labels or not series:
        return no_data(cid, title, width, height, "chart-line")
    validate_series(labels, series)

    swatch_w = 22.0
    placed = legend_layout([s.name for s in series], width, swatch_w)
    rows = legend_rows(placed)
    all_values = [v for s in series for v in s.values]
    left, right, top, bottom, axis_lo, axis_hi, step = frame(
        all_values, labels, rows, width, height
    )

    def to_y(v: float) -> float:
        return bottom - (v - axis_lo) / (axis_hi - axis_lo) * (bottom - top)

    count = len(labels)
    if count == 1:
        xs = [(left + right) / 2]
        spacing = right - left
    else:
        spacing = (right - left) / (count - 1)
        xs = [left + i * spacing for i in range(count)]

    out = svg_open(cid, title, width, height, "chart-line")
    grid, zero_line = axes(axis_lo, axis_hi, step, left, right, to_y)
    out += grid
    out.append(zero_line)
    out += x_labels(labels, xs, spacing, bottom + 14, width)

    for index, s in enumerate(series):
        pts = " ".join(f"{num(x)},{num(to_y(v))}" for x, v in zip(xs, s.values, strict=True))
        attrs = series_attrs(index, PALETTE[index], "series")
        out.append(f'<g {attrs} data-series="{index}">')
        out.append(
            f'<polyline class="line" points="{pts}" fill="none" stroke="currentColor" '
            f'stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>'
        )
        for x, v, label in zip(xs, s.values, labels, strict=True):
            out.append(marker(index, x, to_y(v), f"{s.name}, {label}: {fmt(v, decimals)}"))
        out.append("</g>")

    legend_top = bottom + X_LABEL_H + 6
    out.append('<g class="legend">')
    for index, (x, row, text) in enumerate(placed):
        cy = legend_top + row * LEGEND_ROW_H + LEGEND_ROW_H / 2
        out.append('<g class="legend-item">')
        out.append(
            f"<g {series_attrs(index, PALETTE[index])}>"
            f'<line x1="{num(x)}" y1="{num(cy)}" x2="{num(x + swatch_w)}" y2="{num(cy)}" '
            f'stroke="currentColor" stroke-width="2"/>'
        )
        out.append(marker(index, x + swatch_w / 2, cy, "") + "</g>")
        out.append(
            f'<text class="legend-label" x="{num(x + swatch_w + 4)}" y="{num(cy + 4)}" '
            f'fill="currentColor">{esc(text)}</text>'
        )
        out.append("</g>")
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
