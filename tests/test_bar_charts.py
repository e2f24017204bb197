"""Bar charts and the charts' data table; property tests of both charts' geometry.

The SVG is read back with _charts_support.py, as in test_charts.py (the line charts).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from _charts_support import (
    EVIL,
    LABELS,
    NS,
    TEAMS,
    assert_inside_viewbox,
    assert_round_ticks,
    colour,
    find_all,
    parse,
    points,
    texts,
    tick_values,
    zero_y,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.web.svg_charts import Series, bar_chart, chart_table, line_chart

# --- bar chart -----------------------------------------------------------------------------------

GAMES = ["Mar 1", "Mar 8", "Mar 15", "Mar 22"]
SCORES = [8450, -1200, 15020, 0]


def test_bar_chart_root_and_one_bar_per_label():
    root = parse(bar_chart("Final scores", GAMES, SCORES))
    assert root.get("viewBox") == "0 0 360 200"
    assert root.get("width") == "100%" and root.get("role") == "img"
    assert root.find(NS + "title").text == "Final scores"
    bars = find_all(root, "rect", "bar")
    assert [int(bar.get("data-value")) for bar in bars] == SCORES
    xs = [float(bar.get("x")) for bar in bars]
    assert xs == sorted(xs)
    assert texts(root, "x-label") == GAMES
    assert_round_ticks(root)
    assert_inside_viewbox(root)


def test_zero_line_sits_between_positive_and_negative_bars():
    root = parse(bar_chart("T", GAMES, SCORES))
    y0 = zero_y(root)
    for bar in find_all(root, "rect", "bar"):
        value = int(bar.get("data-value"))
        top, height = float(bar.get("y")), float(bar.get("height"))
        if value > 0:
            assert top + height == pytest.approx(y0) and top < y0
        elif value < 0:
            assert top == y0 and top + height > y0
        else:
            assert height == 0 and top == y0
    heights = {
        int(b.get("data-value")): float(b.get("height"))
        for b in find_all(root, "rect")
        if b.get("data-value")
    }
    assert heights[15020] > heights[8450] > heights[-1200]


def test_highlighted_bars_use_second_colour_and_legend():
    root = parse(bar_chart("T", GAMES, SCORES, highlight=[True, False, True, False]))
    bars = find_all(root, "rect", "bar")
    fills = [colour(root, bar) for bar in bars]
    assert fills[0] == fills[2] != fills[1] == fills[3]
    assert ["highlight" in bar.get("class") for bar in bars] == [True, False, True, False]
    assert texts(root, "legend-label") == ["Win"]
    plain = parse(bar_chart("T", GAMES, SCORES))
    assert not texts(plain, "legend-label")
    assert len({colour(plain, bar) for bar in find_all(plain, "rect", "bar")}) == 1


def test_no_fixed_colour_but_the_series_day_colours():
    """Text, grid and zero line follow the page's text colour, so night mode keeps them."""
    for svg in (
        line_chart("T", LABELS, TEAMS),
        bar_chart("T", GAMES, SCORES, highlight=[True] * 4),
    ):
        for el in parse(svg).iter():
            for attr in ("fill", "stroke"):
                assert el.get(attr) in (None, "none", "currentColor"), ET.tostring(el)
            if el.get("color") is not None:
                assert re.search(r"\bs[0-5]\b", el.get("class")), ET.tostring(el)


def test_bar_chart_escapes_labels():
    svg = bar_chart(EVIL, [EVIL], [5], highlight=[True], highlight_label=EVIL)
    assert "<b>" not in svg
    root = parse(svg)
    assert root.find(NS + "title").text == EVIL
    assert texts(root, "x-label") == [EVIL]
    assert texts(root, "legend-label") == [EVIL]


def test_bar_chart_empty_and_all_zero():
    root = parse(bar_chart("T", [], []))
    assert texts(root, "no-data") == ["No data yet"]
    root = parse(bar_chart("T", ["a", "b"], [0, 0]))
    assert_round_ticks(root)
    assert {float(b.get("height")) for b in find_all(root, "rect", "bar")} == {0.0}
    assert_inside_viewbox(root)


# --- table ---------------------------------------------------------------------------------------


def test_table_carries_the_same_figures():
    html = chart_table("Running totals", LABELS, TEAMS)
    root = ET.fromstring(html)
    assert root.tag == "table"
    assert root.find("caption").text == "Running totals"
    cols = root.findall("./thead/tr/th")
    assert [th.get("scope") for th in cols] == ["col", "col"]
    assert [th.text for th in cols] == ["Us", "Them"]
    rows = root.findall("./tbody/tr")
    assert [row.find("th").text for row in rows] == LABELS
    assert all(row.find("th").get("scope") == "row" for row in rows)
    cells = [[td.text for td in row.findall("td")] for row in rows]
    assert cells[3] == ["10,250", "6,000"]
    assert cells[0] == ["1,200", "−300"]
    for i, series in enumerate(TEAMS):
        assert [int(row[i].replace(",", "").replace("−", "-")) for row in cells] == series.values


def test_table_escapes_and_handles_empty():
    html = chart_table(EVIL, [EVIL], [Series(EVIL, [1])])
    assert "<b>" not in html
    root = ET.fromstring(html)
    assert root.find("caption").text == EVIL
    assert root.find("./thead/tr/th").text == EVIL
    assert root.find("./tbody/tr/th").text == EVIL
    empty = ET.fromstring(chart_table("T", [], []))
    assert "No data yet" in "".join(empty.itertext())


# --- property ------------------------------------------------------------------------------------

value = st.integers(min_value=-5000, max_value=20000)


@st.composite
def chart_data(draw):
    n = draw(st.integers(min_value=1, max_value=40))
    k = draw(st.integers(min_value=1, max_value=6))
    names = draw(st.lists(st.text(max_size=30), min_size=k, max_size=k))
    series = [Series(name, draw(st.lists(value, min_size=n, max_size=n))) for name in names]
    return [f"Deal {i + 1}" for i in range(n)], series


@settings(max_examples=150, deadline=None)
@given(chart_data())
def test_property_line_chart_geometry(data):
    labels, series = data
    root = parse(line_chart("Random", labels, series))
    assert_inside_viewbox(root)
    assert_round_ticks(root)
    lines = find_all(root, "polyline", "line")
    assert len(lines) == len(series)
    ticks = tick_values(root)
    span = ticks[-1] - ticks[0]
    pairs = [
        (v, y)
        for s, line in zip(series, lines, strict=True)
        for v, (_, y) in zip(s.values, points(line), strict=True)
    ]
    ys_by_tick = [float(el.get("y")) - 4 for el in find_all(root, "text", "tick")]
    px_per_unit = (ys_by_tick[0] - ys_by_tick[-1]) / span
    for line in lines:
        pts = points(line)
        assert len(pts) == len(labels)
        xs = [x for x, _ in pts]
        assert xs == sorted(xs)
    # Vertical order matches value order across all points of all series. Coordinates are
    # rounded to 0.1 px, so values closer than that may share a y; clear gaps must show.
    pairs.sort()
    for (v1, y1), (v2, y2) in zip(pairs, pairs[1:], strict=False):
        if v1 == v2:
            assert y1 == y2
        else:
            assert y2 <= y1
            if (v2 - v1) * px_per_unit >= 0.2:
                assert y2 < y1


@settings(max_examples=100, deadline=None)
@given(st.lists(value, min_size=1, max_size=40), st.data())
def test_property_bar_chart_geometry(values, data):
    labels = [f"Game {i}" for i in range(len(values))]
    flags = data.draw(st.lists(st.booleans(), min_size=len(values), max_size=len(values)))
    root = parse(bar_chart("Random", labels, values, highlight=flags))
    assert_inside_viewbox(root)
    assert_round_ticks(root)
    y0 = zero_y(root)
    bars = find_all(root, "rect", "bar")
    assert len(bars) == len(values)
    tops = []
    for bar, v in zip(bars, values, strict=True):
        top, height = float(bar.get("y")), float(bar.get("height"))
        if v >= 0:
            assert top + height == pytest.approx(y0)
        else:
            assert top == y0
        tops.append((v, top if v >= 0 else top + height))
    tops.sort()
    for (_, y1), (_, y2) in zip(tops, tops[1:], strict=False):
        assert y2 <= y1
