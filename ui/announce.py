"""Polite status lines (WCAG 4.1.3): a result a screen reader reads out once it is there, without
interrupting, as Streamlit's alerts (role="alert", assertive) would.

Streamlit has no element with role="status", so `status` draws one through st.html. Every text in
it is app text (content/ui strings with numbers filled in) and goes through html.escape, so it is
shown literally; no content, URL or participant text ever goes through unsafe_allow_html, and no
script runs (st.html's DOMPurify keeps role and aria-live, drops anything active).
"""

from __future__ import annotations

import html

import streamlit as st

STATUS_CLASS = "app-status"  # ui/style.py gives it the caption's look (muted ink, small) or a heading's


def status_html(text: str, heading: int | None = None) -> str:
    """The markup of one polite status line: `text` escaped, as a paragraph or as a heading of level
    `heading` (the quiz score is both the page's next heading and the news)."""
    body = html.escape(text)
    inner = f"<h{heading}>{body}</h{heading}>" if heading else f"<p>{body}</p>"
    return f'<div role="status" aria-live="polite" class="{STATUS_CLASS}">{inner}</div>'


def status(text: str, heading: int | None = None) -> None:
    """Show `text` in a polite live region (see status_html)."""
    st.html(status_html(text, heading))
