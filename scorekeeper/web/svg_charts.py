"""Server-side charts as inline SVG (plus an equivalent HTML table), in pure Python.

Every piece of text placed in the markup is escaped here, so callers may mark the result
safe. No scripts, no inline styles, no external requests: only SVG presentation attributes.

Colours follow the page's theme: text, grid and zero line are drawn in `currentColor` (the
page's text colour, the grid faded by opacity), and each series (class `s0` to `s5`) takes
its colour from a `color` attribute that static/app.css overrides for night mode.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from scorekeeper.rules.terms import figure

__all__ = ["PALETTE", "Series", "bar_chart", "chart_table", "line_chart"]

# Tailwind 700 shades: each has at least 4.5:1 contrast against white.
PALETTE = ("#1d4ed8", "#b91c1c", "#15803d", "#7e22ce", "#b45309", "#0f766e")
BAR_COLOUR = PALETTE[0]
HIGHLIGHT_COLOUR = PALETTE[4]
MAX_SERIES = len(PALETTE)
NO_DATA = "No data yet"

_FONT_SIZE = 11
_CHAR_W = 6.6  # generous average glyph width at _FONT_SIZE, for layout estimates
_MARKER_R = 3.0
_LEGEND_ROW_H = 16
_X_LABEL_H = 18
_TOP = 10
_MAX_LABEL_CHARS = 14
_ID_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
# Characters XML 1.0 forbids even when escaped (C0 controls, surrogates, U+FFFE/U+FFFF).
_NOT_XML_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True)
class Series:
    """One named sequence of values, one value per x point."""

    name: str
    values: list[int]


# --- small helpers -------------------------------------------------------------------------------


def _e(text: str) -> str:
    """Escape text for element content or a double-quoted attribute, dropping non-XML chars."""
    return escape(_NOT_XML_CHAR.sub("", str(text)), quote=True)


def _n(value: float) -> str:
    """Format a coordinate rounded to one decimal, without float noise or '-0'."""
    r = round(value, 1)
    if r == 0:
        return "0"
    if r == int(r):
        return str(int(r))
    return f"{r:.1f}"


def _fmt(value: int) -> str:
    """Format an integer as every page shows a figure: thousands grouped, a true minus sign."""
    return figure(value)


def _text_w(text: str) -> float:
    """Estimate the rendered width of text at the chart font size."""
    return len(text) * _CHAR_W


def _truncate(text: str, max_w: float) -> str:
    """Shorten text with an ellipsis so its estimated width fits max_w."""
    max_chars = max(1, int(max_w // _CHAR_W))
    if len(text) <= max_chars:
        return text
    return text[: max(0, max_chars - 1)].rstrip() + "…"


def _chart_id(chart_id: str | None, *parts: object) -> str:
    """Return the caller's id (validated) or a short id hashed from the chart's content."""
    if chart_id is not None:
        if not _ID_RE.fullmatch(chart_id):
            raise ValueError(f"chart_id must match {_ID_RE.pattern}: {chart_id!r}")
        return chart_id
    digest = hashlib.sha1(repr(parts).encode("utf-8")).hexdigest()[:10]
    return f"chart-{digest}"


def _nice_step(span: int, max_ticks: int) -> int:
    """Smallest 1/2/5 x 10^n integer step giving at most max_ticks intervals over span."""
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * magnitude
            if step * max_ticks >= span:
                return step
        magnitude *= 10


def _y_scale(values: Sequence[int], max_ticks: int) -> tuple[int, int, int]:
    """Return (axis_lo, axis_hi, step): a round range covering the values and zero."""
    lo = min(0, *values)
    hi = max(0, *values)
    if lo == hi:  # all zero
        hi = 100
    step = _nice_step(hi - lo, max_ticks)
    while True:
        axis_lo = (lo // step) * step
        axis_hi = -((-hi) // step) * step
        if (axis_hi - axis_lo) // step <= max_ticks:
            return axis_lo, axis_hi, step
        step = _nice_step(step + 1, 1)  # the next 1/2/5 step up


def _svg_open(cid: str, title: str, width: int, height: int, extra_class: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart {extra_class}" '
        f'viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-labelledby="{cid}-title" font-family="system-ui, sans-serif" '
        f'font-size="{_FONT_SIZE}">',
        f'<title id="{cid}-title">{_e(title)}</title>',
    ]


def _no_data(cid: str, title: str, width: int, height: int, kind: str) -> str:
    parts = _svg_open(cid, title, width, height, f"{kind} chart-empty")
    parts.append(
        f'<text class="no-data" x="{_n(width / 2)}" y="{_n(height / 2)}" '
        f'text-anchor="middle" fill="currentColor">{_e(NO_DATA)}</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts)


def _check_size(width: int, height: int) -> None:
    if width < 120 or height < 100:
        raise ValueError("charts need width >= 120 and height >= 100")


def _series_attrs(index: int, colour: str, *classes: str) -> str:
    """A series' classes (`s0`..`s5`, which app.css recolours at night) and its day colour."""
    return f'class="{" ".join((*classes, f"s{index}"))}" color="{colour}"'


def _marker(shape: int, x: float, y: float, tooltip: str) -> str:
    """One point marker in its series' colour; the shape varies so colour is not the only cue."""
    r = _MARKER_R
    tip = f"<title>{_e(tooltip)}</title>" if tooltip else ""
    common = 'class="marker" fill="currentColor"'
    if shape == 0:
        return f'<circle {common} cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}">{tip}</circle>'
    if shape == 1:
        return (
            f'<rect {common} x="{_n(x - r)}" y="{_n(y - r)}" '
            f'width="{_n(2 * r)}" height="{_n(2 * r)}">{tip}</rect>'
        )
    if shape == 5:
        return (
            f'<circle class="marker hollow" fill="none" stroke="currentColor" stroke-width="1.5" '
            f'cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}">{tip}</circle>'
        )
    s = r * 1.3
    corners = {
        2: [(x, y - s), (x + s, y), (x, y + s), (x - s, y)],  # diamond
        3: [(x, y - s), (x + s, y + s * 0.8), (x - s, y + s * 0.8)],  # triangle up
        4: [(x, y + s), (x + s, y - s * 0.8), (x - s, y - s * 0.8)],  # triangle down
    }[shape]
    pts = " ".join(f"{_n(px)},{_n(py)}" for px, py in corners)
    return f'<polygon {common} points="{pts}">{tip}</polygon>'


def _legend_layout(names: list[str], width: int, swatch_w: float) -> list[tuple[float, int, str]]:
    """Place legend items left to right, wrapping rows: (x, row, shown text) per item."""
    margin = 8.0
    gap = 14.0
    avail = width - 2 * margin
    placed: list[tuple[float, int, str]] = []
    x, row = margin, 0
    for name in names:
        text = _truncate(name, avail - swatch_w - 4)
        item_w = swatch_w + 4 + _text_w(text)
        if x > margin and x + item_w > width - margin:
            x, row = margin, row + 1
        placed.append((x, row, text))
        x += item_w + gap
    return placed


def _legend_rows(placed: list[tuple[float, int, str]]) -> int:
    return (max(row for _, row, _ in placed) + 1) if placed else 0


def _x_label_indices(count: int, spacing: float, label_w: float) -> list[int]:
    """Indices of x labels to draw so neighbouring labels do not overlap."""
    if count == 0:
        return []
    every = 1 if spacing <= 0 else max(1, math.ceil((label_w + 6) / spacing))
    chosen = list(range(0, count, every))
    last = count - 1
    if chosen[-1] != last and (last - chosen[-1]) * spacing >= label_w + 6:
        chosen.append(last)
    return chosen


def _axes(
    axis_lo: int, axis_hi: int, step: int, left: float, right: float, to_y: Callable[[int], float]
) -> tuple[list[str], str]:
    """Grid lines with y tick labels, and the zero line (drawn separately, above the data)."""
    out = ['<g class="y-axis">']
    for tick in range(axis_lo, axis_hi + 1, step):
        y = _n(to_y(tick))
        if tick != 0:
            out.append(
                f'<line class="grid" x1="{_n(left)}" y1="{y}" x2="{_n(right)}" y2="{y}" '
                f'stroke="currentColor" stroke-opacity="0.2" stroke-width="1"/>'
            )
        out.append(
            f'<text class="tick" x="{_n(left - 6)}" y="{_n(to_y(tick) + 4)}" '
            f'text-anchor="end" fill="currentColor">{_e(_fmt(tick))}</text>'
        )
    out.append("</g>")
    y0 = _n(to_y(0))
    zero = (
        f'<line class="zero-line" x1="{_n(left)}" y1="{y0}" x2="{_n(right)}" y2="{y0}" '
        f'stroke="currentColor" stroke-opacity="0.75" stroke-width="1.5"/>'
    )
    return out, zero


def _x_labels(
    labels: list[str], xs: list[float], spacing: float, baseline: float, width: int
) -> list[str]:
    shown = [_truncate(label, _MAX_LABEL_CHARS * _CHAR_W) for label in labels]
    label_w = max((_text_w(s) for s in shown), default=0.0)
    out = ['<g class="x-axis">']
    for i in _x_label_indices(len(labels), spacing, label_w):
        half = min(_text_w(shown[i]) / 2, width / 2)
        x = min(max(xs[i], half + 1), width - half - 1)
        out.append(
            f'<text class="x-label" x="{_n(x)}" y="{_n(baseline)}" text-anchor="middle" '
            f'fill="currentColor">{_e(shown[i])}</text>'
        )
    out.append("</g>")
    return out


def _frame(
    all_values: list[int], labels: list[str], legend_rows: int, width: int, height: int
) -> tuple[float, float, float, float, int, int, int]:
    """Plot area (left, right, top, bottom) and y scale (lo, hi, step) for the given data."""
    bottom = height - legend_rows * _LEGEND_ROW_H - _X_LABEL_H - (6 if legend_rows else 0)
    if bottom < _TOP + 40:
        raise ValueError(f"height {height} is too small for a legend of {legend_rows} rows")
    max_ticks = max(2, min(6, int((bottom - _TOP) // 28)))
    axis_lo, axis_hi, step = _y_scale(all_values, max_ticks)
    tick_w = max(_text_w(_fmt(t)) for t in (axis_lo, axis_hi))
    left = tick_w + 12
    last = _truncate(labels[-1], _MAX_LABEL_CHARS * _CHAR_W) if labels else ""
    right = width - max(12.0, min(_text_w(last) / 2 + 2, width / 4))
    return left, right, float(_TOP), bottom, axis_lo, axis_hi, step


def _validate_series(labels: list[str], series: list[Series]) -> None:
    if len(series) > MAX_SERIES:
        raise ValueError(f"at most {MAX_SERIES} series are supported, got {len(series)}")
    for s in series:
        if len(s.values) != len(labels):
            raise ValueError(
                f"series {s.name!r} has {len(s.values)} values for {len(labels)} labels"
            )


# --- public API ----------------------------------------------------------------------------------


def line_chart(
    title: str,
    labels: list[str],
    series: list[Series],
    *,
    width: int = 360,
    height: int = 220,
    chart_id: str | None = None,
) -> str:
    """Running totals across a game's deals: one line per series, labels on the x axis."""
    _check_size(width, height)
    cid = _chart_id(chart_id, "line", title, labels, [(s.name, s.values) for s in series])
    if not labels or not series:
        return _no_data(cid, title, width, height, "chart-line")
    _validate_series(labels, series)

    swatch_w = 22.0
    placed = _legend_layout([s.name for s in series], width, swatch_w)
    rows = _legend_rows(placed)
    all_values = [v for s in series for v in s.values]
    left, right, top, bottom, axis_lo, axis_hi, step = _frame(
        all_values, labels, rows, width, height
    )

    def to_y(v: int) -> float:
        return bottom - (v - axis_lo) / (axis_hi - axis_lo) * (bottom - top)

    count = len(labels)
    if count == 1:
        xs = [(left + right) / 2]
        spacing = right - left
    else:
        spacing = (right - left) / (count - 1)
        xs = [left + i * spacing for i in range(count)]

    out = _svg_open(cid, title, width, height, "chart-line")
    grid, zero_line = _axes(axis_lo, axis_hi, step, left, right, to_y)
    out += grid
    out.append(zero_line)
    out += _x_labels(labels, xs, spacing, bottom + 14, width)

    for index, s in enumerate(series):
        pts = " ".join(f"{_n(x)},{_n(to_y(v))}" for x, v in zip(xs, s.values, strict=True))
        attrs = _series_attrs(index, PALETTE[index], "series")
        out.append(f'<g {attrs} data-series="{index}">')
        out.append(
            f'<polyline class="line" points="{pts}" fill="none" stroke="currentColor" '
            f'stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>'
        )
        for x, v, label in zip(xs, s.values, labels, strict=True):
            out.append(_marker(index, x, to_y(v), f"{s.name}, {label}: {_fmt(v)}"))
        out.append("</g>")

    legend_top = bottom + _X_LABEL_H + 6
    out.append('<g class="legend">')
    for index, (x, row, text) in enumerate(placed):
        cy = legend_top + row * _LEGEND_ROW_H + _LEGEND_ROW_H / 2
        out.append('<g class="legend-item">')
        out.append(
            f"<g {_series_attrs(index, PALETTE[index])}>"
            f'<line x1="{_n(x)}" y1="{_n(cy)}" x2="{_n(x + swatch_w)}" y2="{_n(cy)}" '
            f'stroke="currentColor" stroke-width="2"/>'
        )
        out.append(_marker(index, x + swatch_w / 2, cy, "") + "</g>")
        out.append(
            f'<text class="legend-label" x="{_n(x + swatch_w + 4)}" y="{_n(cy + 4)}" '
            f'fill="currentColor">{_e(text)}</text>'
        )
        out.append("</g>")
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


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
    _check_size(width, height)
    cid = _chart_id(chart_id, "bar", title, labels, values, highlight)
    if not labels or not values:
        return _no_data(cid, title, width, height, "chart-bar")
    if len(values) != len(labels):
        raise ValueError(f"{len(values)} values for {len(labels)} labels")
    if highlight is not None and len(highlight) != len(labels):
        raise ValueError(f"{len(highlight)} highlight flags for {len(labels)} labels")
    flags = list(highlight) if highlight is not None else [False] * len(labels)

    swatch_w = 12.0
    placed = _legend_layout([highlight_label], width, swatch_w) if any(flags) else []
    rows = _legend_rows(placed)
    left, right, top, bottom, axis_lo, axis_hi, step = _frame(values, labels, rows, width, height)
    right = width - 12.0  # bars are centred in their slots, labels never reach the edge

    def to_y(v: int) -> float:
        return bottom - (v - axis_lo) / (axis_hi - axis_lo) * (bottom - top)

    slot = (right - left) / len(labels)
    bar_w = min(slot * 0.7, 48.0)
    xs = [left + (i + 0.5) * slot for i in range(len(labels))]
    y0 = to_y(0)

    out = _svg_open(cid, title, width, height, "chart-bar")
    # Grid first, bars next, zero line last so it stays visible across the bars.
    grid, zero_line = _axes(axis_lo, axis_hi, step, left, right, to_y)
    out += grid
    out += _x_labels(labels, xs, slot, bottom + 14, width)
    out.append(f"<g {_series_attrs(0, BAR_COLOUR, 'bars')}>")
    for x, v, label, flag in zip(xs, values, labels, flags, strict=True):
        yv = to_y(v)
        y_top, y_bot = round(min(yv, y0), 1), round(max(yv, y0), 1)
        own = _series_attrs(4, HIGHLIGHT_COLOUR, "bar", "highlight") if flag else 'class="bar"'
        tip = f"{label}: {_fmt(v)}" + (f" ({highlight_label})" if flag else "")
        out.append(
            f'<rect {own} x="{_n(x - bar_w / 2)}" '
            f'y="{_n(y_top)}" width="{_n(bar_w)}" height="{_n(y_bot - y_top)}" '
            f'fill="currentColor" data-value="{v}"><title>{_e(tip)}</title></rect>'
        )
    out.append("</g>")
    out.append(zero_line)

    if placed:
        legend_top = bottom + _X_LABEL_H + 6
        out.append('<g class="legend">')
        for x, row, text in placed:
            cy = legend_top + row * _LEGEND_ROW_H + _LEGEND_ROW_H / 2
            out.append('<g class="legend-item">')
            out.append(
                f'<rect {_series_attrs(4, HIGHLIGHT_COLOUR)} x="{_n(x)}" '
                f'y="{_n(cy - swatch_w / 2)}" width="{_n(swatch_w)}" height="{_n(swatch_w)}" '
                f'fill="currentColor"/>'
            )
            out.append(
                f'<text class="legend-label" x="{_n(x + swatch_w + 4)}" y="{_n(cy + 4)}" '
                f'fill="currentColor">{_e(text)}</text>'
            )
            out.append("</g>")
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def chart_table(title: str, labels: list[str], series: list[Series]) -> str:
    """The chart's figures as an accessible HTML table: one row per label, one column per series."""
    out = ['<table class="chart-table">', f"<caption>{_e(title)}</caption>"]
    if not labels or not series:
        out.append(f"<tbody><tr><td>{_e(NO_DATA)}</td></tr></tbody>")
        out.append("</table>")
        return "\n".join(out)
    for s in series:
        if len(s.values) != len(labels):
            raise ValueError(
                f"series {s.name!r} has {len(s.values)} values for {len(labels)} labels"
            )
    head = "".join(f'<th scope="col">{_e(s.name)}</th>' for s in series)
    out.append(f"<thead><tr><td></td>{head}</tr></thead>")
    out.append("<tbody>")
    for i, label in enumerate(labels):
        cells = "".join(f'<td class="num">{_e(_fmt(s.values[i]))}</td>' for s in series)
        out.append(f'<tr><th scope="row">{_e(label)}</th>{cells}</tr>')
    out.append("</tbody>")
    out.append("</table>")
    return "\n".join(out)
