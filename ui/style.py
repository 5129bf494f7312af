"""The app's own stylesheet, injected once per run by app.py: a constant, never content text.

- Korean breaks between words, not inside them ("추정하나/요?" was split mid-word): `word-break:
  keep-all` keeps a Korean word whole at a line end, `overflow-wrap: anywhere` still breaks a
  single over-long token (a URL, an id) rather than letting it overflow a phone screen.
  `!important` because Streamlit sets `word-break: break-word` on each paragraph itself. Popovers
  and (?) tooltips live outside `.stApp` (`PORTALS`) and get the same rule.
- Cards (a container keyed `CARD_KEY` + id, the glossary's terms) are one link each: the page
  link's `::after` covers the card (the "stretched link" pattern), so a tap anywhere on it opens
  the entry, and the title is larger than the one-line summary under it.
- The labelled language button (app.py, key LANG_TOP_KEY) shows only on narrow screens, where
  Streamlit folds the sidebar (and its switch) behind an unlabelled icon; it sits in the page
  header's empty right corner, so it takes no room from the page and stays in reach while scrolling.
"""

from __future__ import annotations

import streamlit as st

LANG_TOP_KEY = "app_lang_top"
CARD_KEY = "card_link_"  # a container keyed card_link_<id> is one link: its first page link covers the whole card
NARROW_PX = 768  # Streamlit folds the sidebar away below this width

# Popovers and (?) tooltips are drawn outside .stApp (Base Web's layer at the end of <body>), so
# the Korean rule names them too: without it they broke mid-word at phone width.
PORTALS = '[data-testid="stPopoverBody"], [data-baseweb="popover"], [data-testid="stTooltipContent"]'
PORTAL_ALL = ", ".join(f"{p} *" for p in PORTALS.split(", "))

STYLESHEET = f"""<style>
.stApp, {PORTALS} {{ overflow-wrap: anywhere; }}
.stApp *, {PORTAL_ALL} {{ word-break: keep-all !important; }}
.stApp pre, .stApp pre *, .stApp code {{ word-break: normal !important; }}
@media (min-width: {NARROW_PX + 1}px) {{ .st-key-{LANG_TOP_KEY} {{ display: none; }} }}
[class*="st-key-{CARD_KEY}"] {{ position: relative; }}
[class*="st-key-{CARD_KEY}"] [data-testid="stElementContainer"]:has([data-testid="stPageLink"]) {{ position: static; }}
[class*="st-key-{CARD_KEY}"] [data-testid="stPageLink"] a::after {{ content: ""; position: absolute; inset: 0; z-index: 1; }}
[class*="st-key-{CARD_KEY}"] [data-testid="stPageLink"] p {{ font-size: 1.2rem; font-weight: 600; }}
[class*="st-key-{CARD_KEY}"]:hover {{ background: rgba(49, 51, 63, 0.04); }}
.st-key-{LANG_TOP_KEY} {{ position: fixed; top: 0.6rem; right: 0.75rem; width: fit-content; z-index: 999991; }}
</style>"""


def apply() -> None:
    """Inject the stylesheet (a style-only st.html takes no space on the page)."""
    st.html(STYLESHEET)
