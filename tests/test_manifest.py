"""The web app manifest: what browsers need to offer "Install", and icons that match it."""

from __future__ import annotations

import json
import struct
from urllib.parse import urljoin, urlsplit

import pytest

MANIFEST_URL = "/static/manifest.webmanifest"


@pytest.fixture
def manifest(client):
    response = client.get(MANIFEST_URL)
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    response.close()
    return json.loads(text)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk, which must come first."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR", "PNG does not start with IHDR"
    return struct.unpack(">II", data[16:24])


def icon_path(icon: dict) -> str:
    """The icon's path on this app: src resolves against the manifest's own URL."""
    return urlsplit(urljoin(MANIFEST_URL, icon["src"])).path


def purposes(icon: dict) -> set[str]:
    return set(icon.get("purpose", "any").split())


def test_manifest_has_what_installing_needs(manifest):
    assert manifest["name"] == "Hand & Foot Scorekeeper"
    assert manifest["short_name"]
    assert len(manifest["short_name"]) <= 12  # fits under a home-screen icon
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#14532d"
    assert manifest["background_color"].startswith("#")

    pngs = [i for i in manifest["icons"] if i["type"] == "image/png"]
    any_sizes = {i["sizes"] for i in pngs if "any" in purposes(i)}
    assert {"192x192", "512x512"} <= any_sizes
    assert any("maskable" in purposes(i) for i in pngs)


def test_every_icon_is_served_at_its_declared_size(client, manifest):
    assert manifest["icons"]
    for icon in manifest["icons"]:
        response = client.get(icon_path(icon))
        assert response.status_code == 200, icon["src"]
        assert response.mimetype == icon["type"], icon["src"]
        data = response.get_data()
        response.close()
        if icon["type"] == "image/png":
            width, height = png_size(data)
            assert icon["sizes"] == f"{width}x{height}", icon["src"]
        else:
            assert icon["type"] == "image/svg+xml" and icon["sizes"] == "any"
            assert data.lstrip().startswith(b"<svg")


def test_apple_touch_icon_is_opaque_and_180px(client):
    response = client.get("/static/icons/apple-touch-icon.png")
    assert response.status_code == 200
    data = response.get_data()
    response.close()
    assert png_size(data) == (180, 180)
    colour_type = data[25]
    assert colour_type in (0, 2), "colour type without alpha (grey or RGB)"
    assert b"tRNS" not in data
