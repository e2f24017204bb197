"""X-Forwarded-For is believed only from the proxy's own address (issue 14, item 11).

With SCOREKEEPER_PROXIES=1 and no proxy in front, anyone could write X-Forwarded-For and be a new
address on every sign-in attempt, so the throttle never saw five failures from one place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from conftest import close, make_app
from flask import Flask, request
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import LoginAttempt
from scorekeeper.plumbing.proxies import (
    FromProxies,
    ProxySettingRefused,
    from_proxy,
    proxy_count,
    proxy_networks,
)
from scorekeeper.services.accounts import LOGIN_FAILURES

STRANGER = "203.0.113.5"


@pytest.fixture
def proxied(monkeypatch, tmp_path, databases) -> Iterator[Callable[..., Flask]]:
    """Make an app with the proxy settings given (the environment is read at create_app)."""
    made: list[Flask] = []

    def make(proxies: str | None = "1", proxy_from: str | None = None) -> Flask:
        settings = {"SCOREKEEPER_PROXIES": proxies, "SCOREKEEPER_PROXY_FROM": proxy_from}
        for name, value in settings.items():
            if value is None:
                monkeypatch.delenv(name, raising=False)
            else:
                monkeypatch.setenv(name, value)
        folder = tmp_path / f"app{len(made)}"
        folder.mkdir()
        app = make_app(databases.fresh(folder))
        made.append(app)
        return app

    yield make
    for app in made:
        close(app)


def seen(app: Flask, peer: str, forwarded: str | None = "198.51.100.9") -> str:
    """The address and scheme the app's views see for a request from `peer` claiming `forwarded`."""
    if "peer" not in app.view_functions:

        @app.get("/_peer", endpoint="peer")
        def peer_view() -> str:
            return f"{request.remote_addr} {request.scheme}"

    headers = {"X-Forwarded-For": forwarded, "X-Forwarded-Proto": "https"} if forwarded else {}
    answer = app.test_client().get("/_peer", headers=headers, environ_base={"REMOTE_ADDR": peer})
    return answer.get_data(as_text=True)


def fail_sign_in(app: Flask, peer: str, forwarded: str, username: str) -> int:
    """One wrong password for `username` from `peer`, claiming `forwarded`; the status."""
    answer = app.test_client().post(
        "/login",
        data={"username": username, "password": "not-the-password"},
        headers={"X-Forwarded-For": forwarded},
        environ_base={"REMOTE_ADDR": peer},
    )
    return answer.status_code


def addresses_filed(app: Flask) -> set[str]:
    """The addresses the sign-in throttle filed failed sign-ins under."""
    with app.app_context():
        return set(db.session.execute(select(LoginAttempt.address)).scalars())


def test_a_stranger_cannot_forge_a_new_address_per_attempt(proxied):
    """From a peer that is not the proxy, X-Forwarded-For is ignored: every failed sign-in is
    filed under the peer's own address, however many addresses it claims."""
    app = proxied("1")
    assert seen(app, STRANGER) == f"{STRANGER} http"
    # A name of its own each time: no (name, address) pair reaches its free failures, and the
    # address is far from its own limit, so each is refused as a wrong password (422).
    for n in range(LOGIN_FAILURES + 1):
        assert fail_sign_in(app, STRANGER, f"198.51.100.{n + 1}", f"player{n}") == 422
    assert addresses_filed(app) == {STRANGER}


def test_the_proxy_s_forwarded_for_is_believed(proxied):
    """From the proxy (127.0.0.1 or ::1 by default) each client is known by its own address."""
    app = proxied("1")
    assert seen(app, "127.0.0.1") == "198.51.100.9 https"
    assert seen(app, "::1", "198.51.100.8") == "198.51.100.8 https"
    assert fail_sign_in(app, "127.0.0.1", "198.51.100.7", "player1") == 422
    assert fail_sign_in(app, "::1", "198.51.100.8", "player2") == 422
    assert addresses_filed(app) == {"198.51.100.7", "198.51.100.8"}


def test_proxy_from_names_the_proxy_and_nobody_else(proxied):
    """SCOREKEEPER_PROXY_FROM replaces the default: then 127.0.0.1 is a stranger too."""
    app = proxied("1", "10.0.0.5, 192.168.7.0/24")
    assert seen(app, "10.0.0.5", "198.51.100.1") == "198.51.100.1 https"
    assert seen(app, "192.168.7.20", "198.51.100.2") == "198.51.100.2 https"
    assert seen(app, "127.0.0.1", "198.51.100.3") == "127.0.0.1 http"


def test_without_proxies_forwarded_for_is_never_believed(proxied):
    """No SCOREKEEPER_PROXIES: even from 127.0.0.1 the headers change nothing."""
    app = proxied(None)
    assert seen(app, "127.0.0.1") == "127.0.0.1 http"
    assert fail_sign_in(app, "127.0.0.1", "198.51.100.1", "b1") == 422
    assert addresses_filed(app) == {"127.0.0.1"}


def probe(environ: dict, start_response) -> list[bytes]:
    """A WSGI app that answers with the address and scheme it was given."""
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [f"{environ['REMOTE_ADDR']} {environ['wsgi.url_scheme']}".encode()]


def through(peer: str, networks: str = "127.0.0.1,::1") -> str:
    """What the probe sees behind FromProxies, for a request from `peer` claiming 198.51.100.9."""
    app = FromProxies(probe, 1, proxy_networks(networks))
    environ = {
        "REMOTE_ADDR": peer,
        "wsgi.url_scheme": "http",
        "HTTP_X_FORWARDED_FOR": "198.51.100.9",
        "HTTP_X_FORWARDED_PROTO": "https",
    }
    return b"".join(app(environ, lambda status, headers: None)).decode()


@pytest.mark.parametrize(
    ("peer", "seen"),
    [
        ("127.0.0.1", "198.51.100.9 https"),
        ("::1", "198.51.100.9 https"),
        ("::ffff:127.0.0.1", "198.51.100.9 https"),  # a dual-stack socket's IPv4 peer
        ("", "198.51.100.9 https"),  # a Unix socket: only this machine's processes reach it
        (STRANGER, f"{STRANGER} http"),
        ("127.0.0.2", "127.0.0.2 http"),
        ("not-an-address", "not-an-address http"),
    ],
)
def test_forwarded_headers_count_only_from_the_proxy(peer, seen):
    """Address and scheme both come from the proxy's headers, or both from the socket."""
    assert through(peer) == seen


def test_a_network_of_proxies():
    """A network in SCOREKEEPER_PROXY_FROM trusts each address in it, and only those."""
    assert from_proxy("10.1.2.3", proxy_networks("10.0.0.0/8"))
    assert not from_proxy("11.1.2.3", proxy_networks("10.0.0.0/8"))
    assert from_proxy("fe80::1%eth0", proxy_networks("fe80::/10"))


@pytest.mark.parametrize(
    ("proxies", "proxy_from", "named"),
    [
        ("yes", None, "SCOREKEEPER_PROXIES is 'yes'"),
        ("4", None, "SCOREKEEPER_PROXIES is '4'"),
        ("-1", None, "SCOREKEEPER_PROXIES is '-1'"),
        ("1", "127.0.0.1,10.0.0.300", "'10.0.0.300', which is not an IP address"),
        ("1", "proxy.example.org", "'proxy.example.org', which is not an IP address"),
        ("1", " , ", "names no address"),
    ],
)
def test_a_bad_setting_stops_the_app_naming_it(proxied, proxies, proxy_from, named):
    """A setting that means nothing is refused at start, not silently left untrusted."""
    with pytest.raises(ProxySettingRefused, match=named):
        proxied(proxies, proxy_from)


def test_blank_settings_mean_no_proxy_and_the_default_peers():
    """Blank SCOREKEEPER_PROXIES is none; blank SCOREKEEPER_PROXY_FROM is this machine."""
    assert proxy_count("") == proxy_count(" 0 ") == 0
    assert proxy_count("2") == 2
    assert [str(n) for n in proxy_networks("")] == ["127.0.0.1/32", "::1/128"]
