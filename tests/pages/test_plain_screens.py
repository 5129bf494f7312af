"""Small breakages a first-time reader meets (issue 26, item 6), page by page in every language."""

from __future__ import annotations

import re

import pytest

from latency.language import i18n
from tests.conftest import PAGES, run_page
from tests.pages.test_hostile_urls import rendered_strings

VISIBLE_BACKSLASH = re.compile(r"\\\\")  # Markdown shows an escaped backslash as a literal "\"


@pytest.mark.parametrize("page", [p for p in PAGES if p not in ("measure", "logs")])
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_no_escape_character_shows(page, lang):
    at = run_page(page, lang)
    assert not at.exception
    texts = [t for t in rendered_strings(at) if not t.startswith("{")]  # JSON configs (a table's columns) are no text
    shown = [t for t in texts if VISIBLE_BACKSLASH.search(t)]
    assert not shown, shown[:5]


# A verb that agrees with a plural subject right after a count of one ("1 user share", "1 user keep asking")
PLURAL_AFTER_ONE = re.compile(r"\b1 (user|device|server|token|request)s?\b (share|keep|ask|wait|have|are|use)\b|\b1 (users|devices|tokens|requests)\b")


@pytest.mark.parametrize("view", ["map", "cost"])
def test_one_user_reads_in_the_singular(view):
    at = run_page("tradeoffs", "en", {"concurrency": "1", "view": view})
    assert not at.exception
    wrong = [t for t in rendered_strings(at) if PLURAL_AFTER_ONE.search(t)]
    assert not wrong, wrong[:3]
    assert any("1 user" in t for t in rendered_strings(at))
