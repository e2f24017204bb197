"""Reading a page as a browser would post it: its visible text, inputs and submit buttons."""

from __future__ import annotations

from html.parser import HTMLParser


class Page(HTMLParser):
    """The visible text of a page, the values its form inputs would send, and its buttons."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.values: dict[str, str] = {}
        self.hidden: dict[str, str] = {}
        self.inputs: list[str] = []
        self.buttons: list[str] = []
        self._unseen = 0  # inside <script> or <style>
        self._in_button = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._unseen += 1
        attr = dict(attrs)
        if tag == "button" and (attr.get("type") or "submit") == "submit":
            self._in_button = True
            self.buttons.append("")
        name = attr.get("name")
        if tag != "input" or not name:
            return
        self.inputs.append(name)
        kind = (attr.get("type") or "text").lower()
        if kind in ("radio", "checkbox"):
            if "checked" in attr:
                value = attr.get("value")
                self.values[name] = "on" if value is None else value
        elif kind not in ("submit", "button"):
            self.values[name] = attr.get("value") or ""
            if kind == "hidden":
                self.hidden[name] = attr.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._unseen -= 1
        if tag == "button":
            self._in_button = False

    def handle_data(self, data: str) -> None:
        if self._unseen:
            return
        self.words.append(data)
        if self._in_button:
            self.buttons[-1] += data


def read_page(html: str) -> Page:
    """A page's text, inputs and buttons."""
    page = Page()
    page.feed(html)
    return page
