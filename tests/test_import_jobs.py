"""A club's records imported as a job (issue 39): the upload answered at once with the job's
page, its progress while it runs, then its report; refusals in their words; organisers only."""

from __future__ import annotations

import io
import re
import threading

import pytest
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.services import clubs, demo, records
from scorekeeper.services.records_import import runner, work

pytestmark = pytest.mark.usefixtures("quick_hashing")

PASSWORD = "Kept-for-records-9"
GAMES = 10
JOB = re.compile(r"^/clubs/thursday/import/(\d+)$")


@pytest.fixture
def exported(app) -> str:
    """The deals file of a demo club of `GAMES` finished games."""
    with app.app_context():
        return records.export_deals(demo.fill_demo("demo", games=GAMES))


@pytest.fixture
def vera(app, client):
    """Vera, signed in, and her public club "thursday"."""
    assert (
        client.post("/signup", data={"username": "vera", "password": PASSWORD}).status_code == 302
    )
    made = client.post("/clubs/new", data={"name": "Thursday Club", "slug": "thursday"})
    assert made.status_code == 302
    with app.app_context():
        club = clubs.club_by_slug("thursday")
        club.standings_public = True
        db.session.commit()
    return client


def upload(client, content: str, slug: str = "thursday"):
    file = {"file": (io.BytesIO(content.encode()), "deals.csv")}
    return client.post(f"/clubs/{slug}/import", data=file, content_type="multipart/form-data")


def games_in(app, slug: str = "thursday") -> int:
    with app.app_context():
        club = clubs.club_by_slug(slug)
        return db.session.execute(
            select(func.count()).select_from(Game).where(Game.club_id == club.id)
        ).scalar_one()


def test_the_upload_is_answered_at_once_with_its_page_then_its_report(app, vera, exported):
    app.config["IMPORT_JOBS"] = "off"  # kept, and run by nobody until the runner below
    answer = upload(vera, exported)
    assert answer.status_code == 302
    assert JOB.match(answer.location), answer.location
    assert games_in(app) == 0
    page = vera.get(answer.location)
    assert page.status_code == 200
    assert f'<progress max="{3 * GAMES}" value="0"' in page.text
    assert f"Waiting to start: {GAMES} games in the file." in page.text
    assert 'src="/static/import_job.js' in page.text
    state = vera.get(answer.location + "/progress").get_json()
    assert state == {
        "state": "waiting",
        "value": 0,
        "max": 3 * GAMES,
        "words": f"Waiting to start: {GAMES} games in the file.",
        "ended": False,
    }
    with app.app_context():
        assert runner.Runner(app).run_claimable() == 1
    done = vera.get(answer.location)
    assert re.search(rf"Imported {GAMES} games with [\d,]+ deals\.", done.text)
    assert "New members: " in done.text
    assert f'<progress max="{3 * GAMES}" value="{3 * GAMES}"' in done.text
    assert "data-import-job" not in done.text  # ended: nothing left to ask
    assert vera.get(answer.location + "/progress").get_json()["ended"] is True
    assert games_in(app) == GAMES
    listed = vera.get("/clubs/thursday/import").text
    assert "Recent imports" in listed and answer.location in listed


def test_the_page_shows_how_far_the_thread_has_saved(app, vera, exported, monkeypatch):
    app.config.update(IMPORT_JOBS="thread", IMPORT_JOB_BATCH=1)
    real, calls = work.record_one, []
    reached, go = threading.Event(), threading.Event()

    def pauses_before_the_third(*args):
        calls.append(1)
        if len(calls) == 3:
            reached.set()
            assert go.wait(timeout=120)
        return real(*args)

    monkeypatch.setattr(work, "record_one", pauses_before_the_third)
    ended, run_job = threading.Event(), work.run_job

    def run_and_tell(job_id: int) -> bool:
        ran = run_job(job_id)
        if ran:
            ended.set()
        return ran

    monkeypatch.setattr(work, "run_job", run_and_tell)
    answer = upload(vera, exported)
    assert answer.status_code == 302
    try:
        assert reached.wait(timeout=120), "the job never reached its third game"
        page = vera.get(answer.location).text
        # Two games saved, a batch each, of the file's games: the last of three steps.
        assert f"Saving the games: 2 of {GAMES} games done." in page
        assert f'<progress max="{3 * GAMES}" value="{2 * GAMES + 2}"' in page
        assert "data-import-job" in page
        state = vera.get(answer.location + "/progress").get_json()
        assert (state["state"], state["value"], state["ended"]) == ("saving", 2 * GAMES + 2, False)
    finally:
        go.set()
    assert ended.wait(timeout=120), "the job never ended"
    assert re.search(rf"Imported {GAMES} games with ", vera.get(answer.location).text)
    assert games_in(app) == GAMES


def test_a_refused_file_still_shows_its_refusal_in_words(app, vera, exported):
    # What can be refused at once is refused at once, on the import page, as before.
    header, rest = exported.split("\n", 1)
    answer = upload(vera, header.replace("went_out", "gone_out") + "\n" + rest)
    assert answer.status_code == 422
    assert (
        "Nothing was imported. Line 1, column gone_out: "
        "&#39;gone_out&#39; is not a column of a deals export."
    ) in answer.text
    assert upload(vera, "").status_code == 422
    # A figure is the job's to read: the upload's answer is the job's page, which says why.
    rows = exported.split("\n")
    cells = rows[2].split(",")
    at = header.split(",").index("melded_points")
    cells[at] = "4OO"
    rows[2] = ",".join(cells)
    answer = upload(vera, "\n".join(rows))
    assert answer.status_code == 302
    page = vera.get(answer.location).text
    assert (
        "Nothing was imported. Line 3, column melded_points: &#39;4OO&#39; is not a whole" in page
    )
    assert "The file was refused: nothing was imported." in page
    assert games_in(app) == 0


def test_only_the_clubs_organisers_see_its_jobs(app, vera, exported):
    answer = upload(vera, exported)
    page, progress = answer.location, answer.location + "/progress"
    assert vera.get(page).status_code == 200
    # A stranger, and another club's organiser, find nothing: as for a job that is not.
    stranger = app.test_client()
    assert stranger.get("/clubs/thursday").status_code == 200  # the club is public
    other = app.test_client()
    assert other.post("/signup", data={"username": "olga", "password": PASSWORD}).status_code == 302
    assert other.post("/clubs/new", data={"name": "Olga's", "slug": "olgas"}).status_code == 302
    for visitor in (stranger, other):
        assert visitor.get(page).status_code == 404
        assert visitor.get(progress).status_code == 404
    assert vera.get("/clubs/thursday/import/987654").status_code == 404
    # Olga's own job is not found under Vera's club, nor Vera's under Olga's.
    olgas = upload(other, exported, "olgas").location
    job_id = olgas.rsplit("/", 1)[1]
    assert vera.get(f"/clubs/thursday/import/{job_id}").status_code == 404
    assert other.get(page.replace("thursday", "olgas")).status_code == 404
    assert other.get(olgas).status_code == 200
    # Organiser-only answers are kept by no cache.
    assert "no-store" in vera.get(progress).headers["Cache-Control"]
