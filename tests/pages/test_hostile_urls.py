"""No URL value can put words, links or markup in the app's mouth (issue 15, item 3).

Every page is opened with the hostile payloads from the issue at every key it could read (the
language, the glossary term and every scenario key of every page), and every string the page sends
to the browser (markdown, alerts, captions, labels, help texts, metrics...) is checked: a payload may
appear only as escaped text: no `[x](y)` link, no bare `https://` / `www.` / e-mail that Streamlit's
Markdown would turn into a link, no bidirectional-override character; and no exception.
Unit tests of `latency.language.i18n.md` pin down each rule on its own (hand-written expected strings).
"""

from __future__ import annotations

import re

import pytest

from latency.language import i18n
from latency.estimation import scenario
from tests.conftest import PAGES, run_page

MARK = "evil"  # every payload carries it, so the checks look only at strings that show a payload
PAYLOADS = {
    "link": "[Log in again](https://evil.example)",
    "bare_url": "https://evil.example/login",
    "www": "www.evil.example/reset",
    "email": "me@evil.example",
    "bidi": "evil\u202egnp.exe\u2066x\u2069",
    "entity_icon": "&#x202E;evil :material/lock: :rocket:",
}
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
LINK = re.compile(r"(?<!\\)\]\(")                   # `](` that Markdown would read as a link
AUTOLINK = re.compile(r"(?i)https?://|www\.|@[-\w]+\.|:[\w/]+:")   # what remark-gfm / Streamlit link or iconify
URL_KEYS = ("lang", "term", *scenario.KEYS)
READS_URL = {"", "learn", "estimator", "tradeoffs"}  # pages that name bad or unknown URL keys (the glossary names every key it does not read)


def rendered_strings(at) -> list[str]:
    """Every string field of every element and block the run sent (main area and sidebar)."""
    out: list[str] = []

    def strings_of(msg) -> None:
        for field, value in msg.ListFields():
            if field.name in ("spec", "data", "id", "form_id", "arrow_data"):
                continue
            repeated = hasattr(value, "__len__") and not isinstance(value, (str, bytes)) and not hasattr(value, "ListFields")
            values = list(value) if repeated else [value]
            for v in values:
                if isinstance(v, str):
                    out.append(v)
                elif hasattr(v, "ListFields"):
                    strings_of(v)

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None and hasattr(proto, "ListFields"):
            strings_of(proto)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    walk(at.sidebar)
    return out


def problems(texts: list[str]) -> list[str]:
    found = []
    for text in texts:
        if BIDI.search(text):
            found.append(f"bidi character in {text!r}")
        if MARK not in text.lower():
            continue
        if LINK.search(text):
            found.append(f"link in {text!r}")
        if AUTOLINK.search(text):
            found.append(f"autolink-able text in {text!r}")
    return found


@pytest.mark.parametrize("name", list(PAYLOADS))
@pytest.mark.parametrize("page", list(PAGES))
def test_payload_at_every_key_is_shown_as_text(page, name):
    payload = PAYLOADS[name]
    lang = payload if name in ("link", "bare_url", "bidi") else "en"  # the language key itself, or English screens
    at = run_page(page, lang=lang, query={k: payload for k in URL_KEYS if k != "lang"})
    assert not at.exception, [e.value for e in at.exception]
    texts = rendered_strings(at)
    if page in READS_URL:  # its own URL notices (the language notice shows on the first run only)
        assert any(MARK in t.lower() for t in texts), "the payload is named somewhere"
    assert problems(texts) == []


def test_checks_catch_raw_payloads():
    """The checks above can fail: the raw payloads (what md() used to let through) are all caught."""
    raw = [p for p in PAYLOADS.values()]
    assert len(problems(raw)) >= len(raw)
    assert problems([i18n.md(p) for p in raw]) == []


@pytest.mark.parametrize("raw,shown", [
    ("[Log in again](https://evil.example)", "\\[Log in again\\](https:\u2060//evil.example)"),
    ("https://evil.example/login", "https:\u2060//evil.example/login"),
    ("HTTP://EVIL.EXAMPLE", "HTTP:\u2060//EVIL.EXAMPLE"),
    ("www.evil.example/reset", "www\u2060.evil.example/reset"),
    ("_WWW.evil.example", "\\_WWW\u2060.evil.example"),
    ("me@evil.example", "me@\u2060evil.example"),
    ("a\u202eb\u2066c\u2069d\u200f", "a\ufffdb\ufffdc\ufffdd\ufffd"),
    ("&#x202E; <b>x</b>", "\\&\\#x202E; \\<b\\>x\\</b\\>"),
    (":rocket: 12:30", ":\u2060rocket: 12:\u206030"),
    ("- a\n10. b", "- a\n10. b"),  # a content text's own list stays a list (values from outside go through clip)
    ("$x$ *y* `z` ~w~ |t|", "\\$x\\$ \\*y\\* \\`z\\` \\~w\\~ \\|t\\|"),
    ("Llama 3.1 8B", "Llama 3.1 8B"),  # ordinary text is untouched
])
def test_md_neutralises(raw, shown):
    assert i18n.md(raw) == shown


def test_clip():
    assert i18n.clip("x" * 40) == "x" * 40
    assert i18n.clip("x" * 41) == "x" * 39 + "…"
    assert i18n.clip("a\n- b\r\n\t# c") == "a - b # c"  # one line: no list or heading can start
