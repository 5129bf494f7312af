"""The scenario inputs of the explorer pages: presets, then the widgets, as one dict of values.

Widget keys are the scenario's URL keys (latency.estimation.scenario.KEYS); ui/state.py keeps them across
pages and in the URL. Every label and help text comes from content/ui/estimator.yaml and
content/ui/scenario.yaml.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Mapping, Sequence

import streamlit as st

from latency.estimation import engines, estimator, scenario
from latency.language import formats
from latency.language.i18n import Strings, md
from latency.estimation.network import ACCESS_RTT_MS
from latency.estimation import places as _places
from latency.estimation.places import load_places as _load_places
from ui import shell, state


load_places = functools.lru_cache(maxsize=1)(_load_places)  # content/places.yaml, read once (notices name places)


def apply_preset(presets: Sequence, key: str) -> None:
    """Callback of the preset pills: set every input of the estimator the chosen preset names (RESET_KEYS: a preset
    carries every scenario key, and the launch check's own plan, requests a day, monthly limit and the rest, at
    their defaults; the Start-over newcomer try found a pill silently putting that plan back to 10,000 and 0)."""
    preset = next((p for p in presets if p.id == st.session_state.get(key)), None)
    if preset is not None:
        st.session_state["est_before_preset"] = state.values(scenario.KEYS)
        state.set_values({k: v for k, v in preset.values.items() if k in RESET_KEYS})
        st.session_state[key] = preset.id


RESET_KEY = "est_reset"
RESET_KEYS = tuple(k for k in scenario.KEYS if k not in scenario.LAUNCH_KEYS and k != "device_scope") + scenario.LAUNCH_ESTIMATE_KEYS
"""What "Start over" puts back: every input of the estimator, the target that comes with the use case included, and the
launch check's inputs that change the estimate (prefix caching, speculative decoding: named beside its figures when set).
The launch check's own plan (requests a day, monthly limit, smallest model, places) and the trade-off page's device filter
are kept: a reset here must not silently wipe another page's work (the places follow the distance there)."""


def reset_inputs(default: Mapping[str, Any]) -> None:
    """Callback of "Start over" (Korean learner trial: no way back to where the page began after a dozen changes):
    every input to the value the page opens with, and no preset in force."""
    state.set_values({k: default[k] for k in RESET_KEYS if k in default})
    st.session_state[state.PRESET] = None


NOT_NAMED = ("budget_s", "measure", "device_scope", "requests_per_day", "monthly_budget_usd", "min_model_b",
             "users_place", "server_place")
"""Inputs a preset line does not name: the target comes with the use case; the trade-off page's device filter and
the launch check's own plans (its places follow the distance there) are not on the estimator (PM trial item 10:
"Server region tokyo", "Hardware to compare cloud" beside a preset whose server is in the same city)."""


def preset_changes(preset, before: dict[str, Any], label, value_text) -> str:
    """One line naming every input of the estimator a preset set to a value other than what it was."""
    changed = [f"{label(k)} {value_text(k, v)}" for k, v in preset.values.items()
               if k in before and before[k] != v and k in scenario.KEYS and k not in NOT_NAMED]
    return " · ".join(changed)


def claims_text(s: Strings, f, preset, result: tuple, data, lang: str) -> str:
    """Both sides of the comparison in one sentence: what the entry states for this preset (its own
    wording for a table class, the example's target otherwise), then the estimate for each measure and
    where it falls (inside, faster or slower than the entry's range)."""
    ttft, _, total, _ = result
    kind, ref = preset.source
    label = md(preset.label[lang])
    if kind == "comparison":
        cls = data.classes[ref]
        rng = cls.latency_s
        checks = [("ttft", ttft, rng.min, rng.max), ("total", total, rng.min, rng.max)]
        stated = md(cls.latency)
    else:
        ex = data.examples[ref]
        if ex.budget_s is None:
            return s("preset_no_figure", label=label)
        measure = ex.measure or "total"
        checks = [(measure, ttft if measure == "ttft" else total, 0.0, ex.budget_s)]
        stated = s("within_s", v=f.seconds(ex.budget_s)) + " (" + s(f"claim_measure_{measure}") + ")"
    out = []
    for measure, value, lo, hi in checks:
        key = "preset_inside" if lo <= value <= hi else ("preset_faster" if value < lo else "preset_slower")
        out.append(s(key, claim=s(f"claim_{measure}", value=f.seconds(value))))
    return s("preset_claims", label=label, stated=stated, claims=", ".join(out))


PREVIEW_KEYS = ("model_size_b", "hardware", "precision", "distance_km", "concurrency", "use_case")
"""What a preset's preview names: the inputs a PM would notice changing (the rest are in "Inputs changed")."""


def preset_summary(preset, label, value_text) -> str:
    """A preset's main settings in words ("model size 1.24B, hardware NVIDIA L4, ..."), as plain text (escape it to show it)."""
    return ", ".join(f"{label(k)} {value_text(k, preset.values[k])}" for k in PREVIEW_KEYS if k in preset.values)


def show_presets(s: Strings, presets: Sequence, lang: str, label, value_text, claims) -> None:
    """The preset pills and, after a click, what the preset changed and what the entry claims for it."""
    labels = {p.id: p.label[lang] for p in presets}
    st.pills(s("presets_heading"), list(labels), format_func=labels.get, key="est_preset",
             on_change=apply_preset, args=(presets, "est_preset"), help=s("presets_help"))
    with st.expander(s("presets_preview"), icon=":material/visibility:"):  # what each one sets, before a click
        st.markdown("\n".join(f"- **{md(p.label[lang])}**: " + md(preset_summary(p, label, value_text)) for p in presets))
    chosen = next((p for p in presets if p.id == st.session_state.get("est_preset")), None)
    if chosen is not None:
        st.caption(s("preset_applied", label=md(chosen.label[lang]), note=md(chosen.note[lang])))
        before = st.session_state.get("est_before_preset") or {}
        changes = preset_changes(chosen, before, label, value_text)
        if changes:
            st.caption(s("preset_changed", changes=md(changes)))
        st.caption(claims(chosen))
        if chosen.source[0] == "comparison" and chosen.values.get("use_case"):  # the table names no use: say whose target judges it
            st.caption(s("preset_verdict_use", use_case=md(value_text("use_case", chosen.values["use_case"])), box=s("use_case")))


def show(s: Strings, data, labels: dict[str, dict]) -> dict[str, Any]:
    """The input widgets; returns the scenario values. Precision, users and GPUs stay in sight;
    the rest folds into "advanced" (its widgets run only while it is open: values live on in the
    saved scenario and the URL). labels: every option's text by input key (`all_option_texts`)."""
    st.select_slider(s("model_size"), options=data.sizes, key="model_size_b", format_func=labels["model_size_b"].get,
                     help=s("model_size_help"), on_change=state.touched)
    named_stops(s("size_stops"), "model_size_b", named_sizes(data), labels["model_size_b"].get)
    common = shell.strings("common", s.lang)  # read once: the drop-down formats every option on every rerun
    names = shell.strings("scenario", s.lang)
    st.selectbox(s("hardware"), data.hw_order, key="hardware", format_func=lambda h: hardware_choice(data.catalog, s.lang, h, common, names),
                 help=s("hardware_help"), on_change=on_hardware, args=(data.catalog, data.stops))
    hardware_caption(data.catalog, s.lang, st.session_state.get("hardware"), names)
    network_caption(data.catalog, data.stops, names, hints=True)
    st.select_slider(s("distance"), options=data.distances, key="distance_km", format_func=labels["distance_km"].get,
                     help=s("distance_help"), on_change=state.touched)
    places = {stop.km: stop.short[s.lang] for stop in sorted(data.stops, key=lambda stop: stop.km)}
    named_stops(s("distance_stops"), "distance_km", tuple(places), places.get)
    st.selectbox(s("precision"), list(data.catalog.precisions), key="precision",
                 format_func=lambda p: precision_choice(s, data.catalog, p), help=s("precision_help"), on_change=state.touched)
    st.caption(md(labels["precision"].get(st.session_state.get("precision"), "")))  # whole, where the box shows it short
    why = low_bit_not_run(data.catalog, st.session_state.get("precision"), st.session_state.get("hardware"),
                          st.session_state.get("engine", scenario.ENGINE_AUTO))
    if why:
        st.caption(s(f"precision_{why}", device=data.catalog.hardware[st.session_state["hardware"]].label(s.lang).split(" (")[0],
                     advanced=s("advanced").split(":")[0]))
    st.selectbox(s("devices"), scenario.device_options(st.session_state.get("devices")), key="devices",
                 format_func=lambda d: labels["devices"].get(d) or option_text(s, data, formats.get(s.lang), s.lang, "devices", d),
                 help=s("devices_help"), on_change=state.touched)
    state.number_input(s("concurrency"), "concurrency", data.specs["concurrency"], step=1, help=s("concurrency_help"))
    st.segmented_control(s("arrival"), list(scenario.ARRIVALS), key="arrival", required=True,
                         format_func=labels["arrival"].get, help=s("arrival_help"), on_change=state.touched)
    with st.container(horizontal=True):  # the question and a pasted document side by side (issue 33 item 4)
        state.number_input(s("prompt_tokens"), "prompt_tokens", data.specs["prompt_tokens"], step=128,
                           help=s("prompt_tokens_help"))
        state.number_input(s("document_tokens"), "document_tokens", data.specs["document_tokens"], step=1024,
                           help=s("document_tokens_help"))
        state.number_input(s("output_tokens"), "output_tokens", data.specs["output_tokens"], step=32,
                           help=s("output_tokens_help"))
    state.number_input(s("context_tokens"), "context_tokens", data.specs["context_tokens"], step=1024,
                       help=s("context_tokens_help"))
    advanced = st.expander(s("advanced"), key="est_advanced", on_change="rerun")
    with advanced:
        if advanced.open:
            state.appearing(ADVANCED_KEYS)
            st.segmented_control(s("arch"), list(scenario.ARCHITECTURES), key="arch", required=True,
                                 format_func=labels["arch"].get, help=s("arch_help"), on_change=state.touched)
            st.selectbox(s("access"), list(scenario.ACCESS_NETWORKS), key="access", format_func=labels["access"].get,
                         help=s("access_help"), on_change=state.touched)
            st.segmented_control(s("connection"), list(scenario.CONNECTIONS), key="connection", required=True,
                                 format_func=labels["connection"].get, help=s("connection_help"), on_change=state.touched)
            st.selectbox(s("engine"), list(scenario.ENGINE_CHOICES), key="engine", format_func=labels["engine"].get,
                         help=s("engine_help"), on_change=state.touched)
    if not advanced.open:
        state.folded(ADVANCED_KEYS)
    st.button(s("reset"), key=RESET_KEY, icon=":material/restart_alt:", on_click=reset_inputs, args=(data.default,))
    st.caption(s("reset_help"))  # readable before pressing on a phone too (a tooltip needs a hover)
    values = state.values(scenario.KEYS)
    if not advanced.open:  # folded inputs still in force: named when they are not the default (issue 33 item 4)
        unseen(ADVANCED_KEYS, values, data.default, lambda k, v: labels[k].get(v, str(v)))
    return values


ON_DEVICE_STOP = "same_building"
"""The distance stop of a model that runs where its user is (content/places.yaml: 0 km, no places)."""


def on_device_values(stops) -> dict[str, Any]:
    """The network inputs of a model that runs on the user's own device: no distance, no access network (the
    lightweight preset's "local, no network")."""
    return {"distance_km": next(stop.km for stop in stops if stop.id == ON_DEVICE_STOP), "access": "none"}


def is_on_device(stops, distance_km, access) -> bool:
    """Whether the network inputs are those of a model on the user's own device (`on_device_values`)."""
    return {"distance_km": distance_km, "access": access} == on_device_values(stops)


BEFORE_PHONE = "est_before_phone"  # page state: the distance and users' internet in force before a phone was chosen
PHONE_RESTORED = "est_phone_restored"  # page state: they were put back on leaving the phone (said once under the box)


def on_hardware(catalog, stops) -> None:
    """on_change of the device box: `touched`, and choosing a phone moves the network inputs to on-device (a newcomer
    try at 390 px: "the model runs inside the phone, yet time is still added for a trip to a Tokyo server"). The
    caption under the box says so (`phone_network`); the reader can move them back."""
    state.touched()
    entry = catalog.hardware.get(st.session_state.get("hardware"))
    current = state.values(("distance_km", "access"))  # the saved copy too: the trade-off page has no access box
    now = {k: current.get(k) for k in ("distance_km", "access")}
    if entry is not None and entry.device_class == "phone":
        if not is_on_device(stops, **now):  # what to put back when the reader leaves the phone again
            st.session_state[BEFORE_PHONE] = now
        state.set_values(on_device_values(stops))
    elif BEFORE_PHONE in st.session_state:
        before = st.session_state.pop(BEFORE_PHONE)
        if is_on_device(stops, **now):  # still the phone's network, untouched: back to the reader's own (the fifth try: "after
            # A17 Pro -> H100 the cloud server stays in the same building with no internet, and nothing says so")
            state.set_values(before)
            st.session_state[PHONE_RESTORED] = True


def network_caption(catalog, stops, names: Strings, hints: bool) -> None:
    """Under the device box: what choosing a phone did to the network inputs, or that they came back on leaving it;
    with `hints` (the estimator, where the users' internet box is), that a phone or a desk device still has a trip
    to a server in force and how to drop it."""
    current = state.values(("hardware", "distance_km", "access"))  # the saved copy where a page has no box for one
    hid, distance_km, access = (current.get(k) for k in ("hardware", "distance_km", "access"))
    on_phone = phone_network(catalog, stops, hid, distance_km, access)
    if on_phone == "on_device" or (on_phone and hints):
        st.caption(names(f"phone_{on_phone}"))
    elif on_phone:  # a trip in force on a page without the users' internet box: say where that box is
        st.caption(names("phone_network_other"))
    elif st.session_state.pop(PHONE_RESTORED, False):
        st.caption(names("phone_restored"))
    elif hints and local_with_network(catalog, stops, hid, distance_km, access):
        st.caption(names("local_hint"))


def phone_network(catalog, stops, hid, distance_km, access) -> str | None:
    """What the caption under the device box says of a phone's network: "on_device" where the set-up has no
    network (the phone runs the model), "network" where a distance or an access network is still in force (the
    reader moved them back: the figures then add a trip to a server the phone does not need); None for other
    devices."""
    entry = catalog.hardware.get(hid)
    if entry is None or entry.device_class != "phone":
        return None
    return "on_device" if is_on_device(stops, distance_km, access) else "network"


LOCAL_CLASSES = ("desktop", "laptop", "workstation")
"""Where a device may run on the reader's own desk as well as in a server room (catalog device_class)."""


def local_with_network(catalog, stops, hid, distance_km, access) -> bool:
    """A desk or laptop device with a network trip in force: the caption says how to drop it if it runs on the
    reader's own desk (the fifth newcomer try: "is my own desk computer in Tokyo?")."""
    entry = catalog.hardware.get(hid)
    return entry is not None and entry.device_class in LOCAL_CLASSES and not is_on_device(stops, distance_km, access)


def low_bit_not_run(catalog, pid, hid, engine) -> str | None:
    """Why a low-bit float format does not compute as itself here, said beside the box, as a content key's tail.
    NVFP4 (newcomer try, 390 px: "NVFP4 can be picked on an H100 without a word"): "fp4_here" where the device has
    no FP4 tensor cores (the estimator runs 4-bit weights unpacked to 16-bit, estimator.weight_format_of),
    "fp4_engine" where it has them but llama.cpp runs the set-up (the second try: "the DGX Spark is Blackwell, yet
    the page says it has no FP4"). FP8 (the third try: "FP8 on an A100 has no note that it runs as INT8"):
    "fp8_int8" where a serving engine runs it on a device without FP8 tensor cores (W8A8 INT8), "fp8_engine" where
    llama.cpp runs it (no FP8 there: its 8-bit block format) on a device with FP8 tensor cores, "fp8_engine_none" on
    one without (the fourth try: "the caption does not say whether the RTX 4090 has FP8"). None where the format computes as itself, or another
    format is chosen."""
    p, h = catalog.precisions.get(pid), catalog.hardware.get(hid)
    if p is None or h is None or p.family not in ("fp4", "fp8"):
        return None
    name = estimator.DEFAULT_ENGINE[h.hardware.kind] if engine in (None, scenario.ENGINE_AUTO) else engine
    on_serving_engine = engines.profile(name).family == "optimized"
    if p.family == "fp4":
        if not h.hardware.fp4_speedup:
            return "fp4_here"
        return None if on_serving_engine else "fp4_engine"
    if not on_serving_engine:
        return "fp8_engine" if h.hardware.fp8 else "fp8_engine_none"
    return None if h.hardware.fp8 else "fp8_int8"


def precision_choice(s: Strings, catalog, pid: str) -> str:
    """A precision as the drop-down box shows it: short enough for the box at 1366 px and on a phone (PM trial item
    13: "FP16 / BF16 (16-bit) · 2 bytes per learned nur"): the name without its bracketed details and the bytes
    ("Q4_K_M · 0.611 bytes"); the caption under the box gives it whole (`option_text`)."""
    p = catalog.precisions.get(pid)
    if p is None:
        return str(pid)
    return s("precision_choice_one" if p.bytes_per_param == 1 else "precision_choice", label=p.label(s.lang).split(" (")[0],
             bytes=f"{p.bytes_per_param:g}")


def named_sizes(data) -> tuple[float, ...]:
    """The slider steps that are the catalog's models (content/models.yaml: Llama 3.1 8B at 8.03B, ...): the
    sizes a reader looks for by name."""
    return tuple(sorted({min(data.sizes, key=lambda v: abs(v - entry.model.params_b)) for entry in data.catalog.models.values()}))


def named_stops(label: str, key: str, options: Sequence, format_func) -> None:
    """One tap to a named stop of a slider (PM trial item 12: 70.6B took 53 key presses on the size slider, US West a
    hunt through 30 distances). The pill of the slider's current value shows as chosen; a tap sets the slider."""
    pills = f"est_stops_{key}"  # page state: est_ (not a URL key)
    current = st.session_state.get(key)
    st.session_state[pills] = current if current in options else None
    st.pills(label, options, key=pills, format_func=format_func, on_change=jump_to_stop, args=(pills, key))


def jump_to_stop(pills: str, key: str) -> None:
    """Callback of `named_stops`: the slider takes the tapped stop (a tap on the chosen one changes nothing)."""
    value = st.session_state.get(pills)
    if value is not None:
        st.session_state[key] = value
        state.touched()


ADVANCED_KEYS = ("arch", "access", "connection", "engine")
"""The estimator's inputs folded under "Advanced" (drawn only while it is open)."""


def unseen(keys: Sequence[str], values: dict[str, Any], default: dict[str, Any], value_text) -> None:
    """One caption naming the inputs among `keys` that are in force but not on screen, where they differ
    from the default (set by a link or on another page), each as its name and value on screen."""
    names = shell.strings("scenario")
    items = [names("unseen_item", name=names(f"input_{k}"), value=value_text(k, values[k]))
             for k in keys if k in values and values[k] != default.get(k)]
    items += launch_items(names, formats.get(names.lang), values)
    if items:
        st.caption(names("unseen_inputs", items=md(", ".join(items))))


def launch_items(names: Strings, f, values: Mapping[str, Any]) -> list[str]:
    """The launch check's inputs that change the estimate and are switched on (`scenario.launch_inputs_in_force`),
    in words: the explorer pages do not show them, so they name them beside their inputs."""
    on = scenario.launch_inputs_in_force(values)
    out = []
    if "prefix_cache" in on:
        out.append(names("unseen_prefix_cache", share=f.percent(on["prefix_cache"])))
    if "spec_tokens" in on:
        k, accept = on["spec_tokens"]
        out.append(names("unseen_spec", k=k, accept=f.percent(accept)))
    return out


def device_class(entry, lang: str, names: Strings | None = None) -> str:
    """Where a device runs, in words ("desktop: a computer on a desk"): the catalog's `device_class`
    (content/hardware.yaml, each with its source), never guessed from the estimator's kind (which called
    an M2 Ultra and a DGX Spark laptop chips, issue 31 item 4)."""
    # A drop-down formats every option on every rerun: pass `names` (shell.strings("scenario")) fetched once.
    return (names or shell.strings("scenario", lang))(f"class_{entry.device_class or 'datacenter'}")


def hardware_option(catalog, lang: str, hid: str, common: Strings | None = None, names: Strings | None = None) -> str:
    """A device as every drop-down names it: its name and its plain class ("NVIDIA L4 (data centre:
    cloud servers)"), the same on the estimator and the trade-off page."""
    entry = catalog.hardware.get(hid)
    if entry is None:
        return str(hid)
    # A drop-down formats every option on every rerun: pass `common` (shell.strings("common")) fetched once.
    common = common or shell.strings("common", lang)
    return common("hardware_option", name=entry.label(lang), kind=device_class(entry, lang, names))


VENDORS = ("NVIDIA GeForce ", "NVIDIA ", "GeForce ", "AMD Instinct ", "AMD ", "Apple ")


def hardware_choice(catalog, lang: str, hid: str, common: Strings | None = None, names: Strings | None = None) -> str:
    """A device as the drop-down box shows it: short enough for the box at every width (a text box cannot
    wrap; it cut "NVIDIA H100 SXM (data-centre GPU: cloud ser" at 1366 px): the name without its vendor
    and its bracketed details, and the class's first words ("H100 SXM · data-centre GPU"). The caption
    under the box (`hardware_caption`) names the chosen device whole, with its class and memory."""
    entry = catalog.hardware.get(hid)
    if entry is None:
        return str(hid)
    common = common or shell.strings("common", lang)
    name = entry.label(lang).split(" (")[0]
    for vendor in VENDORS:
        if name.startswith(vendor):
            name = name[len(vendor):]
            break
    return common("hardware_choice", name=name, kind=device_class(entry, lang, names).split(":")[0])


def hardware_caption(catalog, lang: str, hid, names: Strings | None = None) -> None:
    """The chosen device in full under its drop-down: a box one line wide cuts a long name ("NVIDIA DGX Spark
    (GB10, unified memory) (laptop chip: built-in graphics)") at 1366 px; here it wraps, with its memory and what it
    is in plain words (a newcomer try at 390 px could not decode "EPYC 9654 x2", MI300X, A17 Pro, "HGX/DGX")."""
    entry = catalog.hardware.get(hid)
    if entry is None:
        return
    common = shell.strings("common", lang)
    st.caption(common("hardware_caption", name=md(entry.label(lang)), kind=device_class(entry, lang, names),
                      memory=formats.get(lang).gb(entry.hardware.memory_gb).replace(" ", "\u00a0"),  # "80 GB" on one line
                      about=md(entry.about.get(lang, ""))))


def hardware_class(catalog, lang: str, hid: str) -> str:
    """A device's plain class alone ("data-centre GPU", "laptop chip"), for a sentence that names the kind of
    chip and folds its model name away (ui/term_claims.py)."""
    return device_class(catalog.hardware[hid], lang).split(":")[0]


def launch_value_text(f, lang: str, key: str, value: Any) -> str:
    """A value of the launch check's inputs that the explorer pages take unseen (`scenario.LAUNCH_ESTIMATE_KEYS`), as
    the launch check shows it: shares in percent (a link's notice read "0.99" on one page and "99%" on another)."""
    if key in ("prefix_share", "spec_accept"):
        return f.percent(float(value))
    if key == "prefix_cache":
        return shell.strings("launch", lang)(f"prefix_cache_{value}") if value in scenario.PREFIX_CACHE else str(value)
    if key == "spec_tokens":
        return shell.strings("launch", lang)("spec_off") if not value else f.count(value, "tokens")
    return str(value)


def option_text(s: Strings, data, f, lang: str, key: str, value: Any) -> str:
    """How an input's value reads on screen (options, notices, preset lines): names, never ids."""
    if key == "model_size_b":
        return f.size_b(value)
    if key == "distance_km":
        stop = data.stop_at.get(value)
        return s("distance_stop", label=stop.label[lang], km=f.km(value)) if stop else f.km(value)
    if key == "hardware":
        return hardware_option(data.catalog, lang, value)
    if key == "precision":
        p = data.catalog.precisions.get(value)
        if p is None:
            return str(value)
        return s("precision_option_one" if p.bytes_per_param == 1 else "precision_option", label=p.label(lang),
                 bytes=f"{p.bytes_per_param:g}")
    if key == "devices":
        return s("devices_auto") if value == scenario.DEVICES_AUTO else f.count(value, "devices")
    if key == "access":
        return s("access_option", name=s(f"access_{value}"), ms=f"{ACCESS_RTT_MS[value]:g}")
    if key in ("arch", "connection", "engine", "arrival"):
        return s(f"{key}_{value}")
    if key == "use_case":
        u = data.use_cases.get(value)
        return s("use_case_option", label=u.label, measure=s(f"measure_{u.measure}"), budget=f.seconds(u.budget_s)) if u else str(value)
    if key == "budget_s":
        return f.seconds(value)
    if key in ("measure",):
        return s(f"measure_{value}")
    if key in ("prompt_tokens", "document_tokens", "output_tokens", "context_tokens"):
        return f.count(value, "tokens")
    if key == "concurrency":
        return f.count(value, "users")
    if key == "device_scope":  # the trade-off page's device filter, by its name there
        return shell.strings("tradeoffs", lang)(f"scope_{value}") if value in ("cloud", "all") else str(value)
    if key in ("users_place", "server_place"):  # the launch check's places, by name
        if value == scenario.PLACE_CUSTOM:
            return shell.strings("launch", lang)("place_custom")
        place = next((p for p in load_places() if p.id == value), None)
        return place.label[lang] if place else str(value)
    if key == "min_model_b":
        return f.size_b(value)
    if key == "monthly_budget_usd":
        return f.usd(value)
    if key in scenario.LAUNCH_ESTIMATE_KEYS:
        return launch_value_text(f, lang, key, value)
    if key == "requests_per_day":
        return f"{int(value):,}"
    if key == "view" and f"tab_{value}" in s.table:
        return s(f"tab_{value}")
    return str(value)


def with_distance(s: Strings, data, f, lang: str, labels: dict[str, dict]):
    """(data, labels) with the distance in force among the distance slider's steps. The launch check's two
    places give distances that are no step (Seoul to US East, 11,137 km); the slider drew its first step,
    0 km, instead, and the page showed a figure 0.2 s faster than the launch check's (PM trial 2026-12-05).
    Named by the two places where they are the ones in force, also where a stop of the slider with other
    places or none has that distance (Seoul users on a Seoul region read "Same building": `pair_over_stop`)."""
    km = st.session_state.get("distance_km")
    steps = _places.steps_with(data.distances, km)
    where = state.values(("users_place", "server_place"))
    pair = None if km is None else _places.pair_over_stop(data.stops, _load_places(), where.get("users_place"),
                                                         where.get("server_place"), float(km))
    if steps == tuple(data.distances) and pair is None:
        return data, labels
    km = float(km)
    text = s("distance_stop", label=f"{pair[0].label[lang]}→{pair[1].label[lang]}", km=f.km(km)) if pair else f.km(km)
    return dataclasses.replace(data, distances=steps), {**labels, "distance_km": {**labels["distance_km"], km: text}}


def place_pair_km() -> tuple[float, ...]:
    """The launch check's place pairs' distances: kept as they are when a link carries one (`state.restore`'s exact)."""
    return _places.place_pair_distances(_load_places())


def all_option_texts(s: Strings, data, f, lang: str) -> dict[str, dict]:
    """{input key: {option value: text}} for every input with fixed options."""
    options = dict(model_size_b=data.sizes, distance_km=data.distances, hardware=data.hw_order,
                   precision=tuple(data.catalog.precisions), devices=data.device_choices, arch=scenario.ARCHITECTURES,
                   access=scenario.ACCESS_NETWORKS, connection=scenario.CONNECTIONS, engine=scenario.ENGINE_CHOICES,
                   arrival=scenario.ARRIVALS,
                   use_case=tuple(data.use_cases))
    return {key: {v: option_text(s, data, f, lang, key, v) for v in values} for key, values in options.items()}
