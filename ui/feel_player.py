""""Feel it": the estimate played in real time, alone or racing another pace. The clock and sleep
are arguments (the app passes `time.monotonic` and `time.sleep`)."""

from __future__ import annotations

from typing import Callable, Sequence

import streamlit as st

from latency import feel
from latency.i18n import Strings, md


def play_one(s: Strings, f, plan: feel.Plan, ttft_s: float, *, sleep: Callable[[float], None], clock: Callable[[], float]) -> None:
    """One stream: the first-token pause, then the answer at the estimated pace; what it took."""
    limit = f.seconds(plan.limit_s)
    if not plan.schedule:
        st.info(s("feel_too_slow", ttft=f.seconds(ttft_s), limit=limit))
        return
    waiting = st.empty()
    waiting.caption(s("feel_waiting", ttft=f.seconds(ttft_s)))
    box = st.empty()
    text, first, t0 = "", None, clock()
    for chunk in feel.stream(plan, sleep=sleep, clock=clock):
        if first is None:
            first = clock() - t0
            waiting.empty()
        text += chunk
        box.markdown(md(text) + "▌")
    box.markdown(md(text))
    done = s("feel_done", ttft=f.seconds(first or 0.0), total=f.seconds(clock() - t0))
    if plan.truncated:
        done += " " + s("feel_cut", limit=limit, full=f.seconds(plan.full_s))
    st.caption(done)


def race(s: Strings, f, tokens: Sequence[str], sides: Sequence[tuple[str, feel.Pace]], *,
         sleep: Callable[[float], None], clock: Callable[[], float]) -> None:
    """Two paces side by side on one clock (a horizontal row: columns would stack on a phone)."""
    plans = [feel.plan(tokens, pace) for _, pace in sides]
    row = st.container(horizontal=True, gap="medium")
    cols = [row.container(width="stretch") for _ in sides]
    boxes, texts = [], ["" for _ in sides]
    firsts: list[float | None] = [None for _ in sides]
    lasts: list[float | None] = [None for _ in sides]
    for col, (label, pace) in zip(cols, sides):
        col.markdown(f"**{md(label)}**")
        col.caption(s("feel_pace", ttft=f.seconds(pace.ttft_s), tps=f.tps_per_user(pace.tokens_per_s)))
        box = col.empty()
        box.caption(s("feel_waiting", ttft=f.seconds(pace.ttft_s)))
        boxes.append(box)
    t0 = clock()
    for frame in feel.play(plans, sleep=sleep, clock=clock):
        now = clock() - t0
        for idx, tok in frame:
            texts[idx] += tok
            lasts[idx] = now
            firsts[idx] = now if firsts[idx] is None else firsts[idx]
        for idx in {i for i, _ in frame}:
            boxes[idx].markdown(md(texts[idx]) + "▌")
    for idx, (col, p) in enumerate(zip(cols, plans)):
        if firsts[idx] is None:
            col.info(s("feel_too_slow", ttft=f.seconds(sides[idx][1].ttft_s), limit=f.seconds(p.limit_s)))
            continue
        boxes[idx].markdown(md(texts[idx]))
        done = s("feel_done", ttft=f.seconds(firsts[idx]), total=f.seconds(lasts[idx]))
        if p.truncated:
            done += " " + s("feel_cut", limit=f.seconds(p.limit_s), full=f.seconds(p.full_s))
        col.caption(done)
