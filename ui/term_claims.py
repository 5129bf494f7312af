"""The estimator's verdict on one claim, shown under the entry's own wording (issue 9 item 1).

The source sentence stays as written; this box is the app's voice: a coloured badge (holds / holds
under conditions / does not hold), one sentence with the computed numbers, the entry's plain-words
reason (`note`) and links that open the estimator on the scenario the sentence quotes. The verdict
itself comes from `latency.teaching.claims` (pure, computed at run time from `latency.estimate`).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

import streamlit as st

from latency.teaching import claims
from latency.language import formats
from latency.estimation import scenario
from latency.estimation.catalog import Catalog
from latency.language.i18n import Strings, md
from ui import scenario_inputs

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


def where(s: Strings, catalog: Catalog, lang: str, values: Mapping[str, Any], plain: bool = False,
          keep: frozenset = frozenset()) -> str:
    """A set-up in a few words: '39.8B Loop · NVIDIA H100 SXM · FP16 / BF16 (16-bit) · 1,149 km'; `plain`:
    the chip by its everyday class and no precision ('39.8B Loop · data-centre GPU · 1,149 km'), except the
    inputs in `keep` (those the compared set-up changes), which keep their full names."""
    return " · ".join(where_parts(s, catalog, lang, values, plain, keep))


def where_changed(s: Strings, catalog: Catalog, lang: str, values: Mapping[str, Any], other: Mapping[str, Any],
                  plain: bool = False, keep: frozenset = frozenset()) -> str:
    """Only what differs in `other` (the compared set-up): '8.03B · NVIDIA L4'."""
    base = set(where_parts(s, catalog, lang, values, plain, keep))
    return " · ".join(p for p in where_parts(s, catalog, lang, other, plain, keep) if p not in base)


def bits(catalog: Catalog, precision: str) -> int:
    """A format's bits per number as a reader knows them (FP16 16, FP8 and INT8 8, INT4 and Q4_K_M 4)."""
    entry = catalog.precisions[precision]
    digits = re.findall(r"\d+", entry.family)
    return int(digits[-1]) if digits else round(8 * entry.bytes_per_param)


def changed_inputs(values: Mapping[str, Any], others: Sequence[Mapping[str, Any]], catalog: Catalog | None = None) -> frozenset:
    """The inputs that differ between a set-up and the ones it is compared with, and that a short set-up
    would leave out (chip name, precision, a single user, the default answer length); "precision_full"
    where two formats have the same bits (FP8 against INT8) and only their names tell them apart."""
    if catalog is not None and any(o.get("precision") != values.get("precision") and
                                   bits(catalog, o["precision"]) == bits(catalog, values["precision"]) for o in others):
        return changed_inputs(values, others) | {"precision_full"}
    return frozenset(k for k in ("arch", "hardware", "precision", "concurrency", "output_tokens", "prompt_tokens",
                                 "context_tokens", "connection", "engine")
                     if any(o.get(k) != values.get(k) for o in others))


def where_parts(s: Strings, catalog: Catalog, lang: str, values: Mapping[str, Any], plain: bool = False,
                keep: frozenset = frozenset()) -> list[str]:
    # a dense model goes unnamed ("8B"), except against a Loop or MoE model: then both sides say their kind
    arch = "" if values["arch"] == "dense" and "arch" not in keep else " " + s(f"arch_{values['arch']}")
    hw = catalog.hardware[values["hardware"]]
    chip = hw.label(lang) if not plain or "hardware" in keep else scenario_inputs.hardware_class(catalog, lang, values["hardware"])
    parts = [f"{formats.size_number(float(values['model_size_b']))}B{arch}", chip]
    if not plain or "precision_full" in keep:
        parts.append(catalog.precisions[values["precision"]].label(lang))
    elif "precision" in keep:  # in plain words: the bits per number ("4비트"), format names folded below
        parts.append(s("where_bits", n=bits(catalog, values["precision"])))
    km = float(values["distance_km"])
    parts.append(s("where_local") if values.get("access") == "none" or km == 0 else f"{km:,.0f} km")
    if int(values["concurrency"]) > 1:
        parts.append(s("where_users", n=int(values["concurrency"])))
    elif "concurrency" in keep:  # compared with many users: say this one is alone, never a blank side
        parts.append(s("where_alone"))
    if int(values["output_tokens"]) != DEFAULT_OUTPUT or "output_tokens" in keep:
        parts.append(s("where_output", n=int(values["output_tokens"])))
    # what only a comparison needs said: the one input the two set-ups differ in
    if "prompt_tokens" in keep:
        parts.append(s("where_prompt", n=int(values["prompt_tokens"])))
    if "context_tokens" in keep:
        parts.append(s("where_context", n=int(values["context_tokens"])))
    if "connection" in keep:
        parts.append(s(f"where_{values['connection']}"))
    if "engine" in keep:
        parts.append(s("where_engine_" + str(values["engine"]).replace(".", "_")))
    return parts


def compared(r: claims.ClaimResult) -> list[Mapping[str, Any]]:
    """The set-ups the sentence names: the one shown, then the counter-example or the compared one."""
    out = [r.shown.values]
    if r.counter is not None and r.counter is not r.shown:
        out.append(r.counter.values)
    if r.bound is None and r.shown.other_values:
        out.append(r.shown.other_values)
    return out


def sentence(s: Strings, catalog: Catalog, lang: str, r: claims.ClaimResult) -> str:
    """One sentence why, with the estimator's numbers; set-ups in plain words (the chip by its class, the
    precision only where the compared set-up changes it): the full specs are folded below (`show`)."""
    c = r.check
    shown, counter = r.shown, r.counter
    keep = changed_inputs(shown.values, compared(r)[1:], catalog)
    show = lambda o: md(where(s, catalog, lang, o.values, plain=True, keep=keep))  # noqa: E731
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
    other_where = where_changed(s, catalog, lang, shown.values, shown.other_values, plain=True, keep=keep) or \
        where_changed(s, catalog, lang, shown.values, shown.other_values)
    return s(f"why_versus_{'holds' if r.verdict == 'holds' else 'fails'}", other_where=md(other_where),
             other=val(shown.other), **common)


def estimator_link(label: str, values: Mapping[str, Any], lang: str) -> None:
    st.page_link("pages/estimator.py", label=label, icon=":material/calculate:",
                 query_params={**claims.link_values(values), "lang": lang})


def show(s: Strings, catalog: Catalog, lang: str, results: Mapping[str, claims.ClaimResult],
         checks: Sequence[Any], row_labels: bool = False, seen: set | None = None) -> None:
    """The verdict box of each check (in the entry's order) on one claim. `seen` (one set per page run)
    holds the sentences already shown: a check the page has already shown gets one line that says so."""
    for check in checks:
        r = results.get(check.id)
        if r is None:
            continue
        color, icon = BADGE[r.verdict]
        text = sentence(s, catalog, lang, r)
        if seen is not None and (r.verdict, text) in seen:
            with st.container(horizontal=True, gap="small"):
                st.badge(s("verdict_" + r.verdict), icon=icon, color=color)
                st.caption(s("check_seen") + (f" {md(check.note)}" if check.note else ""))  # the claim's own reason stays
            continue
        if seen is not None:
            seen.add((r.verdict, text))
        with st.container(border=True, key=f"claim_{check.id}"):
            label = s("check_label") + (f" · {s('check_row_' + check.row)}" if row_labels and check.row else "")
            with st.container(horizontal=True, gap="small"):  # the verdict stays whole on a phone; the label wraps
                st.badge(s("verdict_" + r.verdict), icon=icon, color=color)
                st.caption(label)
            if check.scenarios == claims.REPRESENTATIVE:
                text += " " + s("why_representative", n=len(r.outcomes), k=sum(o.outcome == "holds" for o in r.outcomes))
            st.caption(text + (f" {md(check.note)}" if check.note else ""))
            with st.expander(s("setup_details"), icon=":material/tune:"):  # chips, formats and bits per weight
                st.caption("\n\n".join(md(where(s, catalog, lang, v)) for v in compared(r)))
            if r.verdict == "conditional" and r.counter is not None and r.counter is not r.shown:
                estimator_link(s("open_holds"), r.shown.values, lang)
                estimator_link(s("open_counter"), r.counter.values, lang)
            else:
                estimator_link(s("open_shown"), r.shown.values, lang)
