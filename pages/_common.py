"""Streamlit glue shared by the pages: current language, cached UI strings, error display.

Not a page itself (the leading underscore); `app.py` lists the pages explicitly.
"""

from __future__ import annotations

import streamlit as st

from latency import i18n
from latency.errors import ContentError
from ui.shell import current_lang, page_strings, show_content_error, strings as ui  # noqa: F401  (moved to ui.shell)


def url_notices(s: i18n.Strings, notices, specs, show_value) -> list[str]:
    """One message per rejected URL value, from the page's ``notice_<reason>`` strings: names the
    parameter, the raw value (escaped: URL text is never markup) and the default used instead."""
    messages = []
    for n in notices:
        spec = specs[n.key]
        lo, hi = getattr(spec, "min_value", None), getattr(spec, "max_value", None)
        messages.append(s(f"notice_{n.reason}", param=n.key, raw=i18n.md(n.raw), default=show_value(n.key, n.default),
                          lo=f"{lo:g}" if lo is not None else "", hi=f"{hi:,g}" if hi is not None else ""))
    return messages
