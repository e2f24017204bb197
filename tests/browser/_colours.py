"""Colours as the browser computes them, and WCAG's luminance and contrast of them: what the
night-mode, chart and paper checks compare."""

from __future__ import annotations

# The colour a page is drawn in, the background behind an element (the nearest ancestor's
# that is not transparent), and the root's colours, all as computed by the browser.
COLOURS = """(sel) => {
  const bg = (el) => {
    for (; el; el = el.parentElement) {
      const c = getComputedStyle(el).backgroundColor;
      if (c !== "rgba(0, 0, 0, 0)" && c !== "transparent") return c;
    }
    return "rgb(255, 255, 255)";
  };
  return [...document.querySelectorAll(sel)]
    .filter((el) => el.checkVisibility({ visibilityProperty: true }))
    .map((el) => {
      const s = getComputedStyle(el);
      return { what: el.outerHTML.slice(0, 90), tag: el.tagName.toLowerCase(),
               fill: s.fill, stroke: s.stroke, color: s.color, background: bg(el),
               decoration: s.textDecorationLine };
    });
}"""


def rgb(css: str) -> tuple[float, float, float]:
    """The channels (0-255) of a computed `rgb()`/`rgba()` colour."""
    assert css.startswith("rgb"), css
    return tuple(float(c) for c in css[css.index("(") + 1 : -1].split(",")[:3])


def luminance(css: str) -> float:
    """WCAG relative luminance."""
    lin = [
        c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        for c in (v / 255 for v in rgb(css))
    ]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
