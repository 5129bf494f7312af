"""The launch check's inputs: every input of a set-up on one screen (five rows of five), as one dict.

Widget keys are the scenario's URL keys (latency.estimation.scenario.KEYS); ui/state.py keeps them across
pages and in the URL. The users' place and the server region set the distance (`sync_places`, and
`on_place` when one changes); a distance that no two places give (a link from the estimator) shows as
"another distance" with the estimator's own distance steps.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

import streamlit as st

from latency.estimation import scenario
from latency.estimation.places import Place, place_distance_km
from latency.estimation.scenario import Notice
from latency.estimation.sizing import snap
from latency.language.i18n import Strings
from ui import scenario_inputs, state, style

PREFIX_SHARES, SPEC_TOKENS, SPEC_ACCEPTS = scenario.PREFIX_SHARES, scenario.SPEC_TOKEN_CHOICES, scenario.SPEC_ACCEPTS
MEASURES = ("ttft", "total")
GRID_KEY = style.STACK_KEY + "launch_inputs"


def steps(data) -> dict[str, Sequence[float]]:
    """Values the page's drop-downs offer for numeric keys (a URL value between them is snapped and named)."""
    return dict(model_size_b=data.sizes, min_model_b=data.sizes, **scenario.OPTION_STEPS)


def pair_for(distance_km: float, users: str, places: Sequence[Place]) -> tuple[str, str] | None:
    """(users' place, server region) whose distance is `distance_km`: the users' place kept where it
    can be, else any pair of places; None when no two places are that far apart."""
    by_id = {p.id: p for p in places}
    order = ([by_id[users]] if users in by_id else []) + [p for p in places if p.id != users]
    for u in order:
        for p in places:
            if place_distance_km(u, p) == float(distance_km):
                return u.id, p.id
    return None


def url_sets(keys: Sequence[str]) -> set[str]:
    """Which of `keys` the URL gives with a value the app did not write (a link), read before state.restore."""
    mirrored = st.session_state.get(state.MIRRORED) or {}
    return {k for k in keys if k in st.query_params and mirrored.get(k) != st.query_params.get(k)}


def sync_places(places: Sequence[Place], distances: Sequence[float], places_win: bool = False) -> list[Notice]:
    """Before the widgets: make the two places agree with the distance in force. A link that names
    places and no distance (`places_win`) sets the distance; otherwise the distance wins (the estimator
    and its links set the distance alone) and the places follow it. A distance no pair gives is
    "another distance" (server_place custom), snapped to the distance steps when it is none of them
    (named in the returned notice)."""
    ss = st.session_state
    by_id = {p.id: p for p in places}
    users, server, km = ss.get("users_place"), ss.get("server_place"), float(ss.get("distance_km", 0.0))
    if users in by_id and server in by_id and place_distance_km(by_id[users], by_id[server]) == km:
        return []
    if places_win and users in by_id and server in by_id:
        ss["distance_km"] = place_distance_km(by_id[users], by_id[server])
        return []
    pair = pair_for(km, users, places)
    if pair is not None:
        ss["users_place"], ss["server_place"] = pair
        return []
    ss["server_place"] = scenario.PLACE_CUSTOM
    if km not in distances:
        used = snap(km, distances, log=False)
        ss["distance_km"] = used
        return [Notice(key="distance_km", raw=scenario.url_value(km), reason="snapped", used=used)]
    return []


def on_place(places: Sequence[Place], distances: Sequence[float]) -> None:
    """A place changed: the distance follows (another distance: the nearest distance step stays)."""
    state.touched()
    ss = st.session_state
    by_id = {p.id: p for p in places}
    users, server = ss.get("users_place"), ss.get("server_place")
    if server == scenario.PLACE_CUSTOM:
        ss["distance_km"] = snap(float(ss.get("distance_km", 0.0)), distances, log=False)
    elif users in by_id and server in by_id:
        ss["distance_km"] = place_distance_km(by_id[users], by_id[server])


SIZE_IN_NAME = re.compile(r"\d(\.\d+)?B\b")


def size_text(s: Strings, data, f, lang: str, size: float, arch: str) -> str:
    """A size as the drop-downs name it: the catalog model of that size and of the chosen architecture
    where there is one (its published config is what the estimate uses: latency.estimation.sizing), by its
    name when the name says its size ("Llama 3.1 8B"; the box is narrow), else with the size after it."""
    names = [m.label(lang) for m in data.catalog.models.values()
             if abs(m.model.params_b - size) < 1e-9 and m.model.arch == arch]
    if not names:
        return f.size_b(size)
    return names[0] if SIZE_IN_NAME.search(names[0]) else s("size_option", name=names[0], size=f.size_b(size))


def size_options(data, arch: str) -> list[float]:
    """The model sizes in the order the drop-down lists them: the published models of the chosen architecture
    first (Llama 3.1 8B, 70B, 405B: a PM reaches 70B without scrolling or typing), then every size in order."""
    named = sorted({s for s in data.sizes for m in data.catalog.models.values()
                    if abs(m.model.params_b - s) < 1e-9 and m.model.arch == arch})
    return named + [s for s in data.sizes if s not in named]


ROW_ONE = (2.65, 1.5, 1.55, 2.35, 2.0)
"""Widths of the first row's columns (model size, architecture, precision, device, devices per server): the longest
option of each box and "Devices per server" on one line at 1366 px (tests/e2e/test_layout.py)."""
ROW_THREE = (0.85, 1.45, 0.95, 1.2, 0.9)
"""The third row's: "User's question (tokens)" clear of its help icon, and the arrival box's longest option, the
vocabulary's "Each at their own moment", whole at 1366 px (tests/e2e/test_layout.py)."""


def whole(s: Strings, help_text: str, name: str | None) -> str:
    """A box's help with the whole name of its current choice first (the box shows it short: `first_part`)."""
    if not name:
        return help_text
    return (s("whole_choice", name=name) + ("\n\n" + help_text if help_text else ""))


def first_part(text: str) -> str:
    """An option's name before its details (" · 10 ms", ": already open", " (runs on the device)"): the box at
    1366 px cut "Wired broadband ·" and "Reused: already op" (PM trial round 2, item 8). The whole names are in the
    box's help (`whole`) and the side-by-side table: a caption under each box pushed the last row of inputs off the
    first screen at 1366 x 768."""
    return short(text.split(" · ")[0].split(": ")[0])


def short(text: str) -> str:
    """An option as the narrow boxes of the grid show it: without its bracketed details ("Auto (fewest that
    fit)" -> "Auto"); the help text, the set-up sentence and the side-by-side table name it whole."""
    return text.split(" (")[0].split("(")[0].strip() or text


def hardware_short(catalog, lang: str, hid: str) -> str:
    """A device without its vendor and details ("H100 SXM"): the set-up sentence under the figures names it whole."""
    entry = catalog.hardware.get(hid)
    if entry is None:
        return str(hid)
    name = entry.label(lang).split(" (")[0]
    for vendor in scenario_inputs.VENDORS:
        if name.startswith(vendor):
            return name[len(vendor):]
    return name


def show(s: Strings, est: Strings, data, labels: Mapping[str, Mapping], places: Sequence[Place], f, lang: str,
         specs: Mapping[str, Any]) -> dict[str, Any]:
    """The set-up's inputs in five rows of five (stacked on narrow screens); returns the scenario values."""
    common_kw = dict(on_change=state.touched)
    place_label = {p.id: p.label[lang] for p in places} | {scenario.PLACE_CUSTOM: s("place_custom")}
    arch = st.session_state.get("arch", "dense")
    sizes = {v: size_text(s, data, f, lang, v, arch) for v in data.sizes}
    grid = st.container(key=GRID_KEY)
    # 1. the model and where it runs: the model and device boxes wider (their longest names, "Phi-4-reasoning-vision-15B"
    # and "RTX 4060 Laptop GPU", were cut at 1366 px in a fifth of the row; the device count is a short number)
    c = grid.columns(ROW_ONE)
    c[0].selectbox(s("in_model_size"), size_options(data, arch), key="model_size_b", format_func=sizes.get, help=s("in_model_size_help"), **common_kw)
    c[1].selectbox(s("in_arch"), list(scenario.ARCHITECTURES), key="arch", format_func=lambda v: s(f"arch_short_{v}"), help=whole(s, est("arch_help"), labels["arch"].get(st.session_state.get("arch"))), **common_kw)
    c[2].selectbox(s("in_precision"), list(data.catalog.precisions), key="precision", format_func=lambda v: short(labels["precision"][v]),
                   help=s("in_precision_help"), **common_kw)
    c[3].selectbox(s("in_hardware"), data.hw_order, key="hardware", format_func=lambda h: hardware_short(data.catalog, lang, h),
                   help=s("in_hardware_help"), on_change=scenario_inputs.on_hardware, args=(data.catalog, data.stops))
    # the trade-off page's options: a link's own count (3 devices) among them, not lost to "auto" (PM try: devices=3)
    c[4].selectbox(s("in_devices"), scenario.device_options(st.session_state.get("devices")), key="devices",
                   format_func=lambda v: short(labels["devices"][v]) if v == scenario.DEVICES_AUTO else f"{int(v):,}",  # the label counts them
                   help=s("in_devices_help"), **common_kw)
    with grid:  # under the row, full width: a phone runs the model itself (the server region follows the users, 0 km,
        # their internet none), as on the estimator, said in this page's words
        scenario_inputs.network_caption(data.catalog, data.stops, s, hints=True)
    # 2. where the users and the server are, and their connection
    c = grid.columns(5)
    place_kw = dict(on_change=on_place, args=(places, data.distances))
    c[0].selectbox(s("in_users_place"), [p.id for p in places], key="users_place", format_func=lambda p: short(place_label[p]),
                   help=whole(s, s("in_users_place_help"), place_label.get(st.session_state.get("users_place"))), **place_kw)
    users = {p.id: p for p in places}.get(st.session_state.get("users_place"))

    def region(pid: str, whole: bool = False) -> str:  # the box: the region's short name (the set-up sentence: whole)
        name = place_label[pid] if whole else short(place_label[pid])
        if not whole or pid == scenario.PLACE_CUSTOM or users is None:
            return name
        other = next(p for p in places if p.id == pid)
        return s("region_option", place=name, km=f.km(place_distance_km(users, other)))

    c[1].selectbox(s("in_server_place"), [p.id for p in places] + [scenario.PLACE_CUSTOM], key="server_place",
                   format_func=region, help=whole(s, s("in_server_place_help"), region(st.session_state["server_place"], whole=True)
                                                  if st.session_state.get("server_place") in place_label else None), **place_kw)
    if st.session_state.get("server_place") == scenario.PLACE_CUSTOM:
        c[1].selectbox(s("in_distance"), data.distances, key="distance_km", format_func=labels["distance_km"].get, **common_kw)
    c[2].selectbox(s("in_access"), list(scenario.ACCESS_NETWORKS), key="access", format_func=lambda v: first_part(labels["access"][v]),
                   help=whole(s, "", labels["access"].get(st.session_state.get("access"))), **common_kw)
    c[3].selectbox(s("in_connection"), list(scenario.CONNECTIONS), key="connection", format_func=lambda v: s(f"connection_short_{v}"),
                   help=whole(s, est("connection_help"), labels["connection"].get(st.session_state.get("connection"))), **common_kw)
    c[4].selectbox(s("in_engine"), list(scenario.ENGINE_CHOICES), key="engine", format_func=lambda v: short(labels["engine"][v]),
                   help=est("engine_help"), **common_kw)
    # 3. the traffic and what each request reads
    c = grid.columns(ROW_THREE, vertical_alignment="bottom")  # a label on two lines keeps its box in the row's line
    with c[0]:
        state.number_input(s("in_concurrency"), "concurrency", specs["concurrency"], step=1, help=s("in_concurrency_help"))
    c[1].selectbox(s("in_arrival"), list(scenario.ARRIVALS), key="arrival", format_func=lambda v: s(f"arrival_{v}"),
                   help=whole(s, s("in_arrival_help"), s(f"arrival_{st.session_state['arrival']}")
                                                if st.session_state.get("arrival") in scenario.ARRIVALS else None), **common_kw)
    with c[2]:
        state.number_input(s("in_requests_per_day"), "requests_per_day", specs["requests_per_day"], step=1000,
                           help=s("in_requests_per_day_help"))
    with c[3]:
        state.number_input(s("in_prompt_tokens"), "prompt_tokens", specs["prompt_tokens"], step=128, help=s("in_prompt_tokens_help"))
    with c[4]:
        state.number_input(s("in_document_tokens"), "document_tokens", specs["document_tokens"], step=1000,
                           help=s("in_document_tokens_help"))
    # 4. the answer, the target and the cost limit
    c = grid.columns(5, vertical_alignment="bottom")
    with c[0]:
        state.number_input(s("in_context_tokens"), "context_tokens", specs["context_tokens"], step=1024, help=s("in_context_tokens_help"))
    with c[1]:
        state.number_input(s("in_output_tokens"), "output_tokens", specs["output_tokens"], step=32, help=s("in_output_tokens_help"))
    with c[2]:
        state.number_input(s("in_budget_s"), "budget_s", specs["budget_s"], step=0.1, format="%.2f", help=s("in_budget_s_help"))
    c[3].selectbox(s("in_measure"), MEASURES, key="measure", format_func=lambda m: s(f"measure_{m}"), help=s("in_measure_help"), **common_kw)
    with c[4]:
        state.number_input(s("in_monthly_budget"), "monthly_budget_usd", specs["monthly_budget_usd"], step=1000.0, format="%.0f",
                           help=s("in_monthly_budget_help"))
    # 5. serving features and the smallest model the PM accepts
    c = grid.columns(5)
    c[0].selectbox(s("in_prefix_share"), PREFIX_SHARES, key="prefix_share", format_func=f.percent, help=s("in_prefix_share_help"), **common_kw)
    c[1].selectbox(s("in_prefix_cache"), scenario.PREFIX_CACHE, key="prefix_cache", format_func=lambda v: s(f"prefix_cache_{v}"),
                   help=s("in_prefix_cache_help"), **common_kw)
    c[2].selectbox(s("in_spec_tokens"), SPEC_TOKENS, key="spec_tokens",
                   format_func=lambda n: s("spec_off") if n == 0 else f.count(n, "tokens"), help=s("in_spec_tokens_help"), **common_kw)
    c[3].selectbox(s("in_spec_accept"), SPEC_ACCEPTS, key="spec_accept", format_func=f.percent, help=s("in_spec_accept_help"), **common_kw)
    c[4].selectbox(s("in_min_model"), data.sizes, key="min_model_b", format_func=lambda v: s("min_model_none") if v <= data.sizes[0] else f.size_b(v),
                   help=s("in_min_model_help"), **common_kw)
    return state.values(scenario.KEYS)
