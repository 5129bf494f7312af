"""Hostile URL values in a real browser (issue 15, item 3): Streamlit's Markdown in Chromium turns
bare `https://`, `www.` and e-mail text into links by itself, so only a browser shows whether the
app's escaping (latency.language.i18n.md) holds. Every page is opened with payloads at every key; the main
area must hold no link to the payload's host, and the payload text is shown (as text).
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from latency.estimation import scenario
from tests.conftest import PAGES
from tests.e2e.conftest import open_app, shot

pytestmark = pytest.mark.e2e

PAYLOADS = {
    "link": "[Log in again](https://evil.example)",
    "bare": "https://evil.example/login",
    "www": "www.evil.example/reset",
    "mail": "me@evil.example",
}


@pytest.mark.parametrize("name", list(PAYLOADS))
@pytest.mark.parametrize("path", list(PAGES))
def test_no_payload_becomes_a_link(page, app_url, path, name):
    payload = quote(PAYLOADS[name], safe="")
    query = {k: payload for k in ("term", *scenario.KEYS)}
    query["lang"] = payload if name == "link" else "en"
    open_app(page, app_url, path, **query)
    # the app's own links (navigation, #anchors) carry the current URL, payload and all, in their
    # query, and content links go to their sources; a link the payload made points at the payload's
    # host or shows its words
    links = page.eval_on_selector_all("[data-testid=stMain] a, [data-testid=stSidebar] a",
                                      "els => els.map(e => [new URL(e.href, location.href).host, e.textContent])")
    assert not [link for link in links if "evil" in link[0] or "evil" in link[1].lower() or "log in" in link[1].lower()], links
    if name == "link":
        shot(page, f"hostile-{path}-{name}")
