"""The trade-off page's inputs: formats, URL notices, the widgets (-> one dict of values) and the
editable price table. Widget keys are the scenario's URL keys (`latency.estimation.scenario.KEYS`), so a value
set here is the value on the estimator page (ui/state.py holds the one saved copy)."""

from __future__ import annotations

import re
import functools
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import pandas as pd
import streamlit as st

from latency.language import formats
from latency.estimation import scenario
from latency.exploring import tradeoffs as T
from latency.estimation.catalog import Catalog
from latency.language.i18n import Strings, md
from latency.estimation.places import DistanceStop
from latency.estimation.places import load_places, pair_over_stop, steps_with
from ui import shell, state, style
from ui.scenario_inputs import hardware_caption, hardware_choice, launch_items, launch_value_text, network_caption, on_hardware

KEYS = ("model_size_b", "hardware", "devices", "distance_km", "arch", "precision", "prompt_tokens", "document_tokens",
        "output_tokens", "context_tokens", "concurrency", "arrival", "use_case", "budget_s", "measure", "device_scope")
"""The scenario inputs this page shows (shared with the estimator page by key)."""
OTHER_KEYS = tuple(k for k in scenario.KEYS if k not in KEYS)
NAMED_UNSEEN = tuple(k for k in OTHER_KEYS if k not in scenario.LAUNCH_KEYS)
"""The inputs not on this page that change its figures, each named beside them where it differs from the
default (the estimator's "Advanced" inputs). The launch check's own plans (answers a day, budget, places) change
nothing here; its inputs that do change an estimate (prefix cache, speculative decoding) are named by
`launch_items`. A PM try opened this page with 50,000 answers a day set on the launch check and got a content
error for a missing 'requests_per_day_50000' text in place of the caption."""
"""Scenario inputs set on other pages: kept in the URL and in the headline's estimate."""


@dataclass(frozen=True)
class Formats:
    """Names as this page shows them, in the page's language; numbers from latency.language.formats (the
    one formatter every page uses)."""

    s: Strings
    names: Strings         # content/ui/scenario.yaml: input names, notices
    catalog: Catalog
    stops: Sequence[DistanceStop]
    cases: Mapping[str, Any]
    lang: str

    @property
    def f(self) -> formats.Formats:
        return formats.get(self.lang)

    def sec(self, x: float) -> str:
        return self.f.seconds(x)

    def size(self, v: float) -> str:
        return self.f.size_b(v)

    def km(self, v: float) -> str:
        return self.f.km(v)

    @functools.cached_property
    def _places(self) -> tuple:
        """(users' place, server region, every place) in force, read once a run: `distance` names every column
        of the distance map and every slider stop."""
        where = state.values(("users_place", "server_place"))  # the saved copy: this page has no place boxes
        return where.get("users_place"), where.get("server_place"), load_places()

    def distance(self, v: float) -> str:
        # the launch check's server region where it is the one in force (Seoul to US East, 11,137 km): the number alone
        # did not say which region it was; and where a stop with other places or none has that distance (Seoul users
        # on a Seoul region read "Same building"; PM re-checks 2026-12-05, `pair_over_stop`)
        # Named by both places, as the estimator names them, and a stop from somewhere else than the users' place
        # by its whole label: with users in Singapore the map read "Singapore · 4,672 km" (PM re-check 2026-12-05).
        users, server, places = self._places
        pair = pair_over_stop(self.stops, places, users, server, v)
        if pair:
            return self.s("dist_named", name=f"{pair[0].label[self.lang]}→{pair[1].label[self.lang]}", km=self.km(v))
        stop = next((p for p in self.stops if p.km == v), None)
        if stop is None:
            return self.km(v)
        elsewhere = users and stop.ends and stop.ends[0] != users
        return self.s("dist_named", name=(stop.label if elsewhere else stop.short)[self.lang], km=self.km(v))

    def users(self, n: float) -> str:
        return self.f.count(n, "users")

    def tps(self, v: float) -> str:
        return self.f.tps(v)

    def gb(self, v: float) -> str:
        return self.f.gb(v)

    def ratio(self, r: float) -> str:
        return self.f.ratio(r)

    def tokens(self, n: float) -> str:
        return self.f.count(n, "tokens")

    def hw(self, hid: str) -> str:
        return self.catalog.hardware[hid].label(self.lang)

    def precision(self, pid: str) -> str:
        return self.catalog.precisions[pid].label(self.lang)

    def precision_short(self, pid: str) -> str:
        return self.precision(pid).split(" (")[0]

    def measure_short(self, m: str) -> str:
        return self.s(f"measure_{m}_short")

    def case(self, cid: str) -> str:
        u = self.cases[cid]
        return self.s("use_case_option", label=u.label, measure=self.measure_short(u.measure), budget=self.sec(u.budget_s))

    def value(self, key: str, v: Any) -> str:
        """A scenario value as a notice shows it: names, never internal ids; escaped."""
        shown = {"model_size_b": self.size, "distance_km": self.distance, "budget_s": self.sec, "hardware": self.hw,
                 "precision": self.precision, "arch": lambda a: self.s(f"arch_{a}"),
                 "measure": lambda m: self.s(f"measure_{m}"), "device_scope": lambda d: self.s(f"scope_{d}"),
                 "use_case": self.case, "concurrency": self.users, "view": lambda v: self.s(f"tab_{v}"), "prompt_tokens": self.tokens,
                 "document_tokens": self.tokens,
                 "output_tokens": self.tokens, "context_tokens": self.tokens,
                 "devices": lambda d: self.names("devices_auto") if d == scenario.DEVICES_AUTO else self.f.count(d, "devices"),
                 **{k: functools.partial(launch_value_text, self.f, self.lang, k) for k in scenario.LAUNCH_ESTIMATE_KEYS}}.get(key)
        try:
            return shown(v) if shown else scenario.url_value(v)
        except (KeyError, ValueError, TypeError):
            return scenario.url_value(v)


def cap(text: str) -> str:
    """Sentence case for a string that may start with a lower-case word (English axis titles)."""
    return text[:1].upper() + text[1:]


# --- URL notices ----------------------------------------------------------------------------------
def show_notices(fmt: Formats, notices: Sequence[scenario.Notice], specs: Mapping[str, Any]) -> None:
    for notice in notices:
        st.warning(state.notice_text(fmt.names, notice, fmt.value, specs), icon=":material/link_off:")
    if switched := state.switched_text(fmt.names, fmt.value):
        st.info(switched, icon=":material/swap_horiz:")  # what a link inside the app changed


# --- widgets --------------------------------------------------------------------------------------
def on_use_case(cases: Mapping[str, Any]) -> None:
    """A use case chosen: its budget and measure come with it (`state.set_values`)."""
    case = cases.get(st.session_state["use_case"])
    if case is not None:
        state.set_values(dict(budget_s=float(case.budget_s), measure=case.measure))
    state.touched()


def show(fmt: Formats, steps: Mapping[str, Sequence[float]], specs: Mapping[str, Any]) -> dict[str, Any]:
    """The page's inputs; returns the scenario values (this page's widgets over the saved copy).
    specs: latency.estimation.scenario.specs (the number boxes keep their values inside these ranges)."""
    s, catalog = fmt.s, fmt.catalog
    common = shell.strings("common", fmt.lang)  # the device names, fetched once for every option
    auto = fmt.names("devices_auto")
    st.header(s("controls_header"))
    c1, c2, c3 = st.container(key=style.STACK_KEY + "tradeoffs").columns(3)  # stacks when narrow (ui/style.py)
    with c1:
        st.selectbox(s("use_case_label"), list(fmt.cases), key="use_case", format_func=lambda c: fmt.cases[c].label,  # its target: the inputs below
                     on_change=on_use_case, args=(fmt.cases,), help=s("use_case_help"))
        state.number_input(s("budget_label"), "budget_s", specs["budget_s"], step=0.1, format="%.2f",
                           help=s("budget_help"))
        st.segmented_control(s("measure_label"), list(scenario.MEASURES), key="measure", required=True,
                             format_func=lambda m: s(f"measure_{m}"), on_change=state.touched)
    with c2:
        st.select_slider(s("size_label"), options=steps["model_size_b"], key="model_size_b", format_func=fmt.size,
                         on_change=state.touched)
        st.selectbox(s("hardware_label"), scenario.ordered_hardware(catalog), key="hardware",
                     format_func=lambda h: hardware_choice(catalog, fmt.lang, h, common, fmt.names),
                     on_change=on_hardware, args=(catalog, fmt.stops))  # a phone runs the model itself (as on the estimator)
        hardware_caption(catalog, fmt.lang, st.session_state.get("hardware"), fmt.names)  # the chosen device whole
        network_caption(catalog, fmt.stops, fmt.names, hints=False)  # no users' internet box here: no how-to hints
        st.selectbox(s("devices_label"), scenario.device_options(st.session_state.get("devices")), key="devices",
                     format_func=lambda d: auto if d == scenario.DEVICES_AUTO else fmt.f.count(d, "devices"), help=s("devices_help"),
                     on_change=state.touched)  # GPU count on every page that estimates (issue 31 item 3, 33 item 4)
        # the launch check's place pair (Seoul to US East, 11,137 km) among the steps: no step, the slider drew 0 km
        st.select_slider(s("distance_label"), options=steps_with(steps["distance_km"], st.session_state.get("distance_km")),
                         key="distance_km",
                         format_func=fmt.distance, help=s("distance_help"), on_change=state.touched)
    with c3:
        state.number_input(s("concurrency_label"), "concurrency", specs["concurrency"], step=1,
                           help=s("concurrency_help", max=f"{scenario.CONCURRENCY_MAX:,}"))
        st.segmented_control(s("arrival"), list(scenario.ARRIVALS), key="arrival", required=True,
                             format_func=lambda v: s(f"arrival_{v}"), help=s("arrival_help"), on_change=state.touched,
                             width="stretch")  # within its column: "In one burst" ran past it at 1366 px
        with st.container(horizontal=True):  # the question and a pasted document side by side (issue 33 item 4)
            state.number_input(s("prompt_label"), "prompt_tokens", specs["prompt_tokens"], step=128)
            state.number_input(s("document_label"), "document_tokens", specs["document_tokens"], step=1024,
                               help=s("document_help"))
        state.number_input(fmt.names("input_context_tokens"), "context_tokens", specs["context_tokens"], step=1024,
                           help=s("context_help"))
        st.segmented_control(s("scope_label"), list(T.SCOPES), key="device_scope", required=True,
                             format_func=lambda v: s(f"scope_{v}"), help=s("scope_help"), on_change=state.touched)
        with st.expander(s("advanced")):
            st.segmented_control(s("arch_label"), list(scenario.ARCHITECTURES), key="arch", required=True,
                                 format_func=lambda a: s(f"arch_{a}"), on_change=state.touched)
            st.selectbox(s("precision_label"), list(catalog.precisions), key="precision", format_func=fmt.precision,
                         on_change=state.touched)
            state.number_input(s("output_label"), "output_tokens", specs["output_tokens"], step=32)
    values = state.values(KEYS)  # this page's widgets over the saved copy, which holds the inputs it does not show
    unseen(fmt, values)
    return values


def unseen(fmt: Formats, values: Mapping[str, Any]) -> None:
    """The inputs in force that this page does not show (set on the estimator page or by a link), named
    under the inputs where they differ from the default (issue 33 item 4)."""
    shown = [k for k in NAMED_UNSEEN if k in values and values[k] != scenario.DEFAULTS.get(k)]
    est = shell.strings("estimator", fmt.lang)
    items = [fmt.names("unseen_item", name=fmt.names(f"input_{k}"), value=est(f"{k}_{values[k]}")) for k in shown]
    items += launch_items(fmt.names, fmt.f, values)
    if items:
        st.caption(fmt.names("unseen_inputs", items=md(", ".join(items))))


# --- prices ---------------------------------------------------------------------------------------
def first_url(text: str | None) -> str:
    found = re.search(r"https?://[^\s()]+", text or "")
    return found.group(0) if found else ""


def prices(fmt: Formats) -> dict[str, float | None]:
    """The editable price table (in an expander); returns the hourly prices in force."""
    s, catalog = fmt.s, fmt.catalog
    order = scenario.ordered_hardware(catalog)
    box = st.expander(s("prices_header"), icon=":material/edit:")
    box.caption(s("prices_caption"))
    original = {h: "" if catalog.hardware[h].price_usd_per_hour is None else f"{catalog.hardware[h].price_usd_per_hour:g}"
                for h in order}
    col = {k: s(f"col_{k}") for k in ("device", "price", "basis", "date", "source")}
    frame = pd.DataFrame({
        col["device"]: [fmt.hw(h) for h in order],
        col["price"]: [original[h] for h in order],
        col["basis"]: [s(f"basis_{catalog.hardware[h].price_basis}") if catalog.hardware[h].price_basis else ""
                       for h in order],
        col["date"]: [catalog.hardware[h].price_date or "" for h in order],
        col["source"]: [first_url(catalog.hardware[h].price_source) for h in order],  # the catalog's notes are English
    }, index=order)
    edited = box.data_editor(
        frame, key="tr_prices", hide_index=True, num_rows="fixed", width="stretch",
        disabled=[col["device"], col["basis"], col["date"], col["source"]],
        column_config={col["price"]: st.column_config.TextColumn(required=False),
                       col["source"]: st.column_config.LinkColumn(display_text=r"https?://(?:www\.)?([^/]+)")})
    unlinked = [fmt.hw(h) for h in order if catalog.hardware[h].price_source and not first_url(catalog.hardware[h].price_source)]
    if unlinked:
        box.caption(s("prices_no_link", names=md(", ".join(unlinked))))
    changes = {h: edited.at[h, col["price"]] for h in order if edited.at[h, col["price"]] != original[h]}
    resolved, notices = T.resolve_prices(catalog, changes)
    for n in notices:
        box.warning(s("price_notice", device=md(fmt.hw(n.device_id)), raw=md(n.raw), reason=s(f"price_reason_{n.reason}"),
                      fallback=T.fmt_usd(n.fallback) if n.fallback is not None else s("no_price")))
    if len(changes) > len(notices):
        box.caption(s("prices_edited", n=len(changes) - len(notices)))
    return resolved
