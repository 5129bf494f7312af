"""The app's own stylesheet, injected once per run by app.py: a constant, never content text.

- Korean breaks between words, not inside them ("추정하나/요?" was split mid-word): `word-break:
  keep-all` keeps a Korean word whole at a line end, `overflow-wrap: anywhere` still breaks a
  single over-long token (a URL, an id) rather than letting it overflow a phone screen.
  `!important` because Streamlit sets `word-break: break-word` on each paragraph itself. Popovers
  and (?) tooltips live outside `.stApp` (`PORTALS`) and get the same rule. A static table's cells
  (`st.table`) set `overflow-wrap: normal` themselves, so an engine setting's name
  (`gpu_memory_utilization`) held the how page's constants table 70 px wider than a 390 px phone and
  its source column was cut off: a table in a `BREAK_LAST_KEY` container breaks its last column's long
  tokens (that column only: on every column, "1,117 GB/s" broke as "1,11 / 7 GB/ s"); on a Korean page
  that column keeps 6em, or the layout squeezed it to five characters and split "프롬프트가" mid-word.
- `<html lang>` follows the page's language (declare_language): Streamlit writes `lang="en"` into
  its index.html and offers no setting (streamlit/streamlit#15726), so a one-line script sets it on
  every run, in a container this stylesheet hides.
- Captions carry real content here (sources, what a number means), so they are the palette's muted
  ink (latency/charts/style.py INK_MUTED, 7.6:1 on white) at full opacity instead of Streamlit's
  caption grey (its text colour at 60 % opacity: #828180, 3.9:1); the theme's primaryColor (.streamlit/config.toml) is dark enough for the
  selected segmented control and pills (6.1:1 on their tinted background).
- Keyboard focus shows as a 3 px ring in the palette's FOCUS blue on every control the app can
  style: links (sidebar and page links), buttons, tabs, sliders, inputs, selects and the highlighted
  option of an open one, radios (their hidden input's label); the current page's sidebar link has a
  bar and bold text, not only Streamlit's faint background (WCAG 2.4.7, 2.4.11, 1.4.11).
- An unchosen radio's ring is slate-500 (CONTROL_EDGE, 4.8:1): Streamlit draws it in its ink at 20 %
  (1.5:1), below the 3:1 a control's edge needs (WCAG 1.4.11; presenter trial 2026-12-05: the myth
  step's choices were faint dots on a projector).
- A polite status line (ui/announce.py, the Feel-it result) looks like the caption it replaced.
- The explorer pages' input columns stack when there is no room for them (issue 23 item 6): at
  768 px the estimator's inputs beside its charts and the trade-off page's three input columns
  clipped labels and the precision select mid-character. A viewport media query cannot tell
  whether the sidebar is open (at 1024 px it leaves the page 564 px, less than a 768 px tablet's
  736 px), so it is a container query on the keyed container's own width: below STACK_BELOW_PX,
  which is below a viewport of about 1000 px with the sidebar folded and about 1100 px with it
  open. Only a column row directly in a container keyed STACK_KEY + name stacks (nested rows, such
  as metrics side by side, and every other row, such as the lesson's back/next buttons, keep
  Streamlit's own behaviour).
- Reduced motion (WCAG 2.3.3): where the reader's system asks for it (prefers-reduced-motion:
  reduce), nothing the app or Streamlit draws animates or slides: running indicators, skeletons,
  expanders, tabs, hover and focus transitions end at once (0.01 ms, once, so an animation's end
  state, and any script waiting for its end, still comes). The Feel-it stream itself is the reader's
  choice (ui/feel_player.py, "show without animation"): the server cannot see that setting.
- Tap targets on a phone (at most PHONE_PX wide) are at least 44 px tall (the guide; learner trial: the
  calculator link 28 px, the quick links 19 px, role chips 32 px, the fold's header 38 px, tabs 40 px, the
  lesson's choices 32 px, "처음부터 다시" 40 px): every button, tab, page link, expander header and radio option
  of the page, and the Markdown links of a container keyed TAP_LINKS_KEY + name (the entry's quick links).
  A (?) help button takes taps 44 px wide as well (16 px drawn; newcomer try at 390 px): a pseudo-element
  reaches 14 px to each side, 28 px to the left at a metric's label, whose (?) sits at its right edge, so
  nothing moves or overflows (a wider box with negative margins wrapped the launch check's metric labels,
  and a pseudo-element past their right edge overflowed them).
- A page link's label wraps instead of ending in "…" (Streamlit cuts it to one line): the
  estimator's answer links are whole sentences.
- Cards (a container keyed `CARD_KEY` + id, the glossary's terms) are one link each: the page
  link's `::after` covers the card (the "stretched link" pattern), so a tap anywhere on it opens
  the entry, and the title is larger than the one-line summary under it.
- The labelled language button (app.py, key LANG_TOP_KEY) shows only on narrow screens, where
  Streamlit folds the sidebar (and its switch) behind an unlabelled icon; it sits in the page
  header's empty right corner, so it takes no room from the page and stays in reach while scrolling.
"""

from __future__ import annotations

import json

import streamlit as st

from latency.charts.style import FOCUS, INK_MUTED, NOFIT, WHITE

CONTROL_EDGE = NOFIT  # slate-500, 4.8:1 on white: an unchosen radio's ring (Streamlit's, its ink at 20 %, was 1.5:1)
from ui.announce import STATUS_CLASS

LANG_TOP_KEY = "app_lang_top"
SCRIPTS_KEY = "scripts_"  # a container keyed scripts_<name> holds scripts only: folded away with its wrapper, no gap
HEAD_KEY = SCRIPTS_KEY + "document_head"  # holds the script that declares the page's language (declare_language)
CARD_KEY = "card_link_"  # a container keyed card_link_<id> is one link: its first page link covers the whole card
NARROW_PX = 768  # Streamlit folds the sidebar away below this width
WRAP_PILLS_KEY = "est_stops_"  # pills keyed est_stops_<input> wrap onto more lines (Streamlit scrolls them sideways, cut at the edge)
TAP_LINKS_KEY = "tap_links_"  # a container keyed tap_links_<name>: its Markdown links are 44 px tall on a phone
PHONE_PX = 640  # at or below this width the page is laid out for a phone: tap targets at least 44 px (the guide)
PINNED_KEY = "est_pinned"  # the estimator's line of two times, pinned to a phone's screen bottom (estimate_view.pinned)
SENTENCE_LINKS_KEY = "sentence_links_"  # a container keyed sentence_links_<name>: its page links are whole sentences, set at text weight; their bold "(switch to this set-up)" is link blue and underlined (the fourth newcomer try: "it looks like bold text, not a link")
BREAK_LAST_KEY = "break_last_"  # a container keyed break_last_<name>: its table's last column breaks long tokens
STACK_KEY = "stack_narrow_"  # a container keyed stack_narrow_<name>: its own column row stacks when it is narrow
STACK_BELOW_PX = 800  # that container's width below which it stacks: 736 px at a 768 px tablet, 564 px at 1024 px beside the sidebar, 906 px at 1366

# Popovers and (?) tooltips are drawn outside .stApp (Base Web's layer at the end of <body>), so
# the Korean rule names them too: without it they broke mid-word at phone width.
PORTALS = '[data-testid="stPopoverBody"], [data-baseweb="popover"], [data-testid="stTooltipContent"]'
PORTAL_ALL = ", ".join(f"{p} *" for p in PORTALS.split(", "))

STYLESHEET = f"""<style>
.stApp, {PORTALS} {{ overflow-wrap: anywhere; }}
.stApp *, {PORTAL_ALL} {{ word-break: keep-all !important; }}
.stApp pre, .stApp pre *, .stApp code {{ word-break: normal !important; }}
.stApp [class*="st-key-{BREAK_LAST_KEY}"] [data-testid="stTable"] td:last-child * {{ overflow-wrap: anywhere !important; }}
html[lang="ko"] .stApp [class*="st-key-{BREAK_LAST_KEY}"] [data-testid="stTable"] td:last-child {{ min-width: 6em; }}
@media (min-width: {NARROW_PX + 1}px) {{ .st-key-{LANG_TOP_KEY} {{ display: none; }} }}
[class*="st-key-{SCRIPTS_KEY}"], [data-testid="stLayoutWrapper"]:has(> [class*="st-key-{SCRIPTS_KEY}"]) {{ display: none; }}
.stApp a:focus-visible, .stApp button:focus-visible, .stApp [role="tab"]:focus-visible,
.stApp input:focus-visible, .stApp textarea:focus-visible, .stApp [role="slider"]:focus-visible,
.stApp [data-baseweb="select"] > div:focus-within, .stApp label:has(input:focus-visible),
.stApp [data-testid="stSlider"] div:has(> div > input[type="range"]:focus-visible) {{
  outline: 3px solid {FOCUS} !important; outline-offset: 2px !important; box-shadow: none; }}
.stApp [data-testid="stSlider"] div:has(> div > input[type="range"]:focus-visible) {{ border-radius: 50%; }}
[data-testid="stSidebarNav"] a[aria-current="page"] {{ box-shadow: inset 4px 0 0 {FOCUS}; font-weight: 700; }}
.stApp label[data-testid="stRadioOption"]:not([data-selected="true"]) > div > div:first-child {{ border-color: {CONTROL_EDGE}; }}
.stApp [role="option"][aria-selected="true"] {{ outline: 2px solid {FOCUS}; outline-offset: -2px; }}
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] *, .{STATUS_CLASS} p {{ color: {INK_MUTED} !important; opacity: 1 !important; }}
.stApp [data-testid="stMetricLabel"] p, .stApp [data-testid="stMetricLabel"] div {{ white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }}
.stApp [data-testid="stMetricDelta"] p, .stApp [data-testid="stMetricDelta"] div {{ white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }}
.stApp [data-testid="stPageLink"] p, .stApp [data-testid="stPageLink"] span {{ white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }}
.stApp [class*="_run_button"] button p {{ white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }}
[class*="st-key-{CARD_KEY}"] {{ position: relative; }}
[class*="st-key-{CARD_KEY}"] [data-testid="stElementContainer"]:has([data-testid="stPageLink"]) {{ position: static; }}
[class*="st-key-{CARD_KEY}"] [data-testid="stPageLink"] a::after {{ content: ""; position: absolute; inset: 0; z-index: 1; }}
[class*="st-key-{CARD_KEY}"] [data-testid="stPageLink"] p {{ font-size: 1.2rem; font-weight: 600; }}
[class*="st-key-{SENTENCE_LINKS_KEY}"] [data-testid="stPageLink"] p {{ font-weight: 400; }}
[class*="st-key-{SENTENCE_LINKS_KEY}"] [data-testid="stPageLink"] strong {{ color: {FOCUS}; text-decoration: underline; text-underline-offset: 2px; }}
[class*="st-key-{CARD_KEY}"]:hover {{ background: rgba(49, 51, 63, 0.04); }}
.{STATUS_CLASS} p {{ font-size: 0.875rem; margin: 0; }}
[class*="st-key-{STACK_KEY}"] {{ container-type: inline-size; }}
@container (max-width: {STACK_BELOW_PX - 0.02}px) {{
  [class*="st-key-{STACK_KEY}"] [data-testid="stHorizontalBlock"]:not([class*="st-key-{STACK_KEY}"] [data-testid="stColumn"] *) {{ flex-wrap: wrap; }}
  [class*="st-key-{STACK_KEY}"] [data-testid="stColumn"]:not([class*="st-key-{STACK_KEY}"] [data-testid="stColumn"] *) {{
    width: 100% !important; flex: 1 1 100% !important; min-width: 100% !important; }} }}
@media (prefers-reduced-motion: reduce) {{ *, *::before, *::after {{
  animation-duration: 0.01ms !important; animation-iteration-count: 1 !important; animation-delay: 0s !important;
  transition-duration: 0.01ms !important; transition-delay: 0s !important; scroll-behavior: auto !important; }} }}
[class*="st-key-{WRAP_PILLS_KEY}"] [data-testid="stButtonGroup"] > div {{ flex-wrap: wrap; overflow-x: visible; }}
.st-key-arrival [data-testid="stButtonGroup"] button {{ min-width: 0; flex: 1 1 0; height: auto; }}
.st-key-arrival [data-testid="stButtonGroup"] button p {{ white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }}
@media (max-width: 640px) {{ [class*="st-key-{WRAP_PILLS_KEY}"] button {{ min-height: 44px; }} }}
[data-testid="stPopoverBody"] {{ max-height: min(75vh, 640px); overflow-y: auto; overscroll-behavior: contain; }}
.st-key-{PINNED_KEY}, [data-testid="stLayoutWrapper"]:has(> .st-key-{PINNED_KEY}) {{ display: none; }}
@media (max-width: {PHONE_PX}px) {{
  [data-testid="stLayoutWrapper"]:has(> .st-key-{PINNED_KEY}) {{ display: block; position: sticky; bottom: 0; z-index: 3; }}
  [data-testid="stMain"]:has(.st-key-{PINNED_KEY}) {{ scroll-padding-bottom: 6rem; }}  /* a control scrolled or tabbed to
     stops above the line, not under it (WCAG 2.2 2.4.11, focus not obscured) */
  .st-key-{PINNED_KEY} {{ display: flex; background: {WHITE}; border-top: 2px solid {FOCUS};
    padding: 0.5rem 0 max(0.6rem, env(safe-area-inset-bottom)) !important; }}
}}
@media (max-width: {PHONE_PX}px) {{
  .stApp [data-testid="stMain"] button, .stApp [data-testid="stMain"] [role="tab"],
  .stApp [data-testid="stMain"] [data-testid="stPageLink"] a, .stApp [data-testid="stMain"] [data-testid="stExpander"] summary,
  .stApp [data-testid="stMain"] [data-testid="stRadio"] label, [data-testid="stPopoverBody"] button,
  [data-testid="stPopoverBody"] [data-testid="stPageLink"] a {{ min-height: 44px; }}
  .stApp [data-testid="stMain"] [data-testid="stTooltipIcon"] [data-testid="stTooltipHoverTarget"] > button:not([data-testid]) {{ position: relative; }}
  .stApp [data-testid="stMain"] [data-testid="stTooltipIcon"] [data-testid="stTooltipHoverTarget"] > button:not([data-testid])::after {{
    content: ""; position: absolute; top: 0; bottom: 0; left: -14px; right: -14px; }}
  .stApp [data-testid="stMain"] [data-testid="stMetricLabel"] [data-testid="stTooltipHoverTarget"] > button:not([data-testid])::after {{
    left: -28px; right: 0; }}
  .stApp [data-testid="stMain"] [data-testid="stPageLink"] a, .stApp [data-testid="stMain"] [data-testid="stExpander"] summary,
  .stApp [data-testid="stMain"] [data-testid="stRadio"] label {{ display: flex; align-items: center; }}
  [class*="st-key-{TAP_LINKS_KEY}"] a {{ display: inline-flex; align-items: center; min-height: 44px; }}
  [data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapseButton"] button {{ min-width: 44px; min-height: 44px; }}
  [data-testid="stSidebarNavLink"] {{ min-height: 44px; }}
  /* learner try at 390 px: the number boxes' - and + were 32 px wide, a toggle's row 21 px tall, the menu's
     language buttons 34 x 32 */
  .stApp [data-testid="stMain"] [data-testid="stNumberInput"] button {{ min-width: 44px; }}
  .stApp [data-testid="stMain"] [data-testid="stCheckbox"] label {{ min-height: 44px; display: flex; align-items: center; }}
  [data-testid="stSidebar"] [data-testid="stButtonGroup"] button {{ min-height: 44px; min-width: 44px; }} }}
.st-key-learn_fold [data-testid="stMarkdownContainer"] :is(p, li) {{ font-size: 0.875rem; line-height: 1.4; }}
.st-key-learn_fold [data-testid="stMarkdownContainer"] :is(p, ul) {{ margin-bottom: 0.35rem; }}
.st-key-learn_fold [data-testid="stMarkdownContainer"] ul {{ padding-left: 1.25rem; }}
.st-key-learn_fold [data-testid="stMarkdownContainer"] li {{ margin: 0 0 0.15rem 0; }}
.st-key-{LANG_TOP_KEY} {{ position: fixed; top: 0.6rem; right: 0.75rem; width: fit-content; z-index: 999991; }}
[data-testid="stFullScreenFrame"]:has([data-testid="stVegaLiteChart"]) [data-testid="stElementToolbar"] {{ display: none; }}
</style>"""
# The last rule: a live chart's toolbar ("Show data", "Download as PNG", "Copy Vega-Lite spec", "Fullscreen") is
# Streamlit's, in English on a Korean page, with a developer's action among them (learner trial 2026-12-05);
# the chart's own numbers are behind its "표로 보기" control (ui/charts.py).


def apply() -> None:
    """Inject the stylesheet (a style-only st.html takes no space on the page)."""
    st.html(STYLESHEET)


# Streamlit draws a Markdown icon (":material/check_circle:", in badges, quiz marks, myth/fact cards) as
# role="img" named "check_circle icon" in English, so a screen reader read "check circle icon 맞습니다" on
# a Korean page. Every such icon stands beside words that say the same, so it is decorative: hidden from
# assistive technology, as Streamlit already hides the icons it draws for an `icon=` parameter. Installed
# once per browser tab (the page's DOM lives on across reruns and page switches), it marks each icon as
# it arrives, batched to one pass per frame.
#
# Streamlit names a widget's (?) button "Help for <label>" in English on every page, so a screen reader
# read "Help for 모델 크기" on a Korean page (WCAG 3.1.2): each such button is renamed from the page's own
# words (common.yaml help_for, set in window.__latencyHelpFor by `declare_language` on every run). The same
# for Streamlit's frame (CHROME): its sidebar buttons, region and navigation, and its skip link, named in English
# on a Korean page ("Expand sidebar"), take the page's words (common.yaml chrome_*, window.__latencyChrome).
HIDE_ICONS_JS = """if (!window.__latencyHideIcons) { window.__latencyHideIcons = true;
  const hide = () => { document.querySelectorAll('[data-testid=stMarkdownContainer] [role=img][translate=no]:not([aria-hidden]), [data-testid=stCaptionContainer] [role=img][translate=no]:not([aria-hidden])')
    .forEach(e => e.setAttribute('aria-hidden', 'true'));
    document.querySelectorAll('[data-testid=stTooltipIcon] [data-testid=stTooltipHoverTarget] > button[aria-label^="Help for "]').forEach(e => {
      const word = window.__latencyHelpFor || 'Help for {label}';
      if (word !== 'Help for {label}') e.setAttribute('aria-label', word.replace('{label}', e.getAttribute('aria-label').slice(9))); });
    for (const [selector, how, name] of (window.__latencyChrome || [])) {
      document.querySelectorAll(selector).forEach(e => {
        if (how === 'text') { if (e.textContent !== name) e.textContent = name; }
        else if (e.getAttribute(how) !== name) e.setAttribute(how, name); }); } };
  let queued = false;
  new MutationObserver(() => { if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; hide(); }); } })
    .observe(document.body, {childList: true, subtree: true, attributes: true, attributeFilter: ['aria-label']});
  hide(); }"""


def _js(value) -> str:
    """A value as a JavaScript literal inside <script>: JSON, with "<" escaped so no text can close the tag."""
    return json.dumps(value).replace("<", "\\u003c")


CHROME = (("[data-testid=stSkipToContent]", "text", "chrome_skip"),
          ("section[data-testid=stSidebar]", "aria-label", "chrome_side"),
          ("[data-testid=stSidebarNav]", "aria-label", "chrome_pages"),
          ("[data-testid=stExpandSidebarButton]", "aria-label", "chrome_open"),
          ("[data-testid=stSidebarCollapseButton] button", "aria-label", "chrome_close"),
          ("[data-testid=stHeaderActionElements] a[href^='#']", "aria-label", "chrome_anchor"))
"""(selector, attribute or "text", common.yaml key): the parts of Streamlit's frame that carry English names."""


def declare_language(lang: str, help_for: str = "Help for {label}", chrome: dict[str, str] | None = None) -> None:
    """Set `<html lang>` to the page's language, so screen readers pick the right voice and the
    browser does not offer to translate Korean "from English" (WCAG 3.1.1); and hide Markdown icons'
    English names from assistive technology (`HIDE_ICONS_JS`).

    `lang` is one of i18n.LANGS (app.py resolves it), never text from the URL; the script is a
    constant apart from that code. st.html runs it (unsafe_allow_javascript, public API); its
    body changes with the language, so Streamlit mounts it afresh, and the script runs, on a switch."""
    with st.container(key=HEAD_KEY):
        names = [[selector, how, chrome[key]] for selector, how, key in CHROME if chrome and key in chrome]
        st.html(f"<script>document.documentElement.lang = {_js(lang)};\nwindow.__latencyHelpFor = {_js(help_for)};\n"
                f"window.__latencyChrome = {_js(names)};\n"
                f"{HIDE_ICONS_JS}</script>", unsafe_allow_javascript=True)
