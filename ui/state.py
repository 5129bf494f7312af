"""The one scenario state: URL, widgets and cross-page memory for the scenario inputs.

Every page that shows scenario inputs calls, in this order:

1. ``notices = state.restore(keys, specs, default, steps)`` at its top, before any widget: puts
   the scenario into the widget keys (URL values the app did not write itself win, else the
   saved copy, else the default) and returns a `Notice` for every URL value it did not take as
   given (bad, empty, repeated, unknown or snapped to a slider step).
2. widgets with ``key=<URL key>`` and ``on_change=state.touched``.
3. ``state.mirror(keys, known)`` after them: saves the values (the one saved copy all pages share)
   and writes them into the URL, dropping keys nothing reads.

Why copy the values into the widget keys on every run: Streamlit forgets a widget's value when a
page without that widget runs, and a widget that appears on another page with other options treats
a leftover value as stale (docs.streamlit.io, "Widget behavior": "Widgets do not persist when their
keys are not rendered"; re-assigning the key through st.session_state keeps it). One plain key
(SAVED) holds the scenario between pages.
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Iterable, Mapping, Sequence

import streamlit as st

from latency.language.i18n import Strings, md
from latency.estimation.scenario import KEYS, Notice, NumberParam, Param, clamp_typed, parse_query, to_query, url_value
from latency.estimation.sizing import snap

SAVED = "scenario"              # the scenario every page shares (values by URL key)
MIRRORED = "scenario_url"       # the URL values this app wrote last, so a changed URL can be told apart
NOTICES = "scenario_notices"    # notices shown until the user changes an input
PRESET = "est_preset"           # the preset pills: a hand-made change un-selects the preset
APP_KEYS = ("lang",)            # URL keys app.py reads
VIEW = "view"                   # which tab or section a link opens (the glossary's tool links)
VIEW_SEEN = "scenario_view_seen"
DRAWN = "scenario_drawn"        # inputs drawn only at times (under "Advanced") that the last run drew
SWITCHED = "scenario_switched"  # [(key, before, after)]: what a link inside the app just changed
PAGE = "scenario_page"          # (page before, page now) by URL path: app.py's `page_ran` on every full run


def restore(keys: Sequence[str], specs: Mapping[str, Param], default: Mapping[str, Any],
            steps: Mapping[str, Sequence[float]] | None = None, known: Iterable[str] = (),
            implied: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
            exact: Mapping[str, Collection[float]] | None = None) -> list[Notice]:
    """Put the scenario into the widget keys of this page; return notices for URL values not taken.

    steps: slider steps for numeric keys shown on a select_slider (a URL value between steps is
    snapped to the nearest, in log distance, and named). exact: values of such a key kept as they
    are though no step (the launch check's place pairs: the page adds the value to its slider's
    steps, `places.steps_with`). known: other URL keys this page reads.
    """
    # None is never a scenario value (see `values`): a saved or widget None gives way to the default.
    saved = dict(default) | {k: v for k, v in (st.session_state.get(SAVED) or {}).items() if v is not None}
    mirrored = st.session_state.get(MIRRORED) or {}
    fresh = {}
    for key in st.query_params:
        raw = st.query_params.get_all(key)
        if key in APP_KEYS:
            continue
        if key not in specs or len(raw) != 1 or mirrored.get(key) != raw[0]:
            fresh[key] = raw
    values, notices = parse_query(fresh, specs, set(known) | set(APP_KEYS) | set(KEYS))
    for key, grid in (steps or {}).items():
        if key in values and float(values[key]) not in (exact or {}).get(key, ()):
            snapped = snap(float(values[key]), grid, log=key == "model_size_b")
            if snapped != values[key]:
                notices.append(Notice(key=key, raw=url_value(values[key]), reason="snapped", used=snapped))
                values[key] = snapped
    if implied is not None:  # values that follow from the URL's (a use case brings its own target)
        values = {**implied(values), **values}
    if st.session_state.get(SAVED):  # a link followed inside the app: say what it changed (`switched_text`)
        changed = [(k, saved.get(k), v) for k, v in values.items() if k in keys and saved.get(k) != v]
        if changed:
            st.session_state[SWITCHED] = changed
        elif len(set(st.session_state.get(PAGE) or (None, None))) > 1:  # another page arrived at: the note was that page's
            st.session_state.pop(SWITCHED, None)
    saved.update(values)
    for key in keys:
        if key not in values and st.session_state.get(key) is not None:
            saved[key] = st.session_state[key]     # the widget's value, perhaps just changed by the user
        st.session_state[key] = saved[key]
    st.session_state[SAVED] = saved
    st.session_state[DRAWN] = set()  # a full run (a page arrival among them): every folded input appears anew
    if notices:
        st.session_state[NOTICES] = notices
    return st.session_state.get(NOTICES, [])


def appearing(keys: Sequence[str]) -> None:
    """Call just before drawing inputs that are drawn only at times (a folded "Advanced" section), every
    run they are drawn. One that was not drawn the run before takes the saved scenario's value: the browser
    keeps a widget's last value from before a page switch and sends it again when the widget reappears,
    and Streamlit lets that stale value win over the one a preset set since (PM trial item 1: the looped
    preset's architecture silently became "dense" when "Advanced" was opened). Once drawn, the widget's
    own value is the user's and is kept."""
    drawn = st.session_state.get(DRAWN)
    drawn = set() if drawn is None else drawn
    saved = st.session_state.get(SAVED) or {}
    for key in keys:
        if key not in drawn and saved.get(key) is not None:
            st.session_state[key] = saved[key]
    st.session_state[DRAWN] = drawn | set(keys)


def folded(keys: Sequence[str]) -> None:
    """The inputs `keys` are not drawn this run (their section is folded): the next time they are, they
    appear anew (`appearing`)."""
    st.session_state[DRAWN] = set(st.session_state.get(DRAWN) or set()) - set(keys)


def hold(keys: Sequence[str]) -> None:
    """Call at the top of a fragment that draws scenario inputs, before them: re-assign each input's own
    value to its key. A full run does this in `restore`; a fragment rerun did not. Under load, with runs
    interrupted by quick presses (an arrow key held on the size slider), the browser can lose a widget's
    value and send back the widget's first option or minimum as if the reader had chosen it: a run on a
    busy machine came back with the device as the list's first (A100) and the question as 1 token, the
    size alone moved. A value set through st.session_state is sent with the widget on every run, so the
    browser is told the value again ("Widget behavior": re-assigning a key through st.session_state)."""
    for key in keys:
        if key in st.session_state and st.session_state[key] is not None:
            st.session_state[key] = st.session_state[key]


def page_ran(url_path: str) -> None:
    """app.py, before each full run of a page: which page ran before this one, so that `restore` can tell a page
    arrived at from a rerun of the same page (a link's note belongs to the page the link opened)."""
    st.session_state[PAGE] = ((st.session_state.get(PAGE) or (None, None))[1], url_path)


def touched() -> None:
    """An input changed by hand: the URL notices have done their job, and no preset is in force."""
    st.session_state.pop(NOTICES, None)
    st.session_state.pop(SWITCHED, None)
    if PRESET in st.session_state:
        st.session_state[PRESET] = None


def number_input(label: str, key: str, spec: NumberParam, **kwargs: Any) -> None:
    """st.number_input for a scenario number, with the range kept here rather than by Streamlit:
    Streamlit refuses a typed value outside min/max with its own English-only message and keeps the
    old value; here the value is clamped and the notice says, in the page's language, what was typed
    and what is used instead (`typed`)."""
    st.number_input(label, key=key, on_change=typed, args=(key, spec), **kwargs)


def typed(key: str, spec: NumberParam) -> None:
    """on_change of a scenario number box: `touched`, then the typed value kept inside its range."""
    touched()
    if key not in st.session_state or st.session_state[key] is None:
        st.session_state[key] = spec.default
        return
    used, notice = clamp_typed(key, st.session_state[key], spec)
    if notice:
        st.session_state[key] = used
        st.session_state[NOTICES] = [notice]


BOX_NOTICES = "box_notices"     # {key: (label, Notice, min, max)}: boxes outside the scenario that changed a typed value


def bounded_number_input(label: str, key: str, spec: NumberParam, *, where: Any = None, in_form: bool = False,
                         **kwargs: Any) -> Any:
    """st.number_input for a number that is not part of the URL scenario (the measure and logs
    pages' own boxes), its range kept like the scenario's (`number_input`): a typed value outside
    it is clamped and named in the page's language (`box_notice_texts`), where Streamlit's own
    min/max check answered in English and kept the old value. `where`: a column or other container.
    Inside a form Streamlit allows no on_change: call `keep_in_range` from the submit button's
    callback instead (`in_form=True`). A new `spec.default` (e.g. another log file's median)
    resets the box to it."""
    marker = f"{key}.default"
    if st.session_state.get(marker) != spec.default or key not in st.session_state:
        st.session_state[key] = spec.default
        st.session_state[marker] = spec.default
    if not in_form:
        kwargs.update(on_change=keep_in_range, args=(key, label, spec))
    return (where or st).number_input(label, key=key, **kwargs)


def keep_in_range(key: str, label: str, spec: NumberParam) -> None:
    """Callback of a `bounded_number_input`: the typed value clamped into its range, and a notice
    when it had to change (an emptied box takes the default)."""
    notices = dict(st.session_state.get(BOX_NOTICES) or {})
    notices.pop(key, None)
    value = st.session_state.get(key)
    if value is None:
        st.session_state[key] = spec.default
    else:
        used, notice = clamp_typed(key, value, spec)
        if notice:
            st.session_state[key] = used
            notices[key] = (label, notice, spec.min_value, spec.max_value)
    st.session_state[BOX_NOTICES] = notices


def box_notice_texts(sc: Strings, keys: Sequence[str], show=lambda v: f"{int(v):,}") -> list[str]:
    """The notices of the bounded boxes `keys` (content/ui/scenario.yaml `notice_typed`), each shown
    once: the label as the box shows it, what was typed, the range and what is used (`show(v)`;
    by default a whole number, as token counts are)."""
    notices = dict(st.session_state.get(BOX_NOTICES) or {})
    mine = [notices.pop(key) for key in keys if key in notices]
    st.session_state[BOX_NOTICES] = notices
    return [sc("notice_typed", name=md(label), raw=md(n.raw), used=md(show(n.used)), lo=md(show(lo)), hi=md(show(hi)))
            for label, n, lo, hi in mine]


def values(keys: Sequence[str]) -> dict[str, Any]:
    """The scenario as this page's widgets hold it now, over the saved copy."""
    saved = dict(st.session_state.get(SAVED) or {})
    # A widget's value of None (seen under load: a required segmented control read as None by a
    # fragment rerun that overlapped a full one) never replaces the saved value; no scenario input
    # means "nothing" by None, an emptied number box takes its default in its own callback.
    saved.update({key: st.session_state[key] for key in keys
                  if key in st.session_state and st.session_state[key] is not None})
    return saved


def set_values(new: Mapping[str, Any]) -> None:
    """Set scenario inputs from code (a preset): call from a widget callback, before the widgets run."""
    saved = dict(st.session_state.get(SAVED) or {})
    saved.update(new)
    st.session_state[SAVED] = saved
    for key, value in new.items():
        st.session_state[key] = value
    st.session_state.pop(NOTICES, None)


def mirror(keys: Sequence[str], known: Iterable[str] = ()) -> None:
    """Save this page's inputs and write them into the URL; drop URL keys nothing on this page reads."""
    current = values(keys)
    st.session_state[SAVED] = current
    wanted = to_query(current, keys)
    keep = set(wanted) | set(known) | set(APP_KEYS)
    for key in list(st.query_params):
        if key not in keep:
            del st.query_params[key]
    for key, text in wanted.items():
        if st.query_params.get_all(key) != [text]:
            st.query_params[key] = text
    st.session_state[MIRRORED] = wanted


def notice_text(sc: Strings, n: Notice, show, specs: Mapping[str, Param] | None = None) -> str:
    """A notice in words (content/ui/scenario.yaml): the input's user-facing name, the URL value as
    escaped text, what is used instead as the page shows it (`show(key, value)`), never an id."""
    known = f"input_{n.key}" in sc.table
    name = sc(f"input_{n.key}") if known else md(n.key)
    spec = (specs or {}).get(n.key)
    lo, hi = getattr(spec, "min_value", None), getattr(spec, "max_value", None)
    used = md(show(n.key, n.used)) if n.used is not None and known else ""
    return sc(f"notice_{n.reason}", name=name, raw=md(n.raw), used=used,
              lo=md(show(n.key, lo)) if lo is not None else "", hi=md(show(n.key, hi)) if hi is not None else "")


def switched_text(sc: Strings, show) -> str | None:
    """What the last link followed inside the app changed, in one sentence (content/ui/scenario.yaml
    `notice_switched`): each input by its user-facing name, from the value before to the link's, as the
    page shows them (`show(key, value)`). None when no link changed anything, or once an input is changed
    by hand (`touched`). A shared link opened in a fresh session has no set-up before it: no sentence."""
    changed = st.session_state.get(SWITCHED) or []
    items = [sc("notice_switched_item", name=sc(f"input_{k}"), before=md(show(k, old)), after=md(show(k, new)))
             for k, old, new in changed if f"input_{k}" in sc.table and old is not None]
    return sc("notice_switched", changes=sc("notice_switched_join").join(items)) if items else None


def requested_view(choices: Sequence[str]) -> str | None:
    """The tab or section a link asks for with `view=` (the glossary's tool links), once per link:
    after that the user's own choice of tab stands. An unknown view is named in a notice."""
    raw = st.query_params.get(VIEW)
    if raw is None or st.session_state.get(VIEW_SEEN) == raw:
        return None
    st.session_state[VIEW_SEEN] = raw
    if raw in choices:
        return raw
    st.session_state[NOTICES] = list(st.session_state.get(NOTICES, [])) + [
        Notice(key=VIEW, raw=raw[:40], reason="unknown_choice", used=choices[0])]
    return None
