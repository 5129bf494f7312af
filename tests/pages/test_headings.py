"""Issue 23 item 5: a heading's accessible name is its words alone. Streamlit draws a Markdown icon
(":material/timer:") as role="img" named "timer icon", in English on a Korean page too, so an icon in a
heading put "restaurant icon" into what a screen reader reads for it. Every page, both languages, the
term entry and the room-less lesson included; the heading texts come from the AppTest elements."""

from __future__ import annotations

import pytest

from latency.teaching import content
from tests.conftest import PAGES, run_page

TERM = content.term_ids()[0]
CASES = [(page, {}) for page in PAGES if page != "not_found"] + [("learn", {"term": TERM})]


@pytest.mark.parametrize("page,query", CASES, ids=[p + ("-term" if q else "") for p, q in CASES])
def test_no_heading_carries_an_icon(page, query, lang):
    at = run_page(page, lang, query)
    assert not at.exception, [e.value for e in at.exception]
    headings = [h.value for kind in ("title", "header", "subheader") for h in at.get(kind)]
    assert headings, page
    with_icon = [h for h in headings if ":material/" in h or ":streamlit:" in h]
    assert not with_icon, with_icon
