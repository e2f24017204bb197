"""A bar chart: one bar per game, the games won in a second colour."""

from __future__ import annotations

from scorekeeper.web.svg_charts.drawing import (
    BAR_COLOUR,
    HIGHLIGHT_COLOUR,
    axes,
    chart_id_of,
    check_size,
    esc,
    no_data,
    num,
    series_attrs,
    svg_open,
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


def bar_chart(
    title: str,
    labels: list[str],
    values: list[int],
    *,
    highlight: list[bool] | None = None,
    width: int = 360,
    height: int = 200,
    chart_id: str | None = None,
    highlight_label: str = "Win",
) -> str:
    """One bar per label; highlighted bars in a second colour; negatives hang below zero."""
    check_size(width, height)
    cid = chart_id_of(chart_id, "bar", title, labels, values, highlight)
    if not labels or not values:
        return no_data(cid, title, width, height, "chart-bar")
    if len(values) != len(labels):
        raise ValueError(f"{len(values)} values for {len(labels)} labels")
    if highlight is not None and len(highlight) != len(labels):
        raise ValueError(f"{len(highlight)} highlight flags for {len(labels)} labels")
    flags = list(highlight) if highlight is not None else [False] * len(labels)

    swatch_w = 12.0
    placed = legend_layout([highlight_label], width, swatch_w) if any(flags) else []
    rows = legend_rows(placed)
    left, right, top, bottom, axis_lo, axis_hi, step = frame(values, labels, rows, width, height)
    right = width - 12.0  # bars are centred in their slots, labels never reach the edge

    def to_y(v: int) -> float:
        return bottom - (v - axis_lo) / (axis_hi - axis_lo) * (bottom - top)

    slot = (right - left) / len(labels)
    bar_w = min(slot * 0.7, 48.0)
    xs = [left + (i + 0.5) * slot for i in range(len(labels))]
    y0 = to_y(0)

    out = svg_open(cid, title, width, height, "chart-bar")
    # Grid first, bars next, zero line last so it stays visible across the bars.
    grid, zero_line = axes(axis_lo, axis_hi, step, left, right, to_y)
    out += grid
    out += x_labels(labels, xs, slot, bottom + 14, width)
    out.append(f"<g {series_attrs(0, BAR_COLOUR, 'bars')}>")
    for x, v, label, flag in zip(xs, values, labels, flags, strict=True):
        yv = to_y(v)
        y_top, y_bot = round(min(yv, y0), 1), round(max(yv, y0), 1)
        own = series_attrs(4, HIGHLIGHT_COLOUR, "bar", "highlight") if flag else 'class="bar"'
        tip = f"{label}: {fmt(v)}" + (f" ({highlight_label})" if flag else "")
        out.append(
            f'<rect {own} x="{num(x - bar_w / 2)}" '
            f'y="{num(y_top)}" width="{num(bar_w)}" height="{num(y_bot - y_top)}" '
            f'fill="currentColor" data-value="{v}"><title>{esc(tip)}</title></rect>'
        )
    out.append("</g>")
    out.append(zero_line)

    if placed:
        legend_top = bottom + X_LABEL_H + 6
        out.append('<g class="legend">')
        for x, row, text in placed:
            cy = legend_top + row * LEGEND_ROW_H + LEGEND_ROW_H / 2
            out.append('<g class="legend-item">')
            out.append(
                f'<rect {series_attrs(4, HIGHLIGHT_COLOUR)} x="{num(x)}" '
                f'y="{num(cy - swatch_w / 2)}" width="{num(swatch_w)}" height="{num(swatch_w)}" '
                f'fill="currentColor"/>'
            )
            out.append(
                f'<text class="legend-label" x="{num(x + swatch_w + 4)}" y="{num(cy + 4)}" '
                f'fill="currentColor">{esc(text)}</text>'
            )
            out.append("</g>")
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
