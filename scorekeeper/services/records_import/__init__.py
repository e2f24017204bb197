"""Reading a deals file (as `records.export_deals` writes it) back into a club.

All or nothing: every row is read, every game checked again by the rules engine, and only then
is anything saved. A refusal names the line, the column and why.

rows       the rows gathered into games, sides and deals, each checked against its game
cells      one cell at a time: figures, yes or no, names, house rules
recording  the games added to the club, those it holds already skipped
report     what was added and skipped, in a sentence or two
refusals   ImportRefused: the line, the column and why
"""

from __future__ import annotations

import csv
import io

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club
from scorekeeper.services.records_import.cells import entry_from_cells
from scorekeeper.services.records_import.recording import record_games
from scorekeeper.services.records_import.refusals import ImportRefused
from scorekeeper.services.records_import.report import ImportReport, SkippedGame
from scorekeeper.services.records_import.rows import FileGame, check_game, read_header, take_row

__all__ = [
    "MAX_BYTES",
    "MAX_ROWS",
    "ImportRefused",
    "ImportReport",
    "SkippedGame",
    "entry_from_cells",
    "import_deals",
]

MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 200_000


def import_deals(club: Club, text: str) -> ImportReport:
    """Read an `export_deals` file into the club, all or nothing; ImportRefused says why not."""
    try:
        games = _read(text)
        report = record_games(club, games)
    except Exception:
        db.session.rollback()
        raise
    db.session.commit()
    return report


def _read(text: str) -> list[FileGame]:
    """Every game in the file, each checked for consistency; nothing touches the database."""
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise ImportRefused(
            1, None, f"The file is over {MAX_BYTES // 2**20} MB; split it into smaller files."
        )
    text = text.removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
    games: dict[str, FileGame] = {}
    read, rows = 0, 0
    try:
        for cells in reader:
            start, read = read + 1, reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if header is None:
                header = read_header(cells, start)
                continue
            rows += 1
            if rows > MAX_ROWS:
                raise ImportRefused(start, None, f"The file has over {MAX_ROWS:,} rows.")
            if len(cells) != len(header):
                raise ImportRefused(
                    start, None, f"This row has {len(cells)} cells; the header has {len(header)}."
                )
            take_row(games, dict(zip(header, cells, strict=True)), start)
    except csv.Error as exc:
        line = max(reader.line_num, 1)
        raise ImportRefused(line, None, f"This is not readable CSV: {exc}.") from exc
    if header is None:
        raise ImportRefused(1, None, "The file is empty: it needs a header and rows of deals.")
    if not games:
        raise ImportRefused(2, None, "The file has a header but no rows of deals.")
    for game in games.values():
        check_game(game)
    return list(games.values())
