"""How a figure that is not whole (an average, a rate) is rounded wherever it is shown: the one
rule of the page, the board, the API and the CSV files.

Halves go up, away from zero, as a score sheet rounds them and as a spreadsheet's ROUND does:
an average of 2,512.5 is 2,513 (Python's `round` would say 2,512: it sends halves to the even
figure), −2,512.5 is −2,513. Rounded once, from the exact figure (a `Fraction` of whole
points), never from a figure rounded already. Pure Python, like the rest of the engine.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

# What may be rounded: whole points, an exact fraction of them, or a float. A float is taken at
# its exact binary value: one made by dividing whole figures below 2**52 (a total by its
# games) lies nearer its true value than any half does, so it rounds to the whole as the
# fraction would; to decimals, give the fraction (0.15 as a float is 0.1499...).
Figure = int | Fraction | float

# The words a page or a document says the rule in.
RULE = "Averages are rounded to the whole point, halves up (2,512.5 is 2,513)."


def per(part: int, of: int) -> int:
    """`part` over `of` (not 0) to the whole, halves up, in whole numbers only (a standings
    page rounds a thousand lines): 10,050 over 4 is 2,513."""
    if of < 0:
        part, of = -part, -of
    nearest = (2 * abs(part) + of) // (2 * of)
    return -nearest if part < 0 else nearest


def whole(value: Figure) -> int:
    """`value` to the whole point, halves up: 2,512.5 is 2,513, 2,513.5 is 2,514."""
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        # In float arithmetic, which is exact here (a float of 1 or more less its floor loses
        # nothing, by Sterbenz's lemma): a page of standings shows two averages a line, a
        # thousand lines, and a Fraction of each would take as long again as the page's row.
        size = abs(value)
        below = math.floor(size)
        nearest = below + 1 if size - below >= 0.5 else below
        return -nearest if value < 0 else nearest
    return per(value.numerator, value.denominator)


def to_places(value: Figure, places: int) -> Decimal:
    """`value` to `places` decimals, halves up: 12.25 to one decimal is 12.3 (as "12.3")."""
    exact = Fraction(value) * 10**places
    scaled = per(exact.numerator, exact.denominator)
    return (Decimal(scaled) / 10**places).quantize(Decimal(1).scaleb(-places))


def average(points: int, games: int) -> int | None:
    """Points per game to the whole point, halves up; None with no game."""
    return per(points, games) if games else None


def ratio(part: int, whole_of: int, places: int) -> Decimal:
    """`part` over `whole_of` to `places` decimals, halves up; 0 when `whole_of` is 0."""
    return to_places(Fraction(part, whole_of) if whole_of else 0, places)
