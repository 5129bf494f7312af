"""Sections of the lesson page (pages/lesson.py): plain functions taking their data as arguments.

One function per widget kind of content/lesson.yaml (`WIDGETS` maps them), plus the progress header,
the back/next controls, the quiz, the finish screen and presenter mode's stylesheet. Every number
comes from `latency.estimate` through `latency.teaching.lesson` / `latency.teaching.quiz`; every string from
content/ui/lesson.yaml (`s`) or content/lesson.yaml and content/quiz/ (per language).
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import streamlit as st

from latency.exploring import tradeoffs
from latency.teaching import feel, lesson, quiz
from latency.estimation.catalog import Catalog
from latency.charts.lesson import stage_bars, widened
from latency.charts.style import INK
from latency.estimation import scenario as scenario_mod
from latency.estimation.estimator import STAGES
from latency.language.formats import Formats
from latency.language.i18n import Strings, md
from latency.estimation.places import DistanceStop
from ui import announce, charts, feel_player, scenario_inputs
from ui import style as style_

# Presenter mode (?present=1): a constant stylesheet, never built from content. Read from the back
# of a room at 1920x1080 and 1366x768 (issue 25 item 7): body 30 px, step titles 44 px, every other
# text (captions, progress, code, slider values, alerts) at least 24 px in the palette's ink (latency/charts/style.py INK,
# 10.4:1 on white, WebAIM contrast checker) at full opacity instead of the theme's pale grey (a
# caption is drawn at opacity 0.6); icons and radio circles
# scaled with the text; Streamlit's shortcut badge (a <kbd> after the label) hidden, so the arrow
# icons stand before "back" and after "next" alone; no sidebar and no floating language button.
# Every step fits one screen without scrolling (tests/e2e/test_presenter_readable.py): no page
# header, thin padding, half Streamlit's gap between elements, the step in two columns
# (projected_step), the controls in one row above it and one below (BAR_KEY, FOOT_KEY). On a
# screen at most 900 px high (1366x768) the body is 24 px and the titles 36 px: the same share of
# the screen's height as 34 and 51 px at 1080 (a 768-line image is enlarged 1.4 times on the same
# projector), so it reads larger from the back than 30 px at 1920x1080, and it leaves the step room.
BAR_KEY = "lesson_present_bar"    # presenter mode's top row: back, progress and plain words, next
FOOT_KEY = "lesson_present_foot"  # and its menu in that row: the room button, the way out, the keys
COLS_KEY = "lesson_present_cols"  # the projected step's two columns (closer lines on a 768-line screen)
STOPS_KEY = "lesson_present_stops"  # the projected slider's row of every stop's name, under its track
BELOW_KEY = "lesson_present_below"  # the projected step's full-width row under its columns (the feel step's answer)
PRESENT_CSS = """<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stSidebarNav"],
[data-testid="stExpandSidebarButton"], [data-testid="stHeader"], .st-key-app_lang_top { display: none !important; }
[data-testid="stMainBlockContainer"] { max-width: 1800px; padding: 0.5rem 2rem 0.25rem !important; }
[data-testid="stMain"] [data-testid="stVerticalBlock"] { gap: 0.5rem; }
[data-testid="stMain"] label[data-testid="stRadioOption"] > div > div:first-child { width: 28px; height: 28px; border-width: 2px; }
[data-testid="stMain"] label[data-testid="stRadioOption"] > div > div:first-child > div { width: 10px; height: 10px; }
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] li,
[data-testid="stMain"] [data-testid="stWidgetLabel"] p,
[data-testid="stMain"] [data-testid="stExpander"] summary p { font-size: 30px !important; line-height: 1.45 !important; }
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stCaptionContainer"] p,
[data-testid="stMain"] .__STATUS__ p,
[data-testid="stMain"] [data-testid="stProgress"] p,
[data-testid="stMain"] [data-testid="stImageCaption"],
[data-testid="stMain"] [data-testid="stSliderThumbValue"],
[data-testid="stMain"] [data-testid="stSliderTickBarMin"],
[data-testid="stMain"] [data-testid="stSliderTickBarMax"],
[data-testid="stMain"] code,
[data-testid="stMain"] [data-testid="stTable"] th,
[data-testid="stMain"] [data-testid="stTable"] td { font-size: 24px !important; color: __INK__ !important; opacity: 1 !important; }
[data-testid="stMain"] h1 { font-size: 44px !important; line-height: 1.25 !important; padding: 0 0 0.2em !important; }
[data-testid="stMain"] h2 { font-size: 44px !important; line-height: 1.25 !important; padding: 0 0 0.2em !important; }
[data-testid="stMain"] [data-testid="stAlertContainer"] { padding-top: 0.6rem; padding-bottom: 0.6rem; }
[data-testid="stMain"] h3 { font-size: 36px !important; }
[data-testid="stMain"] [data-testid="stMetricValue"],
[data-testid="stMain"] [data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p { font-size: 52px !important; }
[data-testid="stMain"] [data-testid="stBaseButton-primary"],
[data-testid="stMain"] [data-testid="stBaseButton-secondary"] { min-height: 84px; padding: 0.4em 1.6em; }
[data-testid="stMain"] [data-testid="stBaseButton-primary"] p,
[data-testid="stMain"] [data-testid="stBaseButton-secondary"] p { font-size: 34px !important; }
[data-testid="stMain"] [data-testid="stPopoverButton"] { min-height: 84px; padding: 0.4em 1.2em; }
/* a step's choices (segmented control): room around their 30 px words (newcomer trial 2026-12-05: the text touched
   the borders) */
[data-testid="stMain"] [data-testid="stButtonGroup"] button { min-height: 56px !important; height: auto !important; padding: 6px 14px !important; }
[data-testid="stMain"] [data-testid="stPopoverButton"] [data-testid="stMarkdownContainer"] { margin-right: 0.5em; }
[data-testid="stMain"] button kbd { display: none !important; }
[data-testid="stMain"] [data-testid="stIconMaterial"] { font-size: 34px !important; }
[data-testid="stMain"] [data-testid="stRadio"] label > div:first-child { transform: scale(1.6); margin-right: 0.6em; }
[data-testid="stMain"] [data-testid="stSlider"] [data-testid="stWidgetLabel"] { margin-bottom: 4px; }
[data-testid="stMain"] [data-testid="stSliderTickBar"],
[data-testid="stMain"] [data-testid="stSliderThumbValue"] { display: none !important; }
.st-key-__STOPS__ p { font-size: 24px !important; line-height: 1.3 !important; }
.st-key-__STOPS__ button { min-height: 0; padding: 0 0.1em; }
.st-key-__STOPS__ button:not(:has(strong)) p { font-weight: 400; }
[data-testid="stMain"] [data-testid="stCaptionContainer"] p { line-height: 1.4 !important; }
.st-key-__FOOT__ [data-testid="stBaseButton-secondary"] { min-height: 48px; padding: 0.1em 0.9em; }
.st-key-__FOOT__ [data-testid="stBaseButton-secondary"] p, .st-key-__FOOT__ [data-testid="stPageLink"] p { font-size: 24px !important; }
.st-key-__FOOT__ [data-testid="stIconMaterial"] { font-size: 28px !important; }
.st-key-__BAR__ [data-testid="stBaseButton-primary"], .st-key-__BAR__ [data-testid="stBaseButton-secondary"] { min-width: 11em; }
@media (max-height: 900px) {
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] li,
[data-testid="stMain"] [data-testid="stWidgetLabel"] p,
[data-testid="stMain"] [data-testid="stExpander"] summary p { font-size: 24px !important; line-height: 1.32 !important; }
.st-key-__COLS__ [data-testid="stVerticalBlock"] { gap: 0.35rem; }
[data-testid="stMainBlockContainer"] { padding-top: 0.25rem !important; padding-bottom: 0 !important; }
[data-testid="stMain"] [data-testid="stCaptionContainer"] p { line-height: 1.3 !important; }
[data-testid="stMain"] h1, [data-testid="stMain"] h2 { font-size: 36px !important; }
[data-testid="stMain"] [data-testid="stMetricValue"],
[data-testid="stMain"] [data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p { font-size: 36px !important; }
[data-testid="stMain"] [data-testid="stBaseButton-primary"],
[data-testid="stMain"] [data-testid="stBaseButton-secondary"],
[data-testid="stMain"] [data-testid="stPopoverButton"] { min-height: 60px; }
[data-testid="stMain"] [data-testid="stBaseButton-primary"] p,
[data-testid="stMain"] [data-testid="stBaseButton-secondary"] p { font-size: 28px !important; }
[data-testid="stMain"] [data-testid="stIconMaterial"] { font-size: 28px !important; }
}
</style>""".replace("__INK__", INK).replace("__STATUS__", announce.STATUS_CLASS).replace("__BAR__", BAR_KEY).replace("__FOOT__", FOOT_KEY).replace("__COLS__", COLS_KEY).replace("__STOPS__", STOPS_KEY)  # the palette's ink (latency/charts/style.py); the polite result line


@dataclass(frozen=True)
class Data:
    """What the sections need besides the strings: catalogs, distance stops, language, number
    formats, mode, and the time source of the "feel" step (the page passes time.sleep/monotonic)."""

    catalog: Catalog
    stops: tuple[DistanceStop, ...]
    lang: str
    f: Formats
    present: bool
    sleep: Callable[[float], None]
    clock: Callable[[], float]
    side: Any = None  # presenter mode: the container beside the chart where a step's numbers go (projected_step)
    below: Any = None  # presenter mode: the container under both columns (the feel step's answer)
    follow: Mapping[str, Any] | None = None  # a room's phone: the presenter's choice on each step, drawn (`follow_choice`)
    share: Callable[[str, Any], None] | None = None  # a room's presenter: keeps the step's choice for the phones


def numbers(d: Data):
    """Where a step's times, cost and their notes go: beside the chart on the projected screen
    (under the step's text, which leaves the chart's column room for the chart), else in place."""
    return d.side if d.side is not None else contextlib.nullcontext()


def bold_only(text: str) -> str:
    """Content text shown literally except its **bold**: links, HTML and other Markdown stay text."""
    return md(text).replace("\\*\\*", "**")


def stage_names(s: Strings, prefix: str = "stage_") -> dict[str, str]:
    return {k: s(f"{prefix}{k}") for k in STAGES}


def option_label(s: Strings, step: lesson.Step, option: Any, d: Data, button: bool = False) -> str:
    """How a step's option reads on screen: a model or device name, a place, a count. `button`: on a choice
    button, a chip by its name without the catalog's details ("Apple M4 Max · 노트북 칩"), so six fit a phone."""
    if step.widget == "model":  # a button: the size alone ("405B"), so the four fit one row of a phone
        label = d.catalog.models[option].label(d.lang)
        return label.split()[-1] if button else label
    if step.widget == "hardware":  # the chip with its plain class, as on the explorer pages ("노트북 칩")
        name = lesson_chip(d.catalog.hardware[option].label(d.lang))
        kind = scenario_inputs.hardware_class(d.catalog, d.lang, option)
        return s("hardware_pill", name=chip_name(name), kind=kind) if button else s("hardware_short", name=name, kind=kind)
    if step.widget == "distance":  # a button or a bar: the place's short name ("미국 서부"), the step says "from Seoul"
        stop = next(x for x in d.stops if x.id == option)
        return s("distance_km", name=(stop.short if button else stop.label)[d.lang], km=d.f.km(stop.km))
    if step.widget == "users":
        return d.f.count(option, "users")
    if step.widget == "timeline":
        return d.f.count(option, "tokens")
    if step.widget == "feel":
        return d.f.seconds(option)
    if step.widget == "stages":
        return s(f"stage_{option}")
    myth = step.options[option] if isinstance(option, int) else option  # the myths step's choice is a position
    return md(myth.myth[d.lang])


def stop_name(s: Strings, step: lesson.Step, option: Any, d: Data) -> str:
    """An option as the projected slider's row of stops names it, shortest: the chip ("L4"), the place ("도쿄")."""
    if step.widget == "hardware":
        return chip_name(d.catalog.hardware[option].label(d.lang))
    if step.widget == "distance":
        return next(x for x in d.stops if x.id == option).short[d.lang]
    return option_label(s, step, option, d, button=True)


def lesson_chip(label: str) -> str:
    """A chip as the lesson's sentences name it: the catalog's name without its board or server ("NVIDIA H100 SXM"
    -> "NVIDIA H100", "NVIDIA B200 (HGX/DGX)" -> "NVIDIA B200"). SXM and HGX/DGX say how a GPU is mounted, which
    no step is about, and a newcomer presenter could not say what they mean (trial 2026-12-05)."""
    return re.sub(r" (SXM|PCIe)$", "", label.split(" (")[0])


def chip_name(label: str) -> str:
    """A chip as a button names it: the lesson's name (`lesson_chip`) without maker or memory size ("NVIDIA A100
    80GB SXM" -> "A100"), so two fit a phone's row; the step's caption below names it in full."""
    return re.sub(r" \d+GB$", "", re.sub(r"^(NVIDIA|Apple|AMD) (GeForce )?", "", lesson_chip(label)))


def precision_label(sc: lesson.Scenario, d: Data) -> str:
    """The weights' format the set-up runs in: the model's default where the step names none, so the 405B model
    is FP8 where the 8B and 70B are FP16 (learner trial 2026-12-06: the calculator's 405B at FP16 needed 16 H100s
    where the lesson said eight, and no screen of the lesson named the format)."""
    return d.catalog.precisions[sc.values(d.catalog)["precision"]].label(d.lang)


def unusual_precision(sc: lesson.Scenario, d: Data) -> str:
    """After the model's name, " · " and the weights' format where it is not the calculator's default, which the
    reader would meet there (the 405B model's FP8); "" otherwise: the projected line wrapped at 1366 px with
    "FP16 / BF16 (16-bit)" on every step (tests/e2e/test_room_fits.py)."""
    if sc.values(d.catalog)["precision"] == scenario_mod.DEFAULTS["precision"]:
        return ""
    return f" · {precision_label(sc, d)}"


def step_precisions(step_: lesson.Step, d: Data) -> str:
    """Every weights' format a step's set-ups can show, for the plain words above it (FP8 is named in the
    scenario line when the 405B model is chosen)."""
    scs = [lesson.vary(step_, o, d.catalog, d.stops) for o in step_.options] if lesson.VARIED.get(step_.widget) else []
    return ", ".join(dict.fromkeys(precision_label(x, d) for x in [step_.scenario, *scs]))


def scenario_caption(s: Strings, sc: lesson.Scenario, est, d: Data) -> None:
    """The example's set-up, every input named (the weights' format too: an input the chart does not show)."""
    stop = next((x for x in d.stops if x.id == sc.distance_stop), None)
    where = stop.label[d.lang] if stop else d.f.km(sc.distance_km)
    users = s("scenario_users", users=d.f.count(sc.users, "users")) if sc.users > 1 else ""  # an input the chart does not show
    # projected: without "every number is this app's estimator's" (a line of a 768-line screen; the lesson says it)
    st.caption(s("scenario_line_projected" if d.present else "scenario_line", model=d.catalog.models[sc.model].label(d.lang),
                 precision=unusual_precision(sc, d),
                 hardware=lesson_chip(d.catalog.hardware[sc.hardware].label(d.lang)),  # no "(HGX/DGX)", "(40-core GPU, 128GB)", "SXM"
                 devices=d.f.count(est.devices_needed, "devices"), distance=where + users,
                 prompt=d.f.count(sc.prompt_tokens, "tokens"), output=d.f.count(sc.output_tokens, "tokens")))


@st.cache_data(show_spinner=False, max_entries=256)
def _stage_bars_spec(rows, names: Mapping[str, str], x_max: float, axis_title: str, lang: str, present: bool,
                     highlight: str | None, _fmt_s: Callable[[float], str]) -> dict[str, Any]:
    """`stage_bars` as a plain spec, built once per set of bars and language (`_fmt_s`, the language's
    seconds, is not part of the key: `lang` stands for it). Every phone of a room draws the same bars at
    the same moment: built per phone, the plotly figure was about half of each phone's run when the
    presenter moved on to a step, and all of them rerun at once."""
    fig = stage_bars(rows, names=names, x_max=x_max, axis_title=axis_title,
                     fmt_s=_fmt_s, highlight=highlight, font_size=24 if present else 14,
                     legend_columns=3 if present and max(map(len, names.values())) <= SHORT_NAME else 1,
                     labels_above=True,  # each row's name on its own line: at 390 px a name beside its bar was cut
                     label_width_px=PROJECTED_LABEL_PX if present else None)
    spec = fig.to_plotly_json()
    return {"data": spec["data"], "layout": {k: v for k, v in spec["layout"].items() if k != "template"}}


def chart(s: Strings, rows, d: Data, x_max: float, key: str, names: Mapping[str, str] | None = None,
          highlight: str | None = None, note_beside: bool = False) -> None:
    spec = _stage_bars_spec([(label, dict(b)) for label, b in rows], dict(names or stage_names(s)), float(x_max),
                            s("axis_s"), d.f.lang, bool(d.present), highlight, d.f.seconds)
    # No table panel on the projected screen: nothing folded there (the room's phones and the normal
    # lesson have it), and the bars carry their seconds as labels.
    charts.show(charts.Prebuilt(spec), key, alt=charts.alt_text(spec), table=False)
    if not d.present:
        stage_table(s, rows, d, key, names or stage_names(s))
    if widened(rows, x_max):  # the slivers drawn wider so their colour can be found: said right under the chart,
        # on the projected screen too (the chart's column has room under it), unless the step asks for it beside
        # (`note_beside`: its chart column holds more, the cost's source)
        with numbers(d) if note_beside else contextlib.nullcontext():
            st.caption(s("chart_widened") + ("" if d.present else " " + s("chart_widened_table")))


def stage_table(s: Strings, rows, d: Data, key: str, names: Mapping[str, str]) -> None:
    """The chart's numbers as the page prints them, behind the chart's "show as a table" control: a row per stage
    by its name, a column per bar, each time in seconds as the page rounds them and its share of the whole answer,
    and the whole answer last (learner trial: the generic table repeated "이 요청" in every row, raw 0.0299, 9.87)."""
    panel = charts.table_panel(key)
    if panel is None:
        return
    stages = [k for k in names if any(k in b for _, b in rows)]
    columns = [s("table_stage"), *(label for label, _ in rows)]
    body = [[names[k], *(s("table_cell", time=d.f.seconds(b[k]), pct=d.f.percent(b[k] / sum(b.values()))) for _, b in rows)]
            for k in stages]
    body.append([s("total"), *(d.f.seconds(sum(b.values())) for _, b in rows)])
    charts.show_rows(columns, body, panel)


PROJECTED_LABEL_PX = 600  # a row label wraps at this estimate on the projected chart (label_px overestimates Hangul by about a third; the column is about 520 px at 1366)
SHORT_NAME = 10  # characters: a stage name this short stands in a third of the projected chart's width (three legend columns: one row for three stages, a line of a 768-line screen saved)


def times(s: Strings, est, d: Data, more: Sequence[tuple[str, str]] = ()) -> None:
    """The two times side by side, and `more` metrics (label, value) in the same row."""
    cols = st.columns(2 + len(more))
    cols[0].metric(s("ttft"), d.f.seconds(est.ttft_s))
    cols[1].metric(s("total"), d.f.seconds(est.total_s))
    for col, (label, value) in zip(cols[2:], more):
        col.metric(label, value)


# --- header, controls, style ----------------------------------------------------------------------
SCROLL_SLOT_KEY = style_.SCRIPTS_KEY + "lesson_scroll"


def style(present: bool) -> None:
    """The page's top: presenter mode's stylesheet, and the slot of the scroll-to-top script. The slot
    is drawn on every run, asked or not, so what follows keeps its place on the page. Where one run drew
    the script and the next did not, the whole screen below moved down one place, and a phone in a room
    showed two copies of a step's choices (the old one left over) while its poll reran the page (CI,
    2026-12-05: "resolved to 2 elements")."""
    if present:
        present_style()
    scroll_top_if_asked(st.container(key=SCROLL_SLOT_KEY))


def present_style() -> None:
    st.html(PRESENT_CSS)


def progress_text(s: Strings, number: int, steps: int) -> str:
    """What the bar says: the step as the presenter's screen and the phones count it ("3/8단계"), then the
    quiz and the finish by name. It used to count screens ("3 / 10") beside the room's "3/8단계" for the same
    step (presenter trial 2026-12-05)."""
    if number <= steps:
        return s("step_count", n=number, total=steps)
    return s("quiz_title") if number == steps + 1 else s("to_finish")


def header(s: Strings, number: int, les: lesson.Lesson) -> None:
    st.progress(number / lesson.screens(les), text=progress_text(s, number, len(les.steps)))


def go(param: str) -> None:
    """Back/next: the screen lives in the URL (?step=), so a copied link resumes here."""
    st.query_params["step"] = param
    ask_scroll_top()


SCROLL_KEY = "lesson_scroll_top"
# A constant script (no content, no input in it): the browser keeps the scroll position across a
# rerun, so the next step opened scrolled down with its title off screen (issue 25 item 8).
SCROLL_TOP_JS = ("<script>/*{n}*/for (const el of [document.querySelector('[data-testid=stMain]'), "
                 "document.scrollingElement]) {{ if (el) el.scrollTo(0, 0); }}</script>")


def ask_scroll_top() -> None:
    """The next run opens its screen at the top (a new step, a room that moved on)."""
    st.session_state[SCROLL_KEY] = st.session_state.get(SCROLL_KEY, 0) + 1


def scroll_top_if_asked(where) -> None:
    """Scrolls to the top when `ask_scroll_top` asked for it, in `where`: a container drawn on every
    run, folded away (`style`), so the script never moves what follows it. The counter in the script
    makes it a new element each time, so the browser runs it again."""
    n = st.session_state.get(SCROLL_KEY, 0)
    if n and st.session_state.get(SCROLL_KEY + "_done") != n:
        st.session_state[SCROLL_KEY + "_done"] = n
        where.html(SCROLL_TOP_JS.format(n=int(n)), unsafe_allow_javascript=True)


def controls(s: Strings, les: lesson.Lesson, number: int, d: Data):
    """Back and next (keyboard ← → in presenter mode, Streamlit's public `shortcut`). In presenter
    mode they are one row at the top with room between them for the progress and the plain words:
    the returned container (None otherwise)."""
    total = lesson.screens(les)
    n = len(les.steps)
    middle = None
    if d.present:
        with st.container(horizontal=True, vertical_alignment="center", gap="medium", key=BAR_KEY):
            back = st.container(width="content")
            middle = st.container(horizontal=True, vertical_alignment="center", gap="medium")
            nxt = st.container(width="content")
    else:
        back, _, nxt = st.columns([1, 2, 1])
    # The arrow stands before "back" and after "next"; presenter mode's stylesheet hides the key
    # badge Streamlit adds after the label for a shortcut (it doubled the arrow, "이전 ← ←").
    if number > 1:
        back.button(s("back"), key="lesson_back", on_click=go, args=(lesson.screen_param(number - 1, les),),
                    icon=":material/arrow_back:", width="stretch", shortcut="Left" if d.present else None)
    if number < total:
        label = s("to_quiz") if number == n else s("to_finish") if number == n + 1 else s("next")
        # on the quiz screen "finish" is the secondary button: "mark my answers" is the one to press first (learner
        # trial 2026-12-05: two full-width blue buttons, and "finish" could be pressed without marking)
        nxt.button(label, key="lesson_next", on_click=go, args=(lesson.screen_param(number + 1, les),),
                   type="secondary" if number == n + 1 else "primary",
                   icon=":material/arrow_forward:", icon_position="right", width="stretch",
                   shortcut="Right" if d.present else None)
    return middle


@contextlib.contextmanager
def foot(s: Strings):
    """Presenter mode's own controls (the room button, the way out, the clicker's keys) in a closed menu in
    the top row, as a room's presenter has them: a row of their own under the step pushed most steps past a
    1366 x 768 screen. No tooltip (it would show on the projector)."""
    box = st.container(key=FOOT_KEY, width="content")
    with box.popover(s("room_menu"), icon=":material/more_vert:"):
        yield
        st.caption(s("present_keys"))


def present_link(s: Strings, param: str, d: Data) -> None:
    query = {"step": param, "lang": d.lang}
    if not d.present:
        query["present"] = "1"
    st.page_link("pages/lesson.py", label=s("present_off") if d.present else s("present_on"),
                 icon=":material/co_present:", query_params=query)


def screen_heading(text: str, d: Data) -> None:
    """A screen's own title: under the page's h1 in the lesson, the h1 itself in presenter mode, which
    shows no page title (issue 34 item 7: a projected screen's headings started at h2). Presenter mode's
    stylesheet draws that h1 at the h2's size, so the step still fits one screen."""
    (st.title if d.present else st.header)(text, anchor=False)


# --- one step -----------------------------------------------------------------------------------
def step(s: Strings, step_: lesson.Step, number: int, d: Data, notes: bool = True) -> None:
    """One step. Its speaker notes are in the page's one small "발표하기" menu at the bottom (`presenter_menu`),
    out of a lone learner's way (learner trial: "발표자 노트" on every step confused a learner alone); never on a
    projected screen (presenter mode) or a room's phones: the presenter reads them in the notes view (?notes=1)."""
    if d.present:
        projected_step(s, step_, d)
        return
    st.header(md(step_.title[d.lang]), anchor=False)  # the progress bar above says the step's number
    st.markdown(bold_only(step_.body[d.lang]))
    interaction(s, step_, d)
    st.success(f"**{s('takeaway')}:** {md(step_.takeaway[d.lang])}", icon=":material/lightbulb:")


def presenter_menu(s: Strings, step_: lesson.Step | None, param: str, d: Data,
                   room_entry: Callable[[], None] | None = None) -> None:
    """What only a presenter needs, in one small menu at the page's end: the step's speaker notes, the way
    into presenter mode and, on the first step, `room_entry` (open a room for an audience with phones). A
    learner alone reads past one small button instead of a presenter's box above the step."""
    with st.popover(s("present_menu"), icon=":material/co_present:", width="content"):
        st.caption(s("present_menu_intro"))
        if room_entry is not None:
            room_entry()
        if step_ is not None:
            st.markdown(f"**{s('notes')}**  \n{md(step_.notes[d.lang])}")
        present_link(s, param, d)
        if not d.present:  # what it is beside the room (newcomer trial 2026-12-05: two ways in, no difference said)
            st.caption(s("present_on_help"))


@st.fragment
def projected_step(s: Strings, step_: lesson.Step, d: Data) -> None:
    """A step on the projected screen, whole on one screen at 1920x1080 and 1366x768 (issue 25 item
    7): its words (title, body, takeaway) on the left, its interaction on the right. One column
    stacked the title, the text, the input, the chart, the times and the takeaway 1.4 to 1.8 screens
    high. No step number above the title (the progress bar above says it). A fragment, as the
    interaction is in the normal lesson: moving its input redraws this step only."""
    words, live = st.container(key=COLS_KEY).columns([11, 10], gap="medium")
    with words:
        screen_heading(md(step_.title[d.lang]), d)
        st.markdown(bold_only(step_.body[d.lang]))
        side = st.container()  # the times (and cost) of the steps that show them: `numbers`
        st.success(f"**{s('takeaway')}:** {md(step_.takeaway[d.lang])}", icon=":material/lightbulb:")
    below = st.container(key=BELOW_KEY)
    with live:
        follow_choice(step_, d)
        WIDGETS[step_.widget](s, step_, dataclasses.replace(d, side=side, below=below))
        share_choice(step_, d)


def notes_only(s: Strings, les: lesson.Lesson, number: int, d: Data) -> None:
    """The notes view of a presenter without a room (?notes=1&step=N): that step's title and notes."""
    st.title(s("notes_title", n=number, total=lesson.screens(les)), anchor=False)  # the view's only heading: h1
    if number <= len(les.steps):
        st.caption(md(les.steps[number - 1].title[d.lang]))
        st.markdown(md(les.steps[number - 1].notes[d.lang]))
    else:
        st.markdown(s("notes_none"))


@st.fragment
def interaction(s: Strings, step_: lesson.Step, d: Data) -> None:
    """The step's one interaction; a fragment, so moving its widget reruns only this part."""
    follow_choice(step_, d)
    own_choice_note(s, step_, d)  # above the choice the phone just tapped (at the foot of the step it was off screen)
    WIDGETS[step_.widget](s, step_, d)
    share_choice(step_, d)


OWN_CHOICE_WIDGETS = ("model", "hardware", "distance", "users", "timeline", "feel", "stages", "myths")


def own_choice_note(s: Strings, step_: lesson.Step, d: Data) -> None:
    """A room's phone that tried a choice of its own says which one the shared screen shows, and that it
    follows the presenter's next change (presenter trial 2026-12-05: a phone on 256 tokens showed 2 s beside
    the wall's 0.47 s on 50 tokens, with no sign that the two differed)."""
    if d.follow is None or d.share is not None or step_.widget not in OWN_CHOICE_WIDGETS:
        return
    room = d.follow.get(step_.id)
    if room in choices_of(step_) and st.session_state.get(widget_key(step_)) != room:
        value = option_label(s, step_, room, d, button=True)
        # a myth is a sentence: quoted, so the note's own sentence reads around it (re-check 2026-12-05: no note there)
        st.info(s("room_own_choice", value=f"“{value.rstrip('.')}”" if step_.widget == "myths" else value), icon=":material/cast:")


def widget_key(step_: lesson.Step) -> str:
    return f"lesson_w_{step_.id}"


def choices_of(step_: lesson.Step) -> list:
    """The values the step's widget takes: its options, or the myths' positions in their list."""
    return list(range(len(step_.options))) if step_.widget == "myths" else list(step_.options)


def seed(step_: lesson.Step, first: Any) -> None:
    """The widget's first choice through its state, not a `default=`: a default beside a value set by
    `follow_choice` is Streamlit's "set via the Session State API" warning, and coming back to a step
    whose choice was kept, the widget was drawn at its default while the chart used the kept choice
    (presenter re-check 2026-12-05)."""
    if st.session_state.get(widget_key(step_)) not in choices_of(step_):
        st.session_state[widget_key(step_)] = first


FOLLOWED_KEY = "lesson_followed"  # per step: the room's choice this view saw last
SHARED_KEY = "lesson_shared"  # per step: the choice this view (a presenter's) wrote to the room last
SHOWN_KEY = "lesson_step_shown"  # the step whose widget the last run drew (`follow_choice`)
SET_KEY = "lesson_set_from_room"  # per step: (value before, value set, when) of the room's last choice set here
STALE_S = 10.0  # how long a request carrying the value before may still be one that left before the set arrived


def follow_choice(step_: lesson.Step, d: Data) -> None:
    """A room's phone draws the step at the presenter's choice each time the presenter makes a new one
    (the wall showed 8B and the phones 405B: two charts for one step); between those, the phone may try
    other choices of its own.

    "A new one" is a room's choice that differs from the one this view saw last (FOLLOWED_KEY) and is not
    the one this view wrote itself (SHARED_KEY, the presenter's), rather than one that differs from what the
    widget shows: `d.follow` is read once per full run, and a fragment's reruns (a tap on the step's own
    widget) keep the copy of their full run. Compared with the widget's own last value, the presenter's
    second change on a step the room had come back to found the run's older copy "new" and drew it again,
    so every second change snapped back, on the wall and every phone (presenter re-check 2026-12-05)."""
    appearing = st.session_state.get(SHOWN_KEY) != step_.id  # the step was not on this screen the run before
    st.session_state[SHOWN_KEY] = step_.id
    if d.follow is None or step_.id not in d.follow or d.follow[step_.id] not in choices_of(step_):
        return
    value, seen = d.follow[step_.id], dict(st.session_state.get(FOLLOWED_KEY, {}))
    news = seen.get(step_.id) != value and st.session_state.get(SHARED_KEY, {}).get(step_.id) != value
    # Back on a step (PageUp), its widget appears anew: Streamlit had dropped its value and the browser sent an
    # old one, so the wall drew 0 km while the room's choice was 22 km (presenter trial 2026-12-05): the room's.
    # A value set from the server races the poll: a request that left before the set reached the browser carries
    # the widget's value from before it back, and the server took that as the phone's own choice (the phone drew
    # the presenter's new button over the old choice's chart; the question picker's race, 2026-12-07). Drawing
    # the widget under a new key instead left the old row of choices on the phone for 30 s (reverted, 8d6dc7a).
    # So a run that brings back exactly the value from before, while no run since the set has carried the set
    # value (the browser's acknowledgement, within the poll's 0.5 s), is that stale request: the set holds.
    sets = st.session_state.get(SET_KEY, {})
    wkey = widget_key(step_)
    if appearing or news:
        st.session_state[SET_KEY] = {**sets, step_.id: (st.session_state.get(wkey), value, time.monotonic())}
        st.session_state[wkey] = value
    elif step_.id in sets:  # only while a set waits for the browser: a poll's run otherwise writes nothing here
        before, set_to, when = sets[step_.id]
        now = st.session_state.get(wkey)
        if now == before and now != set_to and time.monotonic() - when < STALE_S:
            st.session_state[wkey] = set_to
        else:  # acknowledged (the set value came back), or a choice of the phone's own: the set is done
            st.session_state[SET_KEY] = {k: v for k, v in sets.items() if k != step_.id}
    if seen.get(step_.id) != value:
        seen[step_.id] = value
        st.session_state[FOLLOWED_KEY] = seen


def share_choice(step_: lesson.Step, d: Data) -> None:
    """A room's presenter: the step's choice, as drawn, kept for the phones (`Data.share`); remembered, so the
    next run does not take the room's copy of it for a new choice (`follow_choice`)."""
    value = st.session_state.get(widget_key(step_))
    if d.share is not None and value in choices_of(step_):
        d.share(step_.id, value)
        st.session_state[SHARED_KEY] = {**st.session_state.get(SHARED_KEY, {}), step_.id: value}


def timeline(s: Strings, step_: lesson.Step, d: Data) -> None:
    """Restaurant analogy: the answer length (dishes) stretches the serving part of the timeline."""
    # Buttons, not a slider: every choice is named on a phone (a slider's end labels ran into its thumb's value).
    seed(step_, step_.scenario.output_tokens if step_.scenario.output_tokens in step_.options else step_.options[1])
    n = st.segmented_control(s("timeline_label"), list(step_.options), required=True,
                             format_func=lambda v: d.f.count(v, "tokens"), key=widget_key(step_), width="stretch")
    sc = lesson.vary(step_, n, d.catalog, d.stops)
    est = sc.run(d.catalog)
    chart(s, [(s("rest_row"), est.breakdown)], d, lesson.axis_max(step_, d.catalog, d.stops), f"lesson_c_{step_.id}",
          names=stage_names(s, "rest_"))
    with numbers(d):
        times(s, est, d)
    scenario_caption(s, sc, est, d)


def feel_step(s: Strings, step_: lesson.Step, d: Data) -> None:
    """Pick a wait, press Ask: the sample answer starts after exactly that long (latency.teaching.feel pacing)."""
    seed(step_, step_.options[0])
    wait = st.segmented_control(s("feel_label"), list(step_.options), required=True,
                                format_func=d.f.seconds, key=widget_key(step_), width="stretch")
    est = step_.scenario.run(d.catalog)
    st.caption(s("feel_pace", model=d.catalog.models[step_.scenario.model].label(d.lang),
                 hardware=lesson_chip(d.catalog.hardware[step_.scenario.hardware].label(d.lang)),
                 tps=d.f.tps_per_user(est.decode_tokens_per_s)))
    # reduced motion; no help icon: Streamlit names it "Help for ..." in English on a Korean page
    still = st.toggle(s("feel_still"), key=f"lesson_still_{step_.id}")
    # the answer plays ABOVE the button, where the eye already is: under it, on a phone the button sat at the
    # screen's bottom edge and nothing in view changed for the whole wait (learner trial 2026-12-05, 390 px)
    here = st.container(key=f"lesson_feel_out_{step_.id}")
    if st.button(s("feel_button"), key=f"lesson_ask_{step_.id}", icon=":material/send:", type="primary"):
        sample = feel.load_samples()[d.lang]
        tokens, pace = feel.split_tokens(sample.answer, sample.chars_per_token), feel.Pace(float(wait), est.decode_tokens_per_s)
        # On the projected screen the answer streams under both columns, the screen's whole width:
        # under the button, half as wide, it ran 150 to 220 px below a 768 px screen.
        if d.below is None:
            # the button, under the answer's place, to the screen's middle: the wait and the answer in view on a phone
            # (the answer's own container is not drawn until it has something in it)
            feel_player.scroll_into_view(f"lesson_ask_{step_.id}")
        with d.below if d.below is not None else here:
            if still:
                feel_player.show_still(s, d.f, tokens, pace)
            else:
                feel_player.play_one(s, d.f, feel.plan(tokens, pace), float(wait), sleep=d.sleep, clock=d.clock)


def stages_step(s: Strings, step_: lesson.Step, d: Data) -> None:
    """Pick a stage: it lights up in the request's bar, with what sets it and its share."""
    seed(step_, step_.options[0])
    pick = st.segmented_control(s("stage_label"), list(step_.options), required=True,
                                format_func=lambda v: s(f"stage_{v}"), key=widget_key(step_), width="stretch")
    est = step_.scenario.run(d.catalog)
    # what the stage is and its share right under the buttons, so a tap changes what is in view (learner trial:
    # on a phone the chart that lit the stage up was below the screen, and nothing seemed to happen)
    st.markdown(f"**{s(f'stage_{pick}')}**: {s(f'stage_text_{pick}')}  \n"
                + s("stage_share", stage=s(f"stage_{pick}"), time=d.f.seconds(est.breakdown[pick]),
                    pct=d.f.percent(est.breakdown[pick] / est.total_s)))
    chart(s, [(s("stages_row"), est.breakdown)], d, est.total_s * 1.05,
          f"lesson_c_{step_.id}", highlight=pick)
    scenario_caption(s, step_.scenario, est, d)


def vary_step(s: Strings, step_: lesson.Step, d: Data) -> None:
    """Model, hardware, distance or users: one input over the step's options; start vs choice."""
    options = list(step_.options)
    start = lesson.start_option(step_)
    # The choices as buttons, each named (a slider named only its two ends, and they ran into its thumb's
    # value on a phone); the last, the far end of the step's range, is chosen first, so the change shows at once.
    # On the projected screen (1366 px and wider) a slider keeps the step on one screen; it names every stop there.
    key = widget_key(step_)
    seed(step_, options[-1])
    if d.present:
        choice = st.select_slider(s(f"{step_.widget}_label"), options=options,
                                  format_func=lambda v: option_label(s, step_, v, d, button=True), key=key, width="stretch")
        # every stop named under the track, the chosen one in bold, in place of the value over the thumb (PRESENT_CSS):
        # the slider named only its two ends, and at 1366 x 768 those ran under the chart's legend (presenter trial
        # 2026-12-05: "the room can't see which choices exist")
        # Each name is a text button that chooses it (presenter re-check 2026-12-05: the names did not sit under
        # their stops, so a presenter guessed where to click the track), spread along the track's width.
        with st.container(key=STOPS_KEY, horizontal=True, horizontal_alignment="distribute", gap=None):
            for i, v in enumerate(options):
                name = md(stop_name(s, step_, v, d)).replace(" ", "\u00a0")  # each on one line
                st.button(f"**{name}**" if v == choice else name, key=f"{key}_stop{i}", type="tertiary",
                          on_click=st.session_state.__setitem__, args=(key, v))
    else:
        choice = st.segmented_control(s(f"{step_.widget}_label"), options, required=True,
                                      format_func=lambda v: option_label(s, step_, v, d, button=True), key=key, width="stretch")
    base_sc = lesson.vary(step_, start, d.catalog, d.stops)
    sc = lesson.vary(step_, choice, d.catalog, d.stops)
    # One evaluation per set-up: the estimator page's own (scenario.evaluate inside tradeoffs.headline), so
    # its times and its cost per 1,000 answers are the estimator's for the same inputs (issue 31 item 1).
    head = tradeoffs.headline(d.catalog, {**sc.values(d.catalog), "measure": "total", "budget_s": float("inf")},
                              tradeoffs.catalog_prices(d.catalog))
    base, est = base_sc.run(d.catalog), head.estimate
    rows = [(s("row_start", label=option_label(s, step_, start, d, button=True)), base.breakdown),
            (s("row_choice", label=option_label(s, step_, choice, d, button=True)), est.breakdown)]
    cost = head.cost_per_1k_answers if step_.widget == "users" and head.cost_per_1k_answers == head.cost_per_1k_answers else None
    chart(s, rows, d, lesson.axis_max(step_, d.catalog, d.stops), f"lesson_c_{step_.id}", note_beside=cost is not None)
    hw = d.catalog.hardware[sc.hardware]
    with numbers(d):  # on the projected screen the cost stands in the times' row (one row less)
        times(s, est, d, more=[(s("cost_metric"), d.f.usd(cost))] if cost is not None and d.present else ())
        if est.devices_needed > 1:
            st.caption(s("devices_note", n=d.f.count(est.devices_needed, "devices"), hardware=lesson_chip(hw.label(d.lang)),
                         precision=precision_label(sc, d)))
        if cost is not None and not d.present:
            st.metric(s("cost_metric"), d.f.usd(cost))
    if cost is not None:  # where the cost comes from: under the times, or on the projected screen in the chart's column
        st.caption(s("cost_source", price=d.f.usd(hw.price_usd_per_hour), devices=d.f.count(est.devices_needed, "devices"),
                     source=source_link(s, hw.price_source)))  # (the words' column ran past a 1366 x 768 screen)
    scenario_caption(s, sc, est, d)


def source_link(s: Strings, source: str | None) -> str:
    """A price's source as a link named by its site ("lambda.ai"): the address itself, shown as text, was cut with
    an invisible word joiner (md() keeps text from turning into links: learner trial, "https:⁠//lambda.ai")."""
    url = (source or "").split()[0] if source else ""
    if not url.startswith("https://"):
        return md(source or "")
    host = urllib.parse.urlparse(url).netloc.removeprefix("www.")
    return f"[{md(s('source_site', site=host))}]({url})"


def myths(s: Strings, step_: lesson.Step, d: Data) -> None:
    """Pick a misconception: the fact, and one sentence to say in a meeting."""
    seed(step_, 0)
    i = st.radio(s("myth_label"), range(len(step_.options)), format_func=lambda k: md(step_.options[k].myth[d.lang]),
                 key=widget_key(step_), width="stretch")
    m = step_.options[i]
    st.markdown(f"**{s('fact')}:** {md(m.fact[d.lang])}")
    st.info(f"**{s('say')}:** “{md(m.say[d.lang])}”", icon=":material/record_voice_over:")


WIDGETS = {"timeline": timeline, "feel": feel_step, "stages": stages_step, "model": vary_step, "hardware": vary_step,
           "distance": vary_step, "users": vary_step, "myths": myths}


# --- quiz and finish ----------------------------------------------------------------------------
def quiz_screen(s: Strings, les: lesson.Lesson, questions: Sequence[quiz.Question], outcomes: Mapping[str, quiz.Outcome],
                d: Data) -> None:
    """All questions in one form; after marking: right or not, why (every option's feedback), score, review links."""
    screen_heading(s("quiz_title"), d)
    st.caption(s("quiz_intro", n=len(questions)))
    st.html(QUIZ_CSS)
    labels = {q.id: {o.id: md(o.label[d.lang]) for o in q.options} for q in questions}
    with st.form("lesson_quiz"):
        for k, q in enumerate(questions, 1):
            st.markdown(f"**{s('quiz_number', n=k)}.** {md(q.question[d.lang])}")
            st.radio(s("quiz_number", n=k), [o.id for o in q.options], index=None, key=f"lesson_q_{q.id}",
                     format_func=labels[q.id].get, label_visibility="collapsed")
            if st.session_state.get("lesson_marked"):
                feedback(s, q, outcomes[q.id], labels[q.id], d)
        marked = st.form_submit_button(s("quiz_submit"), type="primary", icon=":material/fact_check:", width="stretch")
    if marked and not st.session_state.get("lesson_marked"):
        if all(st.session_state.get(f"lesson_q_{q.id}") is None for q in questions):
            st.warning(s("quiz_empty"), icon=":material/info:")  # an empty quiz reveals nothing
        else:
            st.session_state["lesson_marked"] = True
            st.rerun()
    if st.session_state.get("lesson_marked"):
        answers = {q.id: st.session_state.get(f"lesson_q_{q.id}") for q in questions}
        result = quiz.score(questions, outcomes, answers)
        st.session_state[SCORE_KEY] = (result.right, result.total)  # the finish screen says it too (its radios are gone)
        # the one announcement of the marking (a polite live region); the per-question marks are not alerts
        announce.status(s("quiz_score", right=result.right, total=result.total), heading=3)
        if not result.misses:
            st.markdown(f":material/check_circle: **{s('quiz_all_right')}**")
        else:
            st.markdown(f"**{s('quiz_review')}**")
        for q in result.misses:
            n = les.index(q.review_step)
            st.page_link("pages/lesson.py", label=s("quiz_review_link", q=questions.index(q) + 1, n=n,
                                                     title=les.steps[n - 1].title[d.lang]),
                         icon=":material/replay:", query_params=review_query(str(n), d))


def review_query(param: str, d: Data) -> dict[str, str]:
    return {"step": param, "lang": d.lang, **({"present": "1"} if d.present else {})}


def feedback(s: Strings, q: quiz.Question, outcome: quiz.Outcome, labels: Mapping[str, str], d: Data) -> None:
    chosen = st.session_state.get(f"lesson_q_{q.id}")
    answer = labels[outcome.right]
    fmt = d.f.seconds
    # A mark per question on a green or red badge with an icon and a word (not colour alone, WCAG 1.4.1), not
    # st.error (role="alert") or st.success (role="status"): marking the quiz fired one for every
    # question at once; the score alone is announced (issue 23 item 5).
    if chosen == outcome.right:
        st.markdown(f":green-badge[:material/check_circle: {s('quiz_right')}]")
    else:
        st.markdown(f":red-badge[:material/cancel: {s('quiz_none' if chosen is None else 'quiz_wrong')}] "
                    f"**{s('quiz_answer', answer=answer)}**")  # not md(): its "\~" showed as "1\~5초" (learner trial)
    # the why in the open (learner trial: reading the explanations took twelve taps); each choice's figure folded
    st.markdown(md(quiz.fill(q.explanation[d.lang], outcome.seconds[outcome.right], fmt)))
    with st.expander(s("quiz_why")):
        for o in q.options:
            mark = "✓" if o.id == outcome.right else "✗"
            st.markdown(f"{mark} **{labels[o.id]}**: {md(quiz.fill(o.feedback[d.lang], outcome.seconds[o.id], fmt))}")


SCORE_KEY = "lesson_score"
# each answer a 44 px tap target (WCAG 2.2 target size; learner trial: the choices stood about 22 px apart)
QUIZ_CSS = """<style>
[data-testid="stForm"] [data-testid="stRadio"] [role="radiogroup"] label { min-height: 44px; display: flex; align-items: center; }
[data-testid="stForm"] [data-testid="stRadio"] > [data-testid="stWidgetLabel"] { display: none !important; }
</style>"""
"""A question's radio keeps "Question N" as its group's name for a screen reader; Streamlit draws that "collapsed"
label anyway, a grey "문제 1" under the bold "문제 1. ..." (learner trial 2026-12-06), so it is hidden as on a
room's phone (room_phone.PHONE_CSS)."""


def finish(s: Strings, les: lesson.Lesson, d: Data) -> None:
    """What was learned, the quiz's score where it was marked, and three clear ways on: the calculator on the
    lesson's example, the glossary, the lesson again (buttons a thumb finds, not a line of small links)."""
    screen_heading(s("finish_title"), d)
    score = st.session_state.get(SCORE_KEY)
    if score is not None:
        st.markdown(f":material/fact_check: **{s('quiz_score', right=score[0], total=score[1])}**")
    (st.header if d.present else st.subheader)(s("finish_learned"), anchor=False)  # one level under the screen's title
    st.markdown("\n".join(f"{k}. {md(x.takeaway[d.lang])}" for k, x in enumerate(les.steps, 1)))
    sc = les.finish
    stop = next((x for x in d.stops if x.id == sc.distance_stop), None)
    where = stop.label[d.lang] if stop else d.f.km(sc.distance_km)
    with st.container(key=FINISH_KEY):  # the two ways on drawn as full-width buttons (FINISH_CSS), 48 px tall
        st.page_link("pages/estimator.py", label=s("finish_estimator", model=d.catalog.models[sc.model].label(d.lang),
                                                    hardware=lesson_chip(d.catalog.hardware[sc.hardware].label(d.lang)),
                                                    distance=where),
                     icon=":material/calculate:", query_params={**sc.estimator_query(d.catalog), "lang": d.lang}, width="stretch")
        st.page_link("pages/glossary.py", label=s("finish_glossary"), icon=":material/menu_book:", query_params={"lang": d.lang},
                     width="stretch")
    st.html(FINISH_CSS)
    # a button, not a link to this same page (drawn as the current page, it looked like a tag)
    st.button(s("restart"), key="lesson_restart", icon=":material/restart_alt:", on_click=go, args=("1",), width="stretch")


FINISH_KEY = "lesson_finish_links"
FINISH_CSS = """<style>
.st-key-lesson_finish_links a { border: 1px solid rgba(49, 51, 63, 0.4); border-radius: 0.5rem; min-height: 48px;
  padding: 0.5rem 0.75rem; display: flex; align-items: center; }
</style>"""
