"""A club's records imported as a job (issue 39): how long the upload's answer takes, against
the whole import done in the request as before, and the longest transaction the job holds.

    .venv/bin/python bench/import_job.py [--games 2133] [--database-url URL]

SQLite in a temporary folder unless --database-url names an empty PostgreSQL database. A demo
club of --games finished games (`demo.fill_demo`) is exported as its deals file; then, in the
same run:

- before: `records_import.import_deals` into a new club, in one transaction, as the request
  did before (CPU and wall time);
- the upload: POSTed through the test client to a third club with `IMPORT_JOBS=off`, so the
  answer is the request alone (the redirect to the job's page): wall and CPU time;
- the job: run by a runner (`runner.Runner.run_claimable`), wall and CPU time, and the longest
  of its save batches (each one transaction: what another table's save may wait for).

The machine is shared: compare the figures of one run with each other, and read the load
printed with them.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.plumbing.db import db  # noqa: E402
from scorekeeper.services import accounts, clubs, demo, records, records_import  # noqa: E402
from scorekeeper.services.records_import import runner, work  # noqa: E402

PASSWORD = "Kept-for-records-9"


def timed(action):  # type: ignore[no-untyped-def]
    """What `action` gives, its wall seconds and its CPU seconds (this process)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2133)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="import-job-")
    url = args.database_url or f"sqlite:///{folder}/bench.sqlite"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            "IMPORT_JOBS": "off",
        }
    )
    with app.app_context():
        db.create_all()
        source, fill, _ = timed(lambda: demo.fill_demo("demo", games=args.games))
        text = records.export_deals(source)
        owner = accounts.register("before", PASSWORD)
        before = clubs.create_club("Before", "before", owner)
        _, before_wall, before_cpu = timed(lambda: records_import.import_deals(before, text))
    client = app.test_client()
    client.post("/signup", data={"username": "vera", "password": PASSWORD})
    client.post("/clubs/new", data={"name": "Thursday", "slug": "thursday"})
    upload = {"file": (io.BytesIO(text.encode()), "deals.csv")}
    answer, post_wall, post_cpu = timed(
        lambda: client.post(
            "/clubs/thursday/import", data=upload, content_type="multipart/form-data"
        )
    )
    assert answer.status_code == 302, answer.status_code
    batches: list[float] = []
    save = work._Run.save

    def timed_save(self, *args):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        save(self, *args)
        batches.append(time.perf_counter() - started)

    work._Run.save = timed_save  # type: ignore[method-assign]
    with app.app_context():
        ran, job_wall, job_cpu = timed(lambda: runner.Runner(app).run_claimable())
    assert ran == 1
    page = client.get(answer.location).text
    assert "Imported " in page, page
    load = os.getloadavg()
    print(f"{args.games:,} games, {len(text) / 2**20:.1f} MB file, {url.split(':')[0]}")
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores")
    print(f"demo club filled in {fill:.1f} s")
    print(
        f"before: the import in the request      {before_wall:7.2f} s wall {before_cpu:7.2f} s CPU"
    )
    print(f"now: the upload's answer (a redirect)  {post_wall:7.2f} s wall {post_cpu:7.2f} s CPU")
    print(f"now: the job, off the request          {job_wall:7.2f} s wall {job_cpu:7.2f} s CPU")
    print(
        f"now: {len(batches)} save batches of {work.BATCH} games, longest {max(batches):.3f} s, "
        f"median {sorted(batches)[len(batches) // 2]:.3f} s"
    )


if __name__ == "__main__":
    main()
