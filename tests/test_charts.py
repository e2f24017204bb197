"""Line charts: well-formed inline SVG with escaped text, sane axes and geometry.

Bar charts, the data table and the property tests are in test_bar_charts.py.
"""

from __future__ import annotations

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
    viewbox,
    zero_y,
)

from scorekeeper.web.svg_charts import PALETTE, Series, bar_chart, chart_table, line_chart

# --- line chart ----------------------------------------------------------------------------------


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
