"""Charts: well-formed inline SVG with escaped text, sane axes and geometry, plus a data table."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.web.svg_charts import PALETTE, Series, bar_chart, chart_table, line_chart

NS = "{http://www.w3.org/2000/svg}"
EVIL = '<b>&"x'
# A tick's figure as every page shows one: a true minus sign (−), thousands grouped.
ROUND_TICK = re.compile(r"−?[1-9]\d{0,2}(,\d{3})*|0")


def parse(svg: str) -> ET.Element:
    assert svg.startswith("<svg")
    return ET.fromstring(svg)


def find_all(root: ET.Element, tag: str, cls: str | None = None) -> list[ET.Element]:
    return [
        el for el in root.iter(NS + tag) if cls is None or cls in (el.get("class") or "").split()
    ]


def colour(root: ET.Element, el: ET.Element) -> str:
    """The day colour an element is drawn in: its own `color`, or the nearest group's."""
    parents = {child: parent for parent in root.iter() for child in parent}
    while el.get("color") is None:
        el = parents[el]
    return el.get("color")


def points(polyline: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in polyline.get("points").split()]


def viewbox(root: ET.Element) -> tuple[float, float]:
    x0, y0, w, h = map(float, root.get("viewBox").split())
    assert (x0, y0) == (0, 0)
    return w, h


def all_coordinates(root: ET.Element) -> list[tuple[str, float, str]]:
    """Every (axis, value, raw) coordinate in the drawing, rect extents included."""
    coords: list[tuple[str, float, str]] = []
    for el in root.iter():
        for attr in ("x", "cx", "x1", "x2"):
            if el.get(attr) is not None:
                coords.append(("x", float(el.get(attr)), el.get(attr)))
        for attr in ("y", "cy", "y1", "y2"):
            if el.get(attr) is not None:
                coords.append(("y", float(el.get(attr)), el.get(attr)))
        if el.tag == NS + "rect":
            x, y = float(el.get("x")), float(el.get("y"))
            w, h = float(el.get("width")), float(el.get("height"))
            assert w >= 0 and h >= 0
            coords += [("x", x + w, el.get("width")), ("y", y + h, el.get("height"))]
        if el.tag == NS + "circle":
            cx, cy, r = float(el.get("cx")), float(el.get("cy")), float(el.get("r"))
            coords += [("x", cx - r, ""), ("x", cx + r, ""), ("y", cy - r, ""), ("y", cy + r, "")]
        if el.get("points"):
            for raw in el.get("points").split():
                px, py = raw.split(",")
                coords += [("x", float(px), px), ("y", float(py), py)]
    return coords


def assert_inside_viewbox(root: ET.Element) -> None:
    w, h = viewbox(root)
    for axis, value, raw in all_coordinates(root):
        limit = w if axis == "x" else h
        assert 0 <= value <= limit, (axis, value)
        # At most one decimal: no float noise like 12.300000000000001.
        assert re.fullmatch(r"-?\d+(\.\d)?|", raw), raw


def texts(root: ET.Element, cls: str) -> list[str]:
    return ["".join(el.itertext()) for el in find_all(root, "text", cls)]


def tick_values(root: ET.Element) -> list[int]:
    labels = texts(root, "tick")
    for label in labels:
        assert ROUND_TICK.fullmatch(label), label
    return [int(label.replace(",", "").replace("−", "-")) for label in labels]


def assert_round_ticks(root: ET.Element) -> None:
    values = tick_values(root)
    assert 0 in values
    assert values == sorted(values)
    steps = {b - a for a, b in zip(values, values[1:], strict=False)}
    assert len(steps) == 1
    step = steps.pop()
    mantissa = step
    while mantissa % 10 == 0:
        mantissa //= 10
    assert mantissa in (1, 2, 5), step


def zero_y(root: ET.Element) -> float:
    (zero,) = find_all(root, "line", "zero-line")
    assert zero.get("y1") == zero.get("y2")
    return float(zero.get("y1"))


# --- line chart ----------------------------------------------------------------------------------

LABELS = ["Deal 1", "Deal 2", "Deal 3", "Deal 4"]
TEAMS = [Series("Us", [1200, 3400, 2900, 10250]), Series("Them", [-300, 800, 4100, 6000])]


def test_line_chart_svg_root_attributes():
    root = parse(line_chart("Running totals", LABELS, TEAMS))
    assert root.tag == NS + "svg"
    assert root.get("viewBox") == "0 0 360 220"
    assert root.get("width") == "100%"
    assert root.get("role") == "img"
    title_id = root.get("aria-labelledby")
    (title,) = [el for el in root.iter(NS + "title") if el.get("id") == title_id]
    assert title.text == "Running totals"
    assert root.find(NS + "title") is title  # the accessible name comes first


def test_custom_size_and_chart_id():
    root = parse(line_chart("T", LABELS, TEAMS, width=600, height=300, chart_id="game-7"))
    assert root.get("viewBox") == "0 0 600 300"
    assert root.get("aria-labelledby") == "game-7-title"
    with pytest.raises(ValueError):
        line_chart("T", LABELS, TEAMS, chart_id='x" onload="alert(1)')


def test_chart_ids_differ_between_charts_and_are_stable():
    a = parse(line_chart("A", LABELS, TEAMS)).get("aria-labelledby")
    b = parse(line_chart("B", LABELS, TEAMS)).get("aria-labelledby")
    c = parse(bar_chart("A", LABELS, [1, 2, 3, 4])).get("aria-labelledby")
    assert len({a, b, c}) == 3
    assert parse(line_chart("A", LABELS, TEAMS)).get("aria-labelledby") == a


def test_one_polyline_per_series_with_a_point_per_label_left_to_right():
    root = parse(line_chart("T", LABELS, TEAMS))
    lines = find_all(root, "polyline", "line")
    assert len(lines) == len(TEAMS)
    assert {line.get("stroke") for line in lines} == {"currentColor"}
    colours = [colour(root, line) for line in lines]
    assert colours == list(PALETTE[: len(TEAMS)])
    # Each series has its class, which the stylesheet recolours for night mode.
    assert [g.get("class") for g in find_all(root, "g", "series")] == ["series s0", "series s1"]
    for line in lines:
        pts = points(line)
        assert len(pts) == len(LABELS)
        xs = [x for x, _ in pts]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
    # The same x positions for every series.
    assert [x for x, _ in points(lines[0])] == [x for x, _ in points(lines[1])]


def test_higher_value_is_drawn_higher_and_zero_line_between():
    root = parse(line_chart("T", LABELS, TEAMS))
    them = points(find_all(root, "polyline", "line")[1])
    ys = [y for _, y in them]  # values -300, 800, 4100, 6000
    assert ys[0] > ys[1] > ys[2] > ys[3]
    assert ys[1] < zero_y(root) < ys[0]


def test_markers_on_every_point():
    root = parse(line_chart("T", LABELS, TEAMS))
    for group in find_all(root, "g", "series"):
        markers = [el for el in group if "marker" in (el.get("class") or "")]
        assert len(markers) == len(LABELS)


def test_six_series_distinct_colours_and_contrast():
    six = [Series(f"Player number {i}", [i * 100, i * 200]) for i in range(6)]
    root = parse(line_chart("T", ["Deal 1", "Deal 2"], six))
    colours = [colour(root, line) for line in find_all(root, "polyline", "line")]
    assert len(set(colours)) == 6

    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    for day in colours:
        assert (1.05) / (luminance(day) + 0.05) >= 3
    with pytest.raises(ValueError):
        line_chart("T", ["a"], [Series(str(i), [i]) for i in range(7)])


def test_legend_has_every_name_and_wraps_inside_viewbox():
    names = ["Alexandra Featherstonehaugh", "Bartholomew", "Cy", "Dorothea Q.", "Ed", "Fitz"]
    series = [Series(name, [i, i + 1]) for i, name in enumerate(names)]
    root = parse(line_chart("T", ["Deal 1", "Deal 2"], series))
    legend = texts(root, "legend-label")
    assert legend == names
    label_ys = {float(el.get("y")) for el in find_all(root, "text", "legend-label")}
    assert len(label_ys) > 1  # wrapped onto more than one row
    w, _ = viewbox(root)
    for el in find_all(root, "text", "legend-label"):
        estimated_end = float(el.get("x")) + 6.6 * len(el.text)
        assert estimated_end <= w
    assert_inside_viewbox(root)


def test_very_long_legend_name_is_truncated_not_overflowing():
    root = parse(line_chart("T", ["a"], [Series("W" * 200, [5])]))
    (label,) = find_all(root, "text", "legend-label")
    assert label.text.endswith("…") and len(label.text) < 200
    assert float(label.get("x")) + 6.6 * len(label.text) <= viewbox(root)[0]


def test_text_is_escaped_and_round_trips():
    svg = line_chart(EVIL, [EVIL, "Deal 2"], [Series(EVIL, [1, 2])])
    assert "<b>" not in svg and "<script" not in svg
    root = parse(svg)
    assert not [el for el in root.iter() if el.tag in ("b", NS + "b")]
    assert root.find(NS + "title").text == EVIL
    assert texts(root, "legend-label") == [EVIL]
    assert EVIL in texts(root, "x-label")
    marker_tips = [el.text for el in root.iter(NS + "title") if el.text and "Deal 2" in el.text]
    assert marker_tips == [f"{EVIL}, Deal 2: 2"]


def test_control_characters_are_dropped_so_the_svg_stays_well_formed():
    name = "Bad\x00\x08\x1bName\ufffe"
    root = parse(line_chart(name, ["Deal\x0c 1"], [Series(name, [3])]))
    assert texts(root, "legend-label") == ["BadName"]
    assert texts(root, "x-label") == ["Deal 1"]
    ET.fromstring(chart_table(name, ["a"], [Series(name, [1])]))


def test_script_in_names_stays_text():
    name = "<script>alert('x')</script>"
    svg = line_chart(name, [name], [Series(name, [1])]) + bar_chart(name, [name], [1])
    assert "<script" not in svg
    assert "&lt;script&gt;" in svg


def test_y_ticks_are_round_with_thousands_separators():
    root = parse(line_chart("T", LABELS, TEAMS))
    assert_round_ticks(root)
    labels = texts(root, "tick")
    assert "10,000" in labels or "12,000" in labels
    values = tick_values(root)
    assert all("," in label for label, v in zip(labels, values, strict=True) if abs(v) >= 1000)
    assert values[0] <= -300 and values[-1] >= 10250


def test_negative_only_data():
    root = parse(line_chart("T", ["a", "b"], [Series("S", [-4500, -120])]))
    assert_round_ticks(root)
    assert max(tick_values(root)) == 0
    ys = [y for _, y in points(find_all(root, "polyline", "line")[0])]
    assert zero_y(root) < ys[1] < ys[0]
    assert_inside_viewbox(root)


def test_all_zero_data():
    root = parse(line_chart("T", LABELS, [Series("S", [0, 0, 0, 0])]))
    assert_round_ticks(root)
    ys = {y for _, y in points(find_all(root, "polyline", "line")[0])}
    assert ys == {zero_y(root)}
    assert_inside_viewbox(root)


def test_single_point():
    root = parse(line_chart("T", ["Deal 1"], [Series("A", [540]), Series("B", [-60])]))
    lines = find_all(root, "polyline", "line")
    assert [len(points(line)) for line in lines] == [1, 1]
    assert points(lines[0])[0][1] < zero_y(root) < points(lines[1])[0][1]
    assert texts(root, "x-label") == ["Deal 1"]
    assert_inside_viewbox(root)


@pytest.mark.parametrize(
    ("labels", "series"),
    [([], []), ([], [Series("A", [])]), (["Deal 1"], []), ([], [Series("A", []), Series("B", [])])],
)
def test_empty_line_chart_says_no_data(labels, series):
    root = parse(line_chart("Nothing <here>", labels, series))
    assert texts(root, "no-data") == ["No data yet"]
    assert root.find(NS + "title").text == "Nothing <here>"
    assert not find_all(root, "polyline")
    assert_inside_viewbox(root)


def test_mismatched_lengths_raise():
    with pytest.raises(ValueError):
        line_chart("T", ["a", "b"], [Series("S", [1])])
    with pytest.raises(ValueError):
        bar_chart("T", ["a", "b"], [1])
    with pytest.raises(ValueError):
        bar_chart("T", ["a"], [1], highlight=[True, False])
    with pytest.raises(ValueError):
        chart_table("T", ["a", "b"], [Series("S", [1])])


def test_many_x_labels_are_thinned_and_do_not_overlap():
    labels = [f"Deal {i}" for i in range(1, 41)]
    root = parse(line_chart("T", labels, [Series("S", list(range(40)))]))
    shown = find_all(root, "text", "x-label")
    assert 2 <= len(shown) < 40
    assert shown[0].text == "Deal 1"
    xs = [float(el.get("x")) for el in shown]
    widths = [6.6 * len(el.text) for el in shown]
    for i in range(len(xs) - 1):
        assert xs[i] + widths[i] / 2 < xs[i + 1] - widths[i + 1] / 2
    assert_inside_viewbox(root)


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


def test_line_chart_with_decimals_marks_each_point_to_them_on_a_whole_axis():
    """A rating's line: points read 12.3 and −0.4, the axis in whole numbers around them."""
    svg = line_chart("Rating", ["a", "b", "c"], [Series("Rating", [-0.4, 2.46, 12.3])], decimals=1)
    root = parse(svg)
    assert_inside_viewbox(root)
    assert_round_ticks(root)
    tips = [el.text for el in root.iter(f"{NS}title")][1:]
    assert tips == ["Rating, a: \u22120.4", "Rating, b: 2.5", "Rating, c: 12.3"]
    ticks = tick_values(root)
    assert min(ticks) <= -1 and max(ticks) >= 13
