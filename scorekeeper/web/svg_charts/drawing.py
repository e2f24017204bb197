"""What every chart is drawn with: its colours, escaped text, numbers, markers and axes."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from scorekeeper.web.svg_charts.layout import (
    CHAR_W,
    MAX_LABEL_CHARS,
    fmt,
    text_width,
    truncate,
    x_label_indices,
)

# Tailwind 700 shades: each has at least 4.5:1 contrast against white.
PALETTE = ("#1d4ed8", "#b91c1c", "#15803d", "#7e22ce", "#b45309", "#0f766e")
BAR_COLOUR = PALETTE[0]
HIGHLIGHT_COLOUR = PALETTE[4]
MAX_SERIES = len(PALETTE)
NO_DATA = "No data yet"

FONT_SIZE = 11
MARKER_R = 3.0
ID_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
# Characters XML 1.0 forbids even when escaped (C0 controls, surrogates, U+FFFE/U+FFFF).
NOT_XML_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True)
class Series:
    """One named sequence of values, one value per x point (whole, or a line chart's decimals)."""

    name: str
    values: Sequence[float]


def esc(text: str) -> str:
    """Escape text for element content or a double-quoted attribute, dropping non-XML chars."""
    return escape(NOT_XML_CHAR.sub("", str(text)), quote=True)


def num(value: float) -> str:
    """Format a coordinate rounded to one decimal, without float noise or '-0'."""
    r = round(value, 1)
    if r == 0:
        return "0"
    if r == int(r):
        return str(int(r))
    return f"{r:.1f}"


def chart_id_of(chart_id: str | None, *parts: object) -> str:
    """Return the caller's id (validated) or a short id hashed from the chart's content."""
    if chart_id is not None:
        if not ID_RE.fullmatch(chart_id):
            raise ValueError(f"chart_id must match {ID_RE.pattern}: {chart_id!r}")
        return chart_id
    digest = hashlib.sha1(repr(parts).encode("utf-8")).hexdigest()[:10]
    return f"chart-{digest}"


def svg_open(cid: str, title: str, width: int, height: int, extra_class: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart {extra_class}" '
        f'viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-labelledby="{cid}-title" font-family="system-ui, sans-serif" '
        f'font-size="{FONT_SIZE}">',
        f'<title id="{cid}-title">{esc(title)}</title>',
    ]


def no_data(cid: str, title: str, width: int, height: int, kind: str) -> str:
    parts = svg_open(cid, title, width, height, f"{kind} chart-empty")
    parts.append(
        f'<text class="no-data" x="{num(width / 2)}" y="{num(height / 2)}" '
        f'text-anchor="middle" fill="currentColor">{esc(NO_DATA)}</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts)


def check_size(width: int, height: int) -> None:
    if width < 120 or height < 100:
        raise ValueError("charts need width >= 120 and height >= 100")


def series_attrs(index: int, colour: str, *classes: str) -> str:
    """A series' classes (`s0`..`s5`, which app.css recolours at night) and its day colour."""
    return f'class="{" ".join((*classes, f"s{index}"))}" color="{colour}"'


def marker(shape: int, x: float, y: float, tooltip: str) -> str:
    """One point marker in its series' colour; the shape varies so colour is not the only cue."""
    r = MARKER_R
    tip = f"<title>{esc(tooltip)}</title>" if tooltip else ""
    common = 'class="marker" fill="currentColor"'
    if shape == 0:
        return f'<circle {common} cx="{num(x)}" cy="{num(y)}" r="{num(r)}">{tip}</circle>'
    if shape == 1:
        return (
            f'<rect {common} x="{num(x - r)}" y="{num(y - r)}" '
            f'width="{num(2 * r)}" height="{num(2 * r)}">{tip}</rect>'
        )
    if shape == 5:
        return (
            f'<circle class="marker hollow" fill="none" stroke="currentColor" stroke-width="1.5" '
            f'cx="{num(x)}" cy="{num(y)}" r="{num(r)}">{tip}</circle>'
        )
    s = r * 1.3
    corners = {
        2: [(x, y - s), (x + s, y), (x, y + s), (x - s, y)],  # diamond
        3: [(x, y - s), (x + s, y + s * 0.8), (x - s, y + s * 0.8)],  # triangle up
        4: [(x, y + s), (x + s, y - s * 0.8), (x - s, y - s * 0.8)],  # triangle down
    }[shape]
    pts = " ".join(f"{num(px)},{num(py)}" for px, py in corners)
    return f'<polygon {common} points="{pts}">{tip}</polygon>'


def axes(
    axis_lo: int, axis_hi: int, step: int, left: float, right: float, to_y: Callable[[int], float]
) -> tuple[list[str], str]:
    """Grid lines with y tick labels, and the zero line (drawn separately, above the data)."""
    out = ['<g class="y-axis">']
    for tick in range(axis_lo, axis_hi + 1, step):
        y = num(to_y(tick))
        if tick != 0:
            out.append(
                f'<line class="grid" x1="{num(left)}" y1="{y}" x2="{num(right)}" y2="{y}" '
                f'stroke="currentColor" stroke-opacity="0.2" stroke-width="1"/>'
            )
        out.append(
            f'<text class="tick" x="{num(left - 6)}" y="{num(to_y(tick) + 4)}" '
            f'text-anchor="end" fill="currentColor">{esc(fmt(tick))}</text>'
        )
    out.append("</g>")
    y0 = num(to_y(0))
    zero = (
        f'<line class="zero-line" x1="{num(left)}" y1="{y0}" x2="{num(right)}" y2="{y0}" '
        f'stroke="currentColor" stroke-opacity="0.75" stroke-width="1.5"/>'
    )
    return out, zero


def x_labels(
    labels: list[str], xs: list[float], spacing: float, baseline: float, width: int
) -> list[str]:
    shown = [truncate(label, MAX_LABEL_CHARS * CHAR_W) for label in labels]
    label_w = max((text_width(s) for s in shown), default=0.0)
    out = ['<g class="x-axis">']
    drawn_to = -width  # the right end of the last label drawn
    for i in x_label_indices(len(labels), spacing, label_w):
        half = min(text_width(shown[i]) / 2, width / 2)
        x = min(max(xs[i], half + 1), width - half - 1)
        # A label pushed in from the chart's edge may reach its neighbour: left out, not overlaid.
        if x - half < drawn_to + 6:
            continue
        drawn_to = x + half
        out.append(
            f'<text class="x-label" x="{num(x)}" y="{num(baseline)}" text-anchor="middle" '
            f'fill="currentColor">{esc(shown[i])}</text>'
        )
    out.append("</g>")
    return out


def validate_series(labels: list[str], series: list[Series]) -> None:
    if len(series) > MAX_SERIES:
        raise ValueError(f"at most {MAX_SERIES} series are supported, got {len(series)}")
    for s in series:
        if len(s.values) != len(labels):
            raise ValueError(
                f"series {s.name!r} has {len(s.values)} values for {len(labels)} labels"
            )
