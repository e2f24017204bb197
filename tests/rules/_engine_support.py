"""Small builders shared by the rules-engine tests (no engine arithmetic in here)."""

from scorekeeper.rules import DealEntry, Side

NOTHING = DealEntry()


def teams(count=2, players=2):
    """Sides named A, B, C... each with the given number of players."""
    return [Side("ABCDEFGH"[i], players) for i in range(count)]


def clean(n, **more):
    """An entry holding n clean books and nothing else unless given."""
    return DealEntry(books={"clean": n}, **more)


LINES = ("books", "red_threes", "going_out", "cards", "extras", "moved", "total")


def lines(score):
    """The scored lines of a SideScore's breakdown, as a plain dict."""
    data = score.breakdown()
    return {name: data[name] for name in LINES}
