"""The README's "A club's own script", run as it is printed, against a live server.

The code block is read from README.md, its three names at the top (BASE_URL, CLUB, TABLE_CODE)
set to a server this test starts (werkzeug, in a thread, on a fresh database) and a club made
here, and the script is run by the same Python as a program of its own. If the API or the
README changes so that the example no longer works, this fails.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import app_of_its_own
from werkzeug.serving import make_server

from scorekeeper import accounts, clubs

README = Path(__file__).resolve().parent.parent / "README.md"
HEADING = "## A club's own script"
SLUG = "tuesday-club"
MEMBERS = ("Ann", "Bob", "Cat", "Dan")

pytestmark = pytest.mark.usefixtures("quick_hashing")


def script_in_readme() -> str:
    """The first Python block under the section's heading."""
    text = README.read_text(encoding="utf-8")
    assert HEADING in text, f"README.md has no section {HEADING!r}"
    found = re.search(r"^```python\n(.*?)^```$", text.split(HEADING, 1)[1], re.S | re.M)
    assert found, f"no ```python block under {HEADING!r}"
    return found.group(1)


def with_settings(script: str, **settings: str) -> str:
    """The script with each `NAME = ...` line at its top set to the given value."""
    for name, value in settings.items():
        script, made = re.subn(rf"^{name} = .*$", f"{name} = {value!r}", script, flags=re.M)
        assert made == 1, f"the script sets {name} {made} times, not once"
    return script


@pytest.fixture
def served(tmp_path, databases):
    """A live server of a fresh app, with a private club of four members: (url, table code)."""
    for app in app_of_its_own(tmp_path, databases):
        with app.app_context():
            organiser = accounts.register("organiser", "a long club password")
            club = clubs.create_club("Tuesday club", SLUG, organiser, public=False)
            for name in MEMBERS:
                clubs.add_member(club, name)
            code = club.table_code
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_port}", code
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=10)


def run(script: str, folder: Path) -> subprocess.CompletedProcess[str]:
    path = folder / "club_script.py"
    path.write_text(script, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=120, cwd=folder
    )


def test_the_readme_script_plays_a_club_game_and_reads_the_standings(served, tmp_path):
    base_url, code = served
    script = with_settings(script_in_readme(), BASE_URL=base_url, CLUB=SLUG, TABLE_CODE=code)
    done = run(script, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    printed = done.stdout
    assert f"Started {base_url}/t/" in printed
    # 2×500 + 2×300 + 1500 + out 100 + 400 = 3,600; 500 + 200 − 60 = 640
    assert "Ann & Bob: 3,600" in printed and "Cat & Dan: 640" in printed
    assert "Won by Ann & Bob" in printed
    assert "Going out earned 100" in printed
    for name in MEMBERS:
        won = 1 if name in ("Ann", "Bob") else 0
        assert f"{name}: 1 played, {won} won" in printed, printed


def test_the_readme_script_says_why_it_was_refused(served, tmp_path):
    """With a wrong table code a private club is not found: the script says so and stops."""
    base_url, _ = served
    script = with_settings(script_in_readme(), BASE_URL=base_url, CLUB=SLUG, TABLE_CODE="wrong")
    done = run(script, tmp_path)
    assert done.returncode == 1
    assert done.stdout.startswith("404: "), done.stdout + done.stderr
    assert "(at -)" in done.stdout
