"""Where a chart's pieces go: text widths, the y scale, the plot area, the legend's rows and
which x labels fit."""

from __future__ import annotations

import math
from collections.abc import Sequence

from scorekeeper.rules.terms import MINUS, figure

CHAR_W = 6.6  # generous average glyph width at drawing.FONT_SIZE, for layout estimates
LEGEND_ROW_H = 16
X_LABEL_H = 18
TOP = 10
MAX_LABEL_CHARS = 14


def fmt(value: float, decimals: int = 0) -> str:
    """Format a figure as every page shows one: thousands grouped, a true minus sign; a whole
    number unless `decimals` are asked for (a rating: 12.3)."""
    if not decimals:
        return figure(value)
    # + 0.0: a value that rounds to nothing reads 0.0, never -0.0.
    return f"{round(value, decimals) + 0.0:,.{decimals}f}".replace("-", MINUS)


def text_width(text: str) -> float:
    """Estimate the rendered width of text at the chart font size."""
    return len(text) * CHAR_W


def truncate(text: str, max_w: float) -> str:
    """Shorten text with an ellipsis so its estimated width fits max_w."""
    max_chars = max(1, int(max_w // CHAR_W))
    if len(text) <= max_chars:
        return text
    return text[: max(0, max_chars - 1)].rstrip() + "…"


def nice_step(span: int, max_ticks: int) -> int:
    """Smallest 1/2/5 x 10^n integer step giving at most max_ticks intervals over span."""
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * magnitude
            if step * max_ticks >= span:
                return step
        magnitude *= 10


def y_scale(values: Sequence[float], max_ticks: int) -> tuple[int, int, int]:
    """Return (axis_lo, axis_hi, step): a round range of whole numbers covering the values and
    zero (a value with decimals is covered by the whole numbers either side of it)."""
    lo = min(0, math.floor(min(values, default=0)))
    hi = max(0, math.ceil(max(values, default=0)))
    if lo == hi:  # all zero
        hi = 100
    step = nice_step(hi - lo, max_ticks)
    while True:
        axis_lo = (lo // step) * step
        axis_hi = -((-hi) // step) * step
        if (axis_hi - axis_lo) // step <= max_ticks:
            return axis_lo, axis_hi, step
        step = nice_step(step + 1, 1)  # the next 1/2/5 step up


def legend_layout(names: list[str], width: int, swatch_w: float) -> list[tuple[float, int, str]]:
    """Place legend items left to right, wrapping rows: (x, row, shown text) per item."""
    margin = 8.0
    gap = 14.0
    avail = width - 2 * margin
    placed: list[tuple[float, int, str]] = []
    x, row = margin, 0
    for name in names:
        text = truncate(name, avail - swatch_w - 4)
        item_w = swatch_w + 4 + text_width(text)
        if x > margin and x + item_w > width - margin:
            x, row = margin, row + 1
        placed.append((x, row, text))
        x += item_w + gap
    return placed


def legend_rows(placed: list[tuple[float, int, str]]) -> int:
    return (max(row for _, row, _ in placed) + 1) if placed else 0


def x_label_indices(count: int, spacing: float, label_w: float) -> list[int]:
    """Indices of x labels to draw so neighbouring labels do not overlap."""
    if count == 0:
        return []
    every = 1 if spacing <= 0 else max(1, math.ceil((label_w + 6) / spacing))
    chosen = list(range(0, count, every))
    last = count - 1
    if chosen[-1] != last and (last - chosen[-1]) * spacing >= label_w + 6:
        chosen.append(last)
    return chosen


def frame(
    all_values: list[float], labels: list[str], legend_rows: int, width: int, height: int
) -> tuple[float, float, float, float, int, int, int]:
    """Plot area (left, right, top, bottom) and y scale (lo, hi, step) for the given data."""
    bottom = height - legend_rows * LEGEND_ROW_H - X_LABEL_H - (6 if legend_rows else 0)
    if bottom < TOP + 40:
        raise ValueError(f"height {height} is too small for a legend of {legend_rows} rows")
    max_ticks = max(2, min(6, int((bottom - TOP) // 28)))
    axis_lo, axis_hi, step = y_scale(all_values, max_ticks)
    tick_w = max(text_width(fmt(t)) for t in (axis_lo, axis_hi))
    left = tick_w + 12
    last = truncate(labels[-1], MAX_LABEL_CHARS * CHAR_W) if labels else ""
    right = width - max(12.0, min(text_width(last) / 2 + 2, width / 4))
    return left, right, float(TOP), bottom, axis_lo, axis_hi, step
