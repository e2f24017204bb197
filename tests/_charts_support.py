"""Reading the charts back in the chart tests (test_charts.py, test_bar_charts.py): the SVG's
elements, colours, coordinates and ticks, and the line chart's figures, which the table shows too.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from scorekeeper.web.svg_charts import Series

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


LABELS = ["Deal 1", "Deal 2", "Deal 3", "Deal 4"]
TEAMS = [Series("Us", [1200, 3400, 2900, 10250]), Series("Them", [-300, 800, 4100, 6000])]
