"""The estimator's verdict on one claim, shown under the entry's own wording (issue 9 item 1).

The source sentence stays as written; this box is the app's voice: a coloured badge (holds / holds
under conditions / does not hold), one sentence with the computed numbers, the entry's plain-words
reason (`note`) and links that open the estimator on the scenario the sentence quotes. The verdict
itself comes from `latency.teaching.claims` (pure, computed at run time from `latency.estimate`).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import streamlit as st

from latency.teaching import claims
from latency.language import formats
from latency.estimation import scenario
from latency.estimation.catalog import Catalog
from latency.language.i18n import Strings, md

BADGE = {"holds": ("green", ":material/check_circle:"), "conditional": ("orange", ":material/rule:"),
         "fails": ("red", ":material/cancel:")}
DEFAULT_OUTPUT = scenario.DEFAULTS["output_tokens"]


def value_text(s: Strings, measure: str, value: float) -> str:
    return s(f"unit_{measure}", v=formats.seconds_number(value))


def bound_text(s: Strings, measure: str, bound: tuple[float | None, float | None]) -> str:
    lo, hi = bound
    if lo is not None and hi is not None:
        return s("bound_range", min=formats.seconds_number(lo), max=value_text(s, measure, hi))
    if hi is not None:
        return s("bound_max", max=value_text(s, measure, hi))
    return s("bound_min", min=value_text(s, measure, lo))


def where(s: Strings, catalog: Catalog, lang: str, values: Mapping[str, Any]) -> str:
    """A set-up in a few words: '39.8B Loop · H100 SXM · FP16 · 1,149 km'."""
    return " · ".join(where_parts(s, catalog, lang, values))


def where_changed(s: Strings, catalog: Catalog, lang: str, values: Mapping[str, Any], other: Mapping[str, Any]) -> str:
    """Only what differs in `other` (the compared set-up): '8.03B · NVIDIA L4'."""
    base = set(where_parts(s, catalog, lang, values))
    return " · ".join(p for p in where_parts(s, catalog, lang, other) if p not in base)


def where_parts(s: Strings, catalog: Catalog, lang: str, values: Mapping[str, Any]) -> list[str]:
    arch = "" if values["arch"] == "dense" else " " + s(f"arch_{values['arch']}")
    parts = [f"{formats.size_number(float(values['model_size_b']))}B{arch}",
             catalog.hardware[values["hardware"]].label(lang), catalog.precisions[values["precision"]].label(lang)]
    km = float(values["distance_km"])
    parts.append(s("where_local") if values.get("access") == "none" or km == 0 else f"{km:,.0f} km")
    if int(values["concurrency"]) > 1:
        parts.append(s("where_users", n=int(values["concurrency"])))
    if int(values["output_tokens"]) != DEFAULT_OUTPUT:
        parts.append(s("where_output", n=int(values["output_tokens"])))
    return parts


def sentence(s: Strings, catalog: Catalog, lang: str, r: claims.ClaimResult) -> str:
    """One sentence why, with the estimator's numbers."""
    c = r.check
    shown, counter = r.shown, r.counter
    show = lambda o: md(where(s, catalog, lang, o.values))  # noqa: E731
    val = lambda x: value_text(s, c.measure, x)  # noqa: E731
    common = dict(measure=s(f"measure_name_{c.measure}"), where=show(shown), value=val(shown.value))
    if r.bound is not None:
        bound = bound_text(s, c.measure, r.bound)
        if r.verdict == "conditional" and counter is not None and shown.outcome == "holds":
            k = sum(o.outcome == "holds" for o in r.outcomes)
            return s("why_bound_conditional", n=len(r.outcomes), k=k, bound=bound, where=show(shown),
                     value=val(shown.value), where_not=show(counter), value_not=val(counter.value))
        if shown.outcome == "first_token" or (r.verdict == "conditional" and counter is None):
            return s("why_bound_first_token", bound=bound, ttft=value_text(s, "ttft", shown.ttft_s), **common)
        return s(f"why_bound_{'holds' if shown.outcome == 'holds' else 'fails'}", bound=bound, **common)
    if r.verdict == "conditional" and counter is not None:
        k = sum(o.outcome == "holds" for o in r.outcomes)
        return s("why_versus_conditional", n=len(r.outcomes), k=k, where_not=show(counter),
                 value_not=val(counter.value), other_not=val(counter.other))
    return s(f"why_versus_{'holds' if r.verdict == 'holds' else 'fails'}", other_where=md(where_changed(
        s, catalog, lang, shown.values, shown.other_values)), other=val(shown.other), **common)


def estimator_link(label: str, values: Mapping[str, Any], lang: str) -> None:
    st.page_link("pages/estimator.py", label=label, icon=":material/calculate:",
                 query_params={**claims.link_values(values), "lang": lang})


def show(s: Strings, catalog: Catalog, lang: str, results: Mapping[str, claims.ClaimResult],
         checks: Sequence[Any], row_labels: bool = False) -> None:
    """The verdict box of each check (in the entry's order) on one claim."""
    for check in checks:
        r = results.get(check.id)
        if r is None:
            continue
        color, icon = BADGE[r.verdict]
        with st.container(border=True, key=f"claim_{check.id}"):
            label = s("check_label") + (f" · {s('check_row_' + check.row)}" if row_labels and check.row else "")
            with st.container(horizontal=True, gap="small"):  # the verdict stays whole on a phone; the label wraps
                st.badge(s("verdict_" + r.verdict), icon=icon, color=color)
                st.caption(label)
            text = sentence(s, catalog, lang, r)
            if check.scenarios == claims.REPRESENTATIVE:
                text += " " + s("why_representative", n=len(r.outcomes), k=sum(o.outcome == "holds" for o in r.outcomes))
            st.caption(text + (f" {md(check.note)}" if check.note else ""))
            if r.verdict == "conditional" and r.counter is not None and r.counter is not r.shown:
                estimator_link(s("open_holds"), r.shown.values, lang)
                estimator_link(s("open_counter"), r.counter.values, lang)
            else:
                estimator_link(s("open_shown"), r.shown.values, lang)
