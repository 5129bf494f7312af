"""What to change (issue 33 item 3): the levers that make a failing set-up pass (or bring it under its
monthly cost limit), cheapest first, each a link that opens its set-up in the launch check; then the
levers that are not enough alone, with their best figure, and those not tried, with why.
The suggestions are `latency.exploring.levers.suggest`: each one a launch check of the changed inputs."""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import streamlit as st

from latency.estimation import scenario
from latency.exploring import levers as L
from latency.exploring.launch import Check
from latency.language.i18n import md
from ui import launch_view, state

STAGE_MOVE_SHARE = 0.05  # a stage is named as moved when it changes by 5% of the target's span or more


def change_text(w: launch_view.Words, sug: L.Suggestion, base_check: Check) -> str:
    """What the lever changes from the set-up `base_check`, in words ("Precision FP16 → FP8"). A device count left
    on 'auto' says the count it came to ("auto (1 device) → 2 devices"; PM try, stop 42: "자동" said no number)."""
    base = base_check.values
    parts = []
    for key in sug.changed:
        if key == "distance_km" and "server_place" in sug.changed:
            continue
        if (key == "devices" and scenario.fixed_devices(base) is None and base_check.fits and "hardware" not in sug.changed
                and sug.values[key] == base_check.devices_per_server):
            continue  # 'auto' that came to this count, kept fixed: no change to name (PM re-check 2026-12-05: "auto (now 2) → 2")
        before = (key == "devices" and w.auto_came_to(base, base_check)) or (w.value(key, base[key]) if key in base else "")
        parts.append(w.s("change_part", name=w.name(key), before=md(before), after=md(w.value(key, sug.values[key]))))
    return ", ".join(parts)


def decode_grows_in_batch(base: Check, c: Check) -> bool:
    """The lever lengthens decode because requests that queued now share the running batch (PM re-check: 'decode
    8.6 s -> 17 s' after adding devices read as a step back)."""
    return (base.fits and c.fits and c.est.breakdown["decode"] - base.est.breakdown["decode"] >= STAGE_MOVE_SHARE * max(base.value_s, 1e-9)
            and c.est.running_batch > base.est.running_batch)


def stage_moves(w: launch_view.Words, base: Check, c: Check, explain: bool = True) -> str:
    """The stages the lever moves, before → after (the same four stages as the launch check)."""
    span = max(base.value_s, 1e-9)
    moved = [(k, base.est.breakdown[k], c.est.breakdown[k]) for k in ("network", "queue", "prefill", "decode")
             if abs(c.est.breakdown[k] - base.est.breakdown[k]) >= STAGE_MOVE_SHARE * span]
    if not moved or not base.fits:
        return ""
    text = w.s("stage_moves", moves=", ".join(
        w.s("stage_move", stage=w.stage(k), before=w.f.seconds(a), after=w.f.seconds(b)) for k, a, b in moved))
    # users who queued are now in the running batch together: each engine step writes tokens for more of them, so
    # each answer is written slower. Said once, under the first suggestion it applies to (`explain`).
    if explain and decode_grows_in_batch(base, c):
        text += " " + w.s("decode_grows_batch", before=f"{int(base.est.running_batch):,}", after=f"{int(c.est.running_batch):,}")
    return text


def quality_notes(w: launch_view.Words, sug: L.Suggestion) -> list[str]:
    """The quality note of each lever a suggestion combines ("precision+moe": two), those that have one."""
    notes = (quality_text(w, L.Suggestion(part, sug.values, sug.changed, sug.check)) for part in sug.lever.split("+"))
    return [q for q in notes if q]


def quality_text(w: launch_view.Words, sug: L.Suggestion) -> str:
    q = sug.quality
    if q is None:
        return ""
    if q == "precision":
        p = w.data.catalog.precisions[sug.values["precision"]]
        return w.s("quality_precision", note=md(p.quality.get(w.lang, "")), source=launch_view.source_link(p.quality_source))
    return w.s(f"quality_{q}")


def result_text(w: launch_view.Words, base: Check, c: Check) -> str:
    s, f = w.s, w.f
    if c.kind == "no_fit":
        return s("lever_no_fit")
    cost = w.money(c.monthly_usd) if math.isfinite(c.monthly_usd) else s("lever_no_price")
    if math.isfinite(c.monthly_usd) and math.isfinite(base.monthly_usd) and base.monthly_usd > 0:
        ratio = c.monthly_usd / base.monthly_usd
        cost = (s("lever_cost_same", cost=cost) if abs(ratio - 1.0) < 0.005
                else s("lever_cost_vs" if ratio < 1 else "lever_cost_times", cost=cost, ratio=w.share_of(ratio)))
    # borderline with the typical user within: the 95% figure is what straddles the target (as the verdict says;
    # a PM try read 'range 0.21-0.75 s, borderline' against a 1 s target)
    key = "borderline_p95" if c.kind == "borderline" and c.verdict is not None and c.verdict.kind == "within" else c.kind
    text = s(f"lever_result_{key}", measure=s(f"measure_{c.measure}"), value=f.seconds(c.value_s),
             margin=f.seconds(abs(c.margin_s)), range=f.range(*c.value_range), cost=cost,
             p95=f.seconds(c.p95_value_s), p95_range=f.range(*c.p95_value_range))
    return text + whole_answer_note(w, base, c)


TOTAL_SLOWER = 1.25
"""A lever judged on the first token that makes the whole answer a quarter slower or more names that change."""


def whole_answer_note(w: launch_view.Words, base: Check, c: Check) -> str:
    """" The whole answer then takes 17 s instead of 4.1 s." where a first-token target hides it (else "")."""
    if c.measure != "ttft" or not (base.fits and c.fits) or c.total_s < TOTAL_SLOWER * base.total_s:
        return ""
    return ". " + w.s("lever_total_slower", before=w.f.seconds(base.total_s), after=w.f.seconds(c.total_s)).rstrip(".")


def lever_name(w: launch_view.Words, lever: str) -> str:
    """A lever's name; two together ("precision+moe") joined."""
    return w.s("lever_and").join(w.s(f"lever_{part}") for part in lever.split("+"))


def suggestion_text(w: launch_view.Words, base: Check, sug: L.Suggestion, n: int) -> str:
    """One suggestion in one line: "1. Device (H100 → L4): first token in 0.5 s, ...; per month ..."."""
    return w.s("lever_link", n=n, lever=lever_name(w, sug.lever), change=change_text(w, sug, base),
               result=result_text(w, base, sug.check))


def plan_values(base: Check, found: Sequence[L.Suggestion] = ()) -> dict[str, Any] | None:
    """The set-up of the cheapest plan that meets the target (launch.cheapest_plan: devices per server with the
    servers it needs), where the set-up as entered does not meet it on one server; else None. None too where
    the plan is one server and a suggestion in `found` already opens its device count: a PM try read "More
    servers (2 -> 4 devices per server, 1 server)" under "2. Devices (2 -> 4)", the same set-up twice, the
    first titled with servers it does not add."""
    if base.plan_servers is None or base.kind == "pass":
        return None
    if base.plan_servers == 1 and any(sug.lever == "devices" and scenario.fixed_devices(sug.values) == base.plan_per_server
                                      for sug in found):
        return None
    return {**base.values, "devices": base.plan_per_server}


def plan_lever(base: Check) -> str:
    """The plan's title: more servers where it takes more than one, else a device count per server."""
    return "servers" if (base.plan_servers or 0) > 1 else "devices"


def plan_text(w: launch_view.Words, base: Check, n: int | None = None, found: Sequence[L.Suggestion] = ()) -> str:
    """"More servers (2 → 8 devices per server, 2 servers): meets the target for 50 users at once; per month $34,923"."""
    s, f = w.s, w.f
    if plan_values(base, found) is None:
        return ""
    parts = []
    if base.plan_per_server != base.devices_per_server:
        parts.append(s("change_part", name=w.name("devices"), before=f.count(base.devices_per_server, "devices"),
                       after=f.count(base.plan_per_server, "devices")))
    parts.append(w.servers(base.plan_servers))
    cost = w.money(base.monthly_to_pass_usd) if math.isfinite(base.monthly_to_pass_usd) else s("lever_no_price")
    text = s("lever_plan", lever=s(f"lever_{plan_lever(base)}"), change=", ".join(parts),
             users=f.count(int(base.values["concurrency"]), "users"), cost=cost)
    return text if n is None else s("lever_numbered", n=n, text=text)


def export_lines(w: launch_view.Words, base: Check, found: list) -> list[str]:
    """'What to change' for the exports: the suggestions in order (then more servers, where that meets the
    target), or that no single change is enough."""
    out = [suggestion_text(w, base, sug, i) for i, sug in enumerate(found, 1)]
    plan = plan_text(w, base, len(out) + 1, found)
    if not found:
        out.append(w.s("levers_none"))
    return out + ([plan] if plan else [])


def suggestion_link(w: launch_view.Words, base: Check, sug: L.Suggestion, n: int, lang: str, explain: bool = True) -> bool:
    """One suggestion: a link that opens its set-up here, and under it the stages it moves and the quality it trades.
    `explain`: say why decode grows, where it does (`decode_grows_in_batch`); True when it was said."""
    s = w.s
    label = suggestion_text(w, base, sug, n)
    st.page_link("pages/launch.py", label=label, icon=":material/arrow_forward:",
                 query_params={**scenario.to_query(sug.values), "lang": lang})
    quality = quality_notes(w, sug)
    why = w.extrapolated(sug.check)
    extrapolated = s(f"lever_extrapolated_{why}", hardware=md(sug.check.entry.label(w.lang))) if why else ""
    notes = [t for t in [extrapolated, stage_moves(w, base, sug.check, explain), *quality,
                         s("lever_streaming_note", total=w.f.seconds(sug.check.total_s)) if "streaming" in sug.lever.split("+") else ""]
             if t]
    if notes:
        st.caption(" ".join(notes))
    return explain and decode_grows_in_batch(base, sug.check)


PAIRS_ASKED = "launch_pairs_for"


def pairs_section(w: launch_view.Words, base: Check, values: Mapping[str, Any], pairs, lang: str) -> None:
    """Two changes together, computed when asked (up to a few hundred launch checks): a button, then the
    passing pairs cheapest first, or a sentence that none does."""
    s = w.s
    key = scenario.to_query(values)
    if st.button(s("pairs_button"), key="launch_pairs", icon=":material/join_inner:", help=s("pairs_help")):
        st.session_state[PAIRS_ASKED] = key
    if st.session_state.get(PAIRS_ASKED) != key:
        return
    found = pairs()
    if not found:
        st.info(s("pairs_none"))
        return
    st.markdown(f"**{s('pairs_heading')}**")
    said = False
    for i, sug in enumerate(found, 1):
        said = suggestion_link(w, base, sug, i, lang, explain=not said) or said


def section(w: launch_view.Words, base: Check, values: Mapping[str, Any], found: list, tried: list, lang: str,
            pairs=lambda: []) -> None:
    s = w.s
    st.segmented_control(s("in_device_scope"), list(scenario.DEVICE_SCOPES), key="device_scope", required=True,
                         format_func=lambda v: s(f"scope_{v}"), on_change=state.touched, help=s("in_device_scope_help"))
    st.caption(s("levers_quality_note"))
    if base.passes:
        st.success(s("levers_passing" if found else "levers_passing_none"))
    elif base.kind == "pass" and base.over_budget:
        st.warning(s("levers_over_budget"))
    if found:
        st.markdown(f"**{s('levers_cheaper_heading' if base.passes else 'levers_found_heading')}**")
        said = False
        for i, sug in enumerate(found, 1):
            said = suggestion_link(w, base, sug, i, lang, explain=not said) or said
    elif not base.passes:
        st.error(s("levers_none"))
    plan = plan_values(base, found)
    if plan is not None:
        st.markdown(f"**{s('levers_plan_heading' if plan_lever(base) == 'servers' else 'levers_plan_heading_one')}**")
        if base.plan_per_server != base.devices_per_server:
            st.page_link("pages/launch.py", label=plan_text(w, base, found=found), icon=":material/arrow_forward:",
                         query_params={**scenario.to_query(plan), "lang": lang})
            st.caption(s("levers_plan_note"))
        else:  # the same devices per server, only more servers: a link would open this very set-up (PM try, stop 40)
            st.markdown(plan_text(w, base, found=found))
            st.caption(s("levers_plan_note_same"))
    if not found and not base.passes:
        pairs_section(w, base, values, pairs, lang)
    if tried:
        # a passing set-up's other changes mostly pass too, at no saving: not 'not enough alone' (PM re-check)
        with st.expander(s("levers_tried_heading_passing" if base.passes else "levers_tried_heading"), expanded=not found):
            lines = []
            for t in tried:
                name = s(f"lever_{t.lever}")
                if t.best is not None and t.reason in ("not_enough", "no_saving", "over_budget", "slower"):
                    line = s(f"lever_{t.reason}", lever=name, change=change_text(w, t.best, base),
                             result=result_text(w, base, t.best.check))
                    if t.lever == "devices" and plan is not None:
                        line += " " + s("lever_devices_with_servers")
                    if t.lever == "precision" and t.reason == "slower":  # why fewer bits are slower (newcomer try, stop 43)
                        line += " " + s("lever_slower_precision_why")
                    # the section's promise, "changes that can change quality say so", holds here too (newcomer try, stop 43)
                    line += "".join(" " + q for q in quality_notes(w, t.best))
                    lines.append(line)
                elif t.reason == "not_enough":
                    lines.append(s("lever_not_enough_nofit", lever=name))
                else:
                    lines.append(s(f"lever_skip_{t.reason}", lever=name))
            st.markdown("\n".join(f"- {line}" for line in lines))
