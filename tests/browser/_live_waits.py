"""Waits on a game's page for what its live corner (static/live.js) has done, not for a time.

A phone given `ANSWERS` before its scripts run keeps, in the page, when each live answer came
(by the page's own clock) and its status; `quiet` then waits until the page is past its quick
spell, as live.js itself judges it: answered `quick_for` after its last news.
"""

from __future__ import annotations

from playwright.sync_api import Page

# In the page: each live answer, when it came (performance.now()) and its status.
ANSWERS = """(() => {
  const inner = window.fetch;
  window.__answers = [];
  window.fetch = function (input) {
    const asked = inner.apply(this, arguments);
    if (String((input && input.url) || input).includes("/live?")) {
      asked.then((r) => window.__answers.push({ at: performance.now(), status: r.status }),
                 () => {});
    }
    return asked;
  };
})();"""
# True once the page was answered `quickFor` (and a margin) after its last news (a changed
# answer, 200): live.js schedules its next question by its quiet pace from then on.
QUIET = """(quickFor) => {
  const answers = window.__answers || [];
  const news = answers.filter((a) => a.status === 200).pop();
  return !!news && answers.some((a) => a.at - news.at > quickFor + 100);
}"""


def quiet(page: Page, quick_for_ms: int, timeout_ms: int = 15_000) -> None:
    """Wait until the page (given ANSWERS) is past its quick spell of `quick_for_ms`."""
    page.wait_for_function(QUIET, arg=quick_for_ms, timeout=quick_for_ms + timeout_ms)
