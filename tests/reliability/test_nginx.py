"""nginx in front of gunicorn, as the README's production section and docs/DEPLOY.md run it
(issue 26: slow clients, secrets in the access log).

nginx runs the shipped site, docs/deploy/nginx.conf, with only what a test must change
(tests/reliability/_nginx.py says each). gunicorn runs with the shipped gunicorn.conf.py.
Bodies: test_nginx_bodies.py; the error log: test_nginx_errors.py.

- 60 clients trickling headers and 60 trickling a body, through nginx: a normal request is
  answered at once. The same clients straight at gunicorn stall it
  (`test_the_same_clients_straight_at_gunicorn_stall_it`, which keeps the first test honest).
- The access log blanks a game's secret and a table code however the path spells them.

Skipped where nginx is not installed (apt-get install nginx), except under REQUIRE_BROWSER=1
(CI), where a missing nginx fails.
"""

from __future__ import annotations

import re
import secrets
import time

from ._nginx import SITE, logged
from ._server import call, new_game
from .test_hardening_server import (
    DRIP_SECONDS,
    PROMPT_SECONDS,
    SLOW_HEADER,
    Trickle,
    timed_get,
)

# The finding: 40-60 slow connections were enough to time out other requests on the shipped
# 4 workers x 12 threads. Sixty of each kind is more than every thread gunicorn has.
SLOW_HEADERS = 60
SLOW_BODIES = 60
# Normal requests timed while the slow clients are connected.
TRIES = 5
# What a slow body claims to be: far less than any limit, never finished in a test's time.
SLOW_BODY_BYTES = 4000


def slow_headers(port: int) -> Trickle:
    """Clients sending a request's headers a byte at a time (slowloris)."""
    return Trickle(port, SLOW_HEADERS, b"", SLOW_HEADER)


def slow_bodies(port: int) -> Trickle:
    """Clients sending whole headers for a new game, then its body a byte at a time."""
    head = (
        "POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {SLOW_BODY_BYTES}\r\n\r\n"
    ).encode()
    return Trickle(port, SLOW_BODIES, head, b" " * SLOW_BODY_BYTES)


def answers_while_slow(port: int) -> tuple[list[tuple[int | None, float]], int]:
    """Normal GETs while both kinds of slow client hold connections to the same `port`: each
    GET's status (None: no answer in PROMPT_SECONDS) and time, and how many slow clients were
    still connected at the end."""
    with slow_headers(port) as headers, slow_bodies(port) as bodies:
        time.sleep(2 * DRIP_SECONDS)  # every slow client is accepted and being read
        answers = [timed_get(port) for _ in range(TRIES)]
        held = len(headers.sockets) + len(bodies.sockets)
    return answers, held


def test_the_shipped_site_buffers_bounds_and_times_out_slow_clients():
    """The settings the README promises are written in the file, not left to defaults."""
    text = SITE.read_text()

    def setting(name: str) -> str:
        found = re.findall(rf"^\s*{name}\s+([^;]+);", text, re.MULTILINE)
        assert len(found) == 1, f"{SITE.name} sets {name} {len(found)} times, not once"
        return found[0].strip()

    assert setting("proxy_request_buffering") == "on"
    assert setting("proxy_buffering") == "on"
    assert re.fullmatch(r"\d+k", setting("client_body_buffer_size"))
    for timeout in ("client_header_timeout", "client_body_timeout", "send_timeout"):
        assert re.fullmatch(r"\d+s", setting(timeout)) and int(setting(timeout)[:-1]) <= 30


def test_slow_clients_through_nginx_do_not_stall_a_normal_request(proxied):
    """60 clients trickling headers and 60 trickling a body to nginx: nginx holds them all,
    and a normal request through it is answered at once."""
    gunicorn, nginx = proxied
    answers, held = answers_while_slow(nginx.port)
    assert held == SLOW_HEADERS + SLOW_BODIES, "nginx dropped a slow client"
    for status, seconds in answers:
        assert status == 200 and seconds < PROMPT_SECONDS, answers
    assert "WORKER TIMEOUT" not in gunicorn.log()


def test_the_same_clients_straight_at_gunicorn_stall_it(proxied):
    """The same clients sent straight to gunicorn (no proxy): a normal request times out.

    This is what the attack saw on the README's old recipe; it keeps the test above honest.
    """
    gunicorn, _ = proxied
    assert timed_get(gunicorn.port)[0] == 200  # answered while nobody is slow
    answers, _ = answers_while_slow(gunicorn.port)
    print(f"\nstraight at gunicorn, (status, seconds) of each normal GET: {answers}")
    assert any(status is None for status, _ in answers), answers
    # Once the slow clients are gone, gunicorn answers again.
    time.sleep(1)
    assert timed_get(gunicorn.port)[0] == 200


def test_the_access_log_blanks_secrets_however_the_path_spells_them(proxied):
    """/t/<secret> written as /%74/<secret>, /t/%67..., /t/%20<secret>, //t/<secret> or /T/, a table
    code behind /%74able/, and the same in a Referer: none of it reaches nginx's access log."""
    _, nginx = proxied
    game = new_game(nginx.port)
    secret = game.secret
    first = f"%{ord(secret[0]):02X}{secret[1:]}"  # its first letter percent-encoded
    code = secrets.token_urlsafe(12)
    night = secrets.token_urlsafe(16)
    paths = {
        f"/t/{secret}": 200,
        f"/%74/{secret}": 200,  # the app decodes the path: this is the game's own page
        f"/t/{first}": 200,
        f"/t/%20{secret}": 404,
        f"//t/{secret}/invite.svg": None,  # whatever the app makes of it, it is not logged
        f"/clubs/nobody/table/{code}": None,
        f"/clubs/nobody/%74able/{code}": None,
        f"/%54/{secret}": 404,  # /T/: no route of the app, and still no secret in the log
        # A night's read-only board link (issue 37) is a secret of the same kind: here one that
        # opens no night, and as a Referer below.
        f"/n/{night}": 404,
        f"/n/{night}/results": 404,
    }
    referers = [
        f"http://x/t/{secret}?a=%20",
        f"http://x/%74/{secret}",
        f"http://x/t/{first}",
        f"http://x/t/{secret[:3]}%{ord(secret[3]):02X}{secret[4:]}",
        f"http://x/clubs/nobody/%74able/{code}?a=1",
        f"http://x//clubs/nobody/table/{code}/",
        f"http://x/n/{night}",
    ]
    marks = [f"log-test-{n}" for n in range(len(paths))]
    for n, (path, expected) in enumerate(paths.items()):
        sent = {"Referer": referers[n % len(referers)], "User-Agent": marks[n]}
        reply = call(nginx.port, "GET", path, headers=sent)
        assert expected is None or reply.status == expected, (path, reply.status)
    log = logged(nginx.access_log, marks)
    # Without its first and last letters: no secret in part or whole, encoded or not.
    for hidden in (secret[1:-1], code[1:-1], night[1:-1]):
        assert hidden not in log, log[-3000:]
    # The blanked lines still say what was asked and how it went.
    assert '"GET /t/... HTTP/1.1" 200' in log
    assert '"http://x/..."' in log
