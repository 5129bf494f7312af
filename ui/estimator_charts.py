"""The estimator's four chart tabs (model size, devices, distance, presets). Lazy: only the open
tab's chart is computed and sent, so a slider move redraws two charts, not five."""

from __future__ import annotations

import numpy as np
import streamlit as st

from latency.estimation import scenario
from latency.charts.estimator import (
    Budget, DeviceRow, PresetRow, Stop, context_figure, devices_figure, distance_figure, presets_figure,
)
from latency.charts.live import size_chart, size_table
from latency.language.i18n import Strings, md
from ui import charts

TABS = ("size", "devices", "distance", "context", "presets_compare")


def size_tab(s: Strings, f, data, values: dict, est) -> None:
    """Time against model size; where the automatic GPU count steps up, and why the curve jumps."""
    st.markdown(f"**{s('size_heading')}**")
    stage = "decode" if est.breakdown["decode"] >= est.breakdown["prefill"] else "prefill"
    st.caption(s("size_bottleneck", bottleneck=s(f"bn_{est.bottleneck[stage]}", stage=s(f"stage_{stage}"))))
    sweep = scenario.size_sweep(data.catalog, values)
    budgets = [Budget(u.label, u.budget_s, u.id == values["use_case"]) for u in data.use_cases.values()]
    names = dict(x_title=s("size_x"), y_title=s("size_y"), ttft=s("series_ttft"), total=s("series_total"),
                 current=s("series_current"), no_fit=s("series_no_fit"), size_hover=s("size_hover"),
                 # the chart's text alternative, carried by the current point's rows (issue 34 item 7)
                 current_alt=s("size_alt", size=f.size_b(values["model_size_b"]), ttft=f.seconds(est.ttft_s),
                               ttft_range=f.range(*est.ranges["ttft_s"]), total=f.seconds(est.total_s),
                               total_range=f.range(*est.ranges["total_s"]),
                               budget=budget_levels(budgets[:0] + [b for b in budgets if b.selected], f.seconds) or "-"))
    changes = scenario.device_changes(sweep["sizes"], sweep["devices"], sweep["fits"])
    spec, rows = size_chart(sweep["sizes"], sweep["ttft"], sweep["total"], sweep["fits"], current_size=float(values["model_size_b"]),
                            current_ttft=est.ttft_s, current_total=est.total_s, ttft_range=est.ranges["ttft_s"],
                            total_range=est.ranges["total_s"], budgets=budgets, steps=[size_b for size_b, _, _ in changes],
                            names=names, fmt_s=f.seconds)
    # The alt text stays the heading: Streamlit hashes alt into the element's identity, so numbers in
    # it would mount the chart afresh on every move; the headline metrics above say the numbers.
    charts.show_live(spec, rows, key="est_chart_size", alt=s("size_heading"))  # redrawn on every slider move: kept, new rows
    panel = charts.table_panel("est_chart_size", s("size_heading"))  # the curve's numbers at round sizes, built only while open
    if panel is not None:
        columns, table = size_table(sweep["sizes"], sweep["ttft"], sweep["total"], sweep["fits"],
                                    current_size=float(values["model_size_b"]), current_ttft=est.ttft_s,
                                    current_total=est.total_s, names=names, fmt_s=f.seconds)
        charts.show_rows(columns, table, panel)
    st.caption(s("size_budgets_caption", budgets=md(budget_levels(budgets, f.seconds))))
    if changes:
        steps = ", ".join(s("device_step", size=f.size_b(size_b), devices=f.count(after, "devices")) for size_b, _, after in changes)
        st.caption(s("device_steps_caption", steps=steps))
    how = st.expander(s("how_to_read"), key="est_how_to_read", on_change="rerun")
    with how:
        if how.open:  # drawn when opened: a slider move does not resend it
            st.caption(s("kitchen"))


def budget_levels(budgets: list[Budget], fmt_s) -> str:
    """Which use cases each budget line of the size chart stands for ("2 s: Client SLA; 1 s: Automatic
    captions, Customer support chatbot"), highest first: the chart writes only the values, beside the plot."""
    levels: dict[float, list[str]] = {}
    for b in budgets:
        levels.setdefault(b.seconds, []).append(b.label)
    return "; ".join(f"{fmt_s(v)}: {', '.join(names)}" for v, names in sorted(levels.items(), reverse=True))


def devices_tab(s: Strings, f, data, values: dict, sized, lang: str) -> None:
    st.markdown(f"**{s('devices_heading')}**")
    rows = [DeviceRow(entry.label(lang), e.ttft_s, e.total_s, e.fits, entry.id == values["hardware"])
            for entry, e in scenario.device_sweep(data.catalog, values, sized)]
    names = dict(x_title=s("size_y"), total=s("series_total"), ttft=s("series_ttft"), no_fit=s("series_no_fit"))
    fit = sorted((r for r in rows if r.fits), key=lambda r: r.total_s)
    mine = next((r for r in rows if r.current), None)
    alt = s("devices_alt", n=len(fit), fast=fit[0].label, fast_total=f.seconds(fit[0].total_s), slow=fit[-1].label,
            slow_total=f.seconds(fit[-1].total_s), device=mine.label if mine else "-",
            total=f.seconds(mine.total_s) if mine and mine.fits else s("series_no_fit"),
            no_fit=len(rows) - len(fit)) if fit else s("devices_heading")
    charts.show(devices_figure(rows, names=names, fmt_s=f.seconds), key="est_chart_devices", name=s("devices_heading"), alt=alt)
    st.caption(s("devices_caption"))


def distance_tab(s: Strings, f, data, values: dict, sized, est, lang: str) -> None:
    st.markdown(f"**{s('distance_heading')}**")
    sweep = scenario.distance_sweep(data.catalog, values, sized)
    marks = [Stop(stop.short[lang], stop.km, float(np.interp(stop.km, sweep["distances"], sweep["ttft"]))) for stop in data.stops]
    names = dict(x_title=s("distance_x"), y_title=s("seconds_axis"), ttft=s("series_ttft"), network=s("series_network"),
                 current=s("series_current"), places=s("series_places"))
    fig = distance_figure(sweep["distances"], sweep["ttft"], sweep["network"], stops=marks, current_km=float(values["distance_km"]),
                          current_ttft=est.ttft_s, names=names, fmt_s=f.seconds)
    charts.show(fig, key="est_chart_distance", name=s("distance_heading"))
    st.caption(s("distance_caption"))


def context_tab(s: Strings, f, data, values: dict, sized, est) -> None:
    """How per-user speed falls as the conversation already in the KV cache grows."""
    st.markdown(f"**{s('context_heading')}**")
    sweep = scenario.context_sweep(data.catalog, values, sized)
    names = dict(x_title=s("context_x"), y_title=s("context_y"), speed=s("series_speed"), current=s("series_current"))
    fig = context_figure(sweep["context"], sweep["tps"], current_context=float(values["context_tokens"]),
                         current_tps=est.decode_tokens_per_s, names=names, fmt_tps=f.tps_per_user)
    charts.show(fig, key="est_chart_context", name=s("context_heading"))
    st.caption(s("context_caption", short=f.tps_per_user(sweep["tps"][0]), long=f.tps_per_user(sweep["tps"][-1]),
                 tokens=f.count(sweep["context"][-1], "tokens")))


def presets_tab(s: Strings, f, data, results: dict, lang: str) -> None:
    """Each preset's estimate against what the entry states for it (fixed: it does not follow the sliders)."""
    st.markdown(f"**{s('presets_compare_heading')}**")
    rows, notes = [], []
    for p in data.presets:
        ttft, ttft_r, total, total_r = results[p.id]
        kind, ref = p.source
        if kind == "comparison":
            rng = data.classes[ref].latency_s
            rows.append(PresetRow(s("preset_row", label=p.label[lang], measure=s("measure_ttft")), ttft, *ttft_r, rng.min, rng.max, "diamond"))
            rows.append(PresetRow(s("preset_row", label=p.label[lang], measure=s("measure_total")), total, *total_r, rng.min, rng.max))
            continue
        ex = data.examples[ref]
        measure = ex.measure or "total"
        value, r = (ttft, ttft_r) if measure == "ttft" else (total, total_r)
        stated = (0.0, ex.budget_s) if ex.budget_s is not None else (None, None)
        rows.append(PresetRow(s("preset_row", label=p.label[lang], measure=s(f"measure_{measure}")), value, *r, *stated,
                              "diamond" if measure == "ttft" else "circle"))
        if ex.budget_s is None:
            notes.append(s("preset_no_figure", label=md(p.label[lang])))
    names = dict(x_title=s("size_y"), estimate=s("estimate_label"), stated=s("stated_range"))
    inside = sum(1 for r in rows if r.stated_high_s is not None and (r.stated_low_s or 0) <= r.estimate_s <= r.stated_high_s)
    stated = sum(1 for r in rows if r.stated_high_s is not None)
    alt = s("presets_alt", rows="; ".join(f"{r.label} {f.seconds(r.estimate_s)}" for r in rows), inside=inside, stated=stated)
    charts.show(presets_figure(rows, names=names, fmt_s=f.seconds), key="est_chart_presets", name=s("presets_compare_heading"),
                alt=alt)
    st.caption(" ".join([s("presets_compare_caption"), s("presets_fixed")] + notes))
