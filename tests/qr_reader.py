"""QR codes read back: a QR code picture's modules from its SVG path, and what a QR code of a
link holds as segno makes it. Shared by the tests of every picture inviting the table
(tests/test_private_link_secrets.py, tests/test_invite_qr.py, tests/test_table_card.py,
tests/test_night_links.py, tests/browser/test_table_link_sharing.py).
"""

from __future__ import annotations

import re

import segno


def read_qr(svg: bytes) -> tuple[list[list[bool]], int]:
    """A QR code picture's modules (True: dark), read back from its path, and its quiet zone.

    segno draws each row's dark runs as `h` strokes one module high, moving with `M`/`m`.
    """
    text = svg.decode()
    width, height = map(int, re.search(r'viewBox="0 0 (\d+) (\d+)"', text).groups())
    assert width == height, text[:120]
    drawn = re.findall(r'<path stroke="#000" d="([^"]+)"', text)
    assert len(drawn) == 1, text[:200]
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for command, a, b in re.findall(r"([MmHh])(-?[\d.]+)(?: (-?[\d.]+))?", drawn[0]):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            run = float(a) if command == "h" else float(a) - x
            dark.update((int(y - 0.5), int(x) + i) for i in range(int(run)))
            x += run
    rows = sorted({r for r, _ in dark})
    cols = sorted({c for _, c in dark})
    border = min(rows[0], cols[0])
    size = width - 2 * border
    assert rows[-1] == cols[-1] == border + size - 1, "the code is not centred in its ground"
    modules = [[(border + r, border + c) in dark for c in range(size)] for r in range(size)]
    return modules, border


def matrix_of(link: str) -> list[list[bool]]:
    """What a QR code of the link holds, as segno makes it (error level M, as the app asks)."""
    code = segno.make(link, error="m", micro=False)
    return [[bool(m) for m in row] for row in code.matrix]
