"""The README's examples, run as they are printed, against a live server.

"A club's own script": the code block is read from README.md, its three names at the top
(BASE_URL, CLUB, TABLE_CODE) set to a server this test starts (werkzeug, in a thread, on a fresh
database) and a club made here, and the script is run by the same Python as a program of its
own. "JSON API v1": its shell blocks, `server=` set to that server, run one after another in one
shell with curl, each taking the game's id and key from the answer before. If the API or the
README changes so that an example no longer works, this fails.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from conftest import app_of_its_own, serving

from scorekeeper.services import accounts, clubs

README = Path(__file__).resolve().parent.parent / "README.md"
HEADING = "## A club's own script"
API_HEADING = "## JSON API v1"
# Printed between two shell blocks' output, to tell their answers apart.
BETWEEN = "----- next block -----"
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


def blocks_in_readme(heading: str, language: str) -> list[str]:
    """Every code block of that language in the section under the heading, in order."""
    text = README.read_text(encoding="utf-8")
    assert heading in text, f"README.md has no section {heading!r}"
    section = re.split(r"^## ", text.split(heading, 1)[1], maxsplit=1, flags=re.M)[0]
    return re.findall(rf"^```{language}\n(.*?)^```$", section, re.S | re.M)


def with_shell_settings(script: str, **settings: str) -> str:
    """The shell script with each `name=...` line set to the given value."""
    for name, value in settings.items():
        line = f"{name}={shlex.quote(value)}"
        script, made = re.subn(rf"^{name}=.*$", lambda _, line=line: line, script, flags=re.M)
        assert made == 1, f"the script sets {name} {made} times, not once"
    return script


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
        with serving(app) as server:
            yield f"http://127.0.0.1:{server.server_port}", code


def call_api(base_url: str, path: str, body: dict) -> dict:
    """POST a JSON body to the server; its JSON answer."""
    request = urllib.request.Request(
        base_url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


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


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl not installed")
def test_the_readme_api_example_plays_the_game_it_started(served, tmp_path):
    """Each call takes the game's id and key from the answer before, as the README shows."""
    base_url, _ = served
    # Another table's game first: the README's is not game 1, and its key opens no other.
    other = {"ruleset": "club", "sides": [{"name": "Cat"}, {"name": "Dan"}]}
    call_api(base_url, "/api/v1/games", other)
    started, read, line = blocks_in_readme(API_HEADING, "sh")
    started = with_shell_settings(started, server=base_url)
    script = f"\necho '{BETWEEN}'\n".join((started, read, line))
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    dealt, state, parts = (json.loads(answer) for answer in done.stdout.split(BETWEEN))
    # Club rules: 2×500 + 2×300 + out 100 + 400 = 2,100; 500 + 200 − 60 = 640.
    assert [side["total"] for side in dealt.get("sides", [])] == [2100, 640], dealt
    assert state == dealt
    # The answer the README prints for Bob's line, as it prints it.
    shown = json.loads(blocks_in_readme(API_HEADING, "json")[0])
    assert parts == shown
