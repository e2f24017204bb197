"""Who is asking, as every per-address allowance counts it: one IPv4 address, or one IPv6 /64.

One home for the grouping, used by the link-guess, sign-in and creation limits alike. An IPv6
customer is handed a whole /64 (RFC 6177), 2^64 addresses: counted one by one, each would get
an allowance of its own, so the /64 is the unit. An IPv4-mapped IPv6 peer (::ffff:a.b.c.d, as a
dual-stack socket reports IPv4) counts as its IPv4 address.
"""

from __future__ import annotations

import ipaddress

# How long a stored address may be (the longest IPv6 /64 written out fits well within it).
ADDRESS_LENGTH = 64
# The prefix an IPv6 address is counted by.
IPV6_PREFIX = 64
# What an unknown peer (no REMOTE_ADDR) is counted as.
UNKNOWN_PEER = "?"


def counted_as(peer: str | None) -> str:
    """The address an allowance counts this peer by: IPv4 as is, IPv6 as its /64."""
    if not peer:
        return UNKNOWN_PEER
    try:
        address = ipaddress.ip_address(peer.split("%", 1)[0])  # drop an IPv6 zone (fe80::1%eth0)
    except ValueError:
        return peer[:ADDRESS_LENGTH]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/{IPV6_PREFIX}", strict=False))
    return str(address)
