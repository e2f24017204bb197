"""Behind a reverse proxy: trust its X-Forwarded-For and -Proto, and only when it sent them.

`SCOREKEEPER_PROXIES` is the number of proxies in front (0 to 3); `SCOREKEEPER_PROXY_FROM` the
addresses (or networks) the nearest one connects from, comma-separated, by default this machine
(127.0.0.1,::1). A request from any other peer reached the app without passing the proxy, so
its X-Forwarded-* headers are whatever that client chose to write: they are ignored, and the
sign-in throttle sees the peer's own address.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from werkzeug.middleware.proxy_fix import ProxyFix

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from flask import Flask

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

DEFAULT_PROXY_FROM = "127.0.0.1,::1"
# More hops than this is a misreading of the setting (it counts proxies, not addresses).
MOST_PROXIES = 3


class ProxySettingRefused(RuntimeError):
    """SCOREKEEPER_PROXIES or SCOREKEEPER_PROXY_FROM holds something that is not a setting."""


def proxy_count(value: str) -> int:
    """How many proxies SCOREKEEPER_PROXIES names: blank is none; else 0 to MOST_PROXIES."""
    value = value.strip()
    if not value:
        return 0
    if not value.isdigit() or int(value) > MOST_PROXIES:
        raise ProxySettingRefused(
            f"SCOREKEEPER_PROXIES is {value!r}: it must be the number of reverse proxies in "
            f"front of the app, a whole number from 0 to {MOST_PROXIES} (usually 1)."
        )
    return int(value)


def proxy_networks(value: str) -> tuple[Network, ...]:
    """The peers SCOREKEEPER_PROXY_FROM trusts (blank: DEFAULT_PROXY_FROM), each checked."""
    entries = [part.strip() for part in (value.strip() or DEFAULT_PROXY_FROM).split(",")]
    networks: list[Network] = []
    for entry in entries:
        if not entry:
            continue  # a stray comma names nothing
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ProxySettingRefused(
                f"SCOREKEEPER_PROXY_FROM names {entry!r}, which is not an IP address or network: "
                "list the addresses the proxy connects from, comma-separated "
                f"(e.g. {DEFAULT_PROXY_FROM})."
            ) from None
    if not networks:
        raise ProxySettingRefused(
            f"SCOREKEEPER_PROXY_FROM is {value!r}, which names no address: list the addresses "
            f"the proxy connects from, comma-separated (e.g. {DEFAULT_PROXY_FROM})."
        )
    return tuple(networks)


def from_proxy(peer: str | None, networks: Iterable[Network]) -> bool:
    """Whether the immediate peer (REMOTE_ADDR) is one of the trusted proxies.

    An empty peer is a Unix socket, which only processes on this machine can reach: the proxy.
    """
    if not peer:
        return True
    try:
        address = ipaddress.ip_address(peer.split("%", 1)[0])  # drop an IPv6 zone (fe80::1%eth0)
    except ValueError:
        return False
    # A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d; compare them as IPv4.
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


class FromProxies:
    """WSGI middleware: ProxyFix for requests from a trusted proxy, the plain app for others."""

    def __init__(self, app: WSGIApplication, hops: int, networks: Iterable[Network]) -> None:
        self.app = app
        self.networks = tuple(networks)
        self.fixed = ProxyFix(app, x_for=hops, x_proto=hops)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[Any]:
        """Answer the request, believing its X-Forwarded-* only if a trusted proxy sent it."""
        if from_proxy(environ.get("REMOTE_ADDR"), self.networks):
            return self.fixed(environ, start_response)
        return self.app(environ, start_response)


def trust_proxies(app: Flask) -> None:
    """Wrap the app for SCOREKEEPER_PROXIES proxies at SCOREKEEPER_PROXY_FROM (none: as is)."""
    hops = proxy_count(os.environ.get("SCOREKEEPER_PROXIES", ""))
    if hops:
        networks = proxy_networks(os.environ.get("SCOREKEEPER_PROXY_FROM", ""))
        app.wsgi_app = FromProxies(app.wsgi_app, hops, networks)  # type: ignore[method-assign]
