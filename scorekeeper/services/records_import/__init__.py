"""Reading a deals file (as `records.export_deals` writes it) back into a club.

All or nothing: every row is read, every game checked again by the rules engine, and only then
is anything saved. A refusal names the line, the column and why. From the import page it runs
as a job (issue 39: `jobs.py`), which saves in batches once every game has passed.

rows       the rows gathered into games, sides and deals, each checked against its game
cells      one cell at a time: figures, yes or no, names, house rules
recording  the games added to the club, those it holds already skipped
report     what was added and skipped, in a sentence or two
refusals   ImportRefused: the line, the column and why
jobs       an import kept as a job (issue 39): the upload looked at quickly and kept, then
           read, checked and saved in batches off the request, its progress on its row
runner     the process's thread that runs jobs (or at once after the commit, in tests)
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator

from scorekeeper.plumbing.bodies import MAX_RECORDS_FILE
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
    "first_look",
    "import_deals",
    "read_games",
]

# The largest file read: its home is plumbing/bodies.py, where the upload's body limit is this
# and room for its form.
MAX_BYTES = MAX_RECORDS_FILE
MAX_ROWS = 200_000
# How often, in rows, reading a file tells its job how far it has come.
PROGRESS_ROWS = 500


def import_deals(club: Club, text: str) -> ImportReport:
    """Read an `export_deals` file into the club, all or nothing; ImportRefused says why not."""
    try:
        games = read_games(text)
        report = record_games(club, games)
    except Exception:
        db.session.rollback()
        raise
    db.session.commit()
    return report


def read_games(text: str, progress: Callable[[int], None] | None = None) -> list[FileGame]:
    """Every game in the file, each checked for consistency; nothing touches the database.

    `progress` is told, every `PROGRESS_ROWS` rows, how many of the file's games it has reached.
    """
    games: dict[str, FileGame] = {}
    for count, (start, cells) in enumerate(_rows(text), start=1):
        take_row(games, cells, start)
        if progress is not None and not count % PROGRESS_ROWS:
            progress(len(games))
    for game in games.values():
        check_game(game)
    return list(games.values())


def first_look(text: str) -> int:
    """How many games the file holds, or ImportRefused for what is wrong with its shape.

    What can be refused quickly, before the file is kept as a job: its size, a file that is not
    CSV, its header, too many rows, a row of the wrong length, a row of no game. Its cells and
    its games are read by the job (`read_games`).
    """
    refs: set[str] = set()
    for start, cells in _rows(text):
        ref = cells["game"].strip()
        if not ref:
            raise ImportRefused(start, "game", "Every row needs the game it belongs to.")
        refs.add(ref)
    return len(refs)


def _rows(text: str) -> Iterator[tuple[int, dict[str, str]]]:
    """Each row of deals with the line it starts on, the file's shape checked on the way."""
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise ImportRefused(
            1, None, f"The file is over {MAX_BYTES // 2**20} MB; split it into smaller files."
        )
    text = text.removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
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
            yield start, dict(zip(header, cells, strict=True))
    except csv.Error as exc:
        line = max(reader.line_num, 1)
        raise ImportRefused(line, None, f"This is not readable CSV: {exc}.") from exc
    if header is None:
        raise ImportRefused(1, None, "The file is empty: it needs a header and rows of deals.")
    if not rows:
        raise ImportRefused(2, None, "The file has a header but no rows of deals.")
