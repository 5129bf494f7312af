""""Feel it": the estimate played in real time, alone or racing another pace, and the estimator's
"feel it" section around them. The clock and sleep are arguments (the app passes `time.monotonic`
and `time.sleep`)."""

from __future__ import annotations

from typing import Callable, Sequence

import streamlit as st

from latency.teaching import feel
from latency.estimation import scenario
from latency.language.i18n import Strings, md
from ui import announce, state, style


STILL_KEY = "est_feel_still"  # "show without animation": the timing as text, the answer at once
PLAY_ICON = ":material/play_arrow:"  # drawn beside the label; a literal "▶" was read out as part of the button's name


def play_one(s: Strings, f, plan: feel.Plan, ttft_s: float, *, sleep: Callable[[float], None], clock: Callable[[], float]) -> None:
    """One stream: the first-token pause, then the answer at the estimated pace; what it took."""
    limit = f.seconds(plan.limit_s)
    if not plan.schedule:
        st.info(s("feel_too_slow", ttft=f.seconds(ttft_s), limit=limit))
        return
    waiting = st.empty()  # body text, not a caption: it is what the room watches (presenter trial 2026-12-05: "tiny")
    waiting.markdown(f"**{md(s('feel_waiting', ttft=f.seconds(ttft_s)))}**")
    box = st.empty()
    text, first, t0 = "", None, clock()
    for chunk in feel.stream(plan, sleep=sleep, clock=clock):
        if first is None:
            first = clock() - t0
            waiting.empty()
        text += chunk
        box.markdown(md(text) + "▌")
    box.markdown(md(text))
    # the planned times, as the race reports them: the wall clock, which a busy server stretches, made the lesson's
    # 3 s wait "4.9 s" where the start page's race said 4.8 s for the same answer (learner trial 2026-12-05)
    shown = plan.shown_s if plan.truncated else plan.full_s
    done = s("feel_done", ttft=f.seconds(ttft_s), total=f.seconds(shown))
    if plan.truncated:
        done += " " + s("feel_cut", limit=limit, full=f.seconds(plan.full_s))
    late = (clock() - t0) - shown
    if first is not None and late > LAG_S:
        done += " " + s("feel_late", late=f.seconds(late))
    announce.status(done)  # read out once, politely (the stream above is not)


def show_still(s: Strings, f, tokens: Sequence[str], pace: feel.Pace) -> None:
    """The same timing without anything moving ("show without animation", for a reader who set
    reduced motion or cannot watch a stream): the first-token wait as a line of text, the whole
    answer at once, and the times it would take at this pace, announced like the played result."""
    st.markdown(md(s("feel_still_wait", ttft=f.seconds(pace.ttft_s))))
    st.markdown(md("".join(tokens)))
    announce.status(s("feel_still_done", ttft=f.seconds(pace.ttft_s), total=f.seconds(pace.total_s(len(tokens)))))


SCROLL_INTO_VIEW_JS = ("<script>/*{n}*/(() => {{ const el = document.querySelector('.st-key-{key}'); "
                       "if (el) el.scrollIntoView({{block: 'center'}}); }})();</script>")
"""Brings the container keyed `key` to the middle of the screen, at once (no smooth scrolling: reduced motion holds):
on a phone the ask button sits low, and the wait and the answer played below the screen's edge, out of view
(learner trial 2026-12-05, twice). A constant script with a key of the app's own; `n` makes each press a new element."""


def scroll_into_view(key: str) -> None:
    """Scroll the container keyed `key` into view (`SCROLL_INTO_VIEW_JS`), from a folded scripts-only container."""
    n = st.session_state.get("feel_scroll_n", 0) + 1
    st.session_state["feel_scroll_n"] = n
    st.container(key=f"{style.SCRIPTS_KEY}scroll_{key}").html(
        SCROLL_INTO_VIEW_JS.format(n=n, key=key), unsafe_allow_javascript=True)


LANE_PX = 200
"""A racing lane's height: both lanes and their result stay on one phone screen with the button (learner trial:
two 163 px columns of streaming text put the result ~1,000 px under the button, out of view); the lane scrolls."""
LAG_S = 0.15
"""A lane that finished this much later than planned says so (the server and the browser draw every frame, and a
shared server is slow): the figures it reports are the planned ones, the ones its title and the caption give."""


def race(s: Strings, f, tokens: Sequence[str], sides: Sequence[tuple[str, feel.Pace]], *,
         sleep: Callable[[float], None], clock: Callable[[], float], still: bool = False) -> None:
    """Two paces side by side on one clock (a horizontal row: columns would stack on a phone), each lane a
    fixed-height box; what each took in one line per lane ABOVE the lanes, next to the button that started it.
    The times reported are each pace's own (its first-token wait, the same writing time for the same answer at
    the same speed, their sum), not the wall clock, which a busy server stretches (learner trial: "3초 뒤 시작"
    reported "첫 토큰까지 3.2초", and writing took 1.6 s in one lane and 1.8 s in the other).
    `still`: both shown at once with their timings (show_still), nothing played."""
    if still:
        row = st.container(horizontal=True, gap="medium")
        for label, pace in sides:
            with row.container(width="stretch"):
                st.markdown(f"**{md(label)}**")
                show_still(s, f, tokens, pace)
        return
    plans = [feel.plan(tokens, pace) for _, pace in sides]
    summary = st.container(key="race_result")  # filled when the race ends: in view, right under the button
    row = st.container(horizontal=True, gap="small", key="race_lanes")
    cols = [row.container(width="stretch") for _ in sides]
    boxes, texts = [], ["" for _ in sides]
    firsts: list[float | None] = [None for _ in sides]
    lasts: list[float | None] = [None for _ in sides]
    for col, (label, pace) in zip(cols, sides):
        col.markdown(f"**{md(label)}**")
        col.caption(s("feel_pace", ttft=f.seconds(pace.ttft_s), tps=f.tps_per_user(pace.tokens_per_s)))
        box = col.container(height=LANE_PX, border=True).empty()
        box.caption(s("feel_waiting", ttft=f.seconds(pace.ttft_s)))
        boxes.append(box)
    scroll_into_view("race_lanes")  # both lanes on the screen while they play (an empty container is not drawn)
    t0 = clock()
    for frame in feel.play(plans, sleep=sleep, clock=clock):
        now = clock() - t0
        for idx, tok in frame:
            texts[idx] += tok
            lasts[idx] = now
            firsts[idx] = now if firsts[idx] is None else firsts[idx]
        for idx in {i for i, _ in frame}:
            boxes[idx].markdown(md(texts[idx]) + "▌")
    for idx, p in enumerate(plans):
        label, pace = sides[idx]
        if firsts[idx] is None:
            summary.info(s("feel_too_slow", ttft=f.seconds(pace.ttft_s), limit=f.seconds(p.limit_s)))
            continue
        boxes[idx].markdown(md(texts[idx]))
        shown = p.shown_s if p.truncated else p.full_s
        done = s("feel_race_done", lane=label, ttft=f.seconds(pace.ttft_s), write=f.seconds(shown - pace.ttft_s),
                 total=f.seconds(shown))
        if p.truncated:
            done += " " + s("feel_cut", limit=f.seconds(p.limit_s), full=f.seconds(p.full_s))
        late = (lasts[idx] or 0.0) - p.shown_s
        if late > LAG_S:
            done += " " + s("feel_late", late=f.seconds(late))
        with summary:
            announce.status(done)


@st.fragment
def section(s: Strings, f, data, lang: str, *, sleep: Callable[[float], None], clock: Callable[[], float]) -> None:
    """The estimator's "feel it" section, its own st.fragment: a slider move above does not redraw it
    (nothing in it follows the sliders until a button is pressed), and a click replays only it.
    The pace is the estimate of the scenario as it stands at the click (`state.values`)."""
    st.header(s("feel_heading"))
    st.write(s("feel_intro"))
    sample = data.samples[lang]
    tokens = feel.split_tokens(sample.answer, sample.chars_per_token)
    st.caption(s("feel_question", prompt=md(sample.prompt)))
    # Streamlit cannot read the reader's reduced-motion setting on the server, so the choice is theirs
    # its explanation as a caption, not help=: a tap on a toggle's (?) switches the toggle and shows nothing
    # (Streamlit draws the help inside the toggle's label; newcomer try at 390 px)
    still = st.toggle(s("feel_still"), key=STILL_KEY)
    st.caption(s("feel_still_help"))
    if st.button(s("feel_button"), key="est_feel", type="primary", icon=PLAY_ICON):
        values = state.values(scenario.KEYS)  # read once: the estimate and the answer length below
        est = scenario.evaluate(data.catalog, values)[2]
        if not est.fits:  # no figures for a set-up that cannot run: none to play either
            st.warning(s("feel_no_fit"))
        else:
            st.caption(s("feel_pace", ttft=f.seconds(est.ttft_s), tps=f.tps_per_user(est.decode_tokens_per_s)))
            pace = feel.Pace(est.ttft_s, est.decode_tokens_per_s)
            # as many of the sample's tokens as the answer length set, so "done at" is the estimate's whole answer
            # (learner re-check 2026-12-05: a 32-token autocomplete said 0.26 s, and its feel-it ran 254 tokens to 1.3 s)
            played = tokens[:max(1, int(values.get("output_tokens", len(tokens))))]
            if still:
                show_still(s, f, played, pace)
            else:
                play_one(s, f, feel.plan(played, pace), est.ttft_s, sleep=sleep, clock=clock)
    st.caption(s("feel_sample_note", n=len(tokens), tokens_note=md(sample.tokens_note)))
    fast = data.use_cases["code_autocomplete"].budget_s if "code_autocomplete" in data.use_cases else None
    slow = data.observed_s[0] if data.observed_s else None
    panel = st.expander(s("race_heading", fast=f.seconds(fast or 0), slow=f.seconds(slow or 0)), key="est_race_open", on_change="rerun")
    with panel:
        if panel.open:
            choices = (["pair"] if fast and slow else []) + [p.id for p in data.presets]
            labels = {"pair": s("race_pair", fast=f.seconds(fast or 0), slow=f.seconds(slow or 0))}
            labels.update({p.id: s("race_vs_preset", label=p.label[lang]) for p in data.presets})
            choice = st.selectbox(s("race_choice"), choices, key="est_race", format_func=labels.get)
            if st.button(s("race_button"), key="est_race_go", icon=PLAY_ICON):
                est = current_estimate(data)
                if choice == "pair":
                    sides = [(s("race_fast", ttft=f.seconds(fast)), feel.Pace(fast, est.decode_tokens_per_s)),
                             (s("race_slow", ttft=f.seconds(slow)), feel.Pace(slow, est.decode_tokens_per_s))]
                else:
                    p = next(p for p in data.presets if p.id == choice)
                    _, _, other = scenario.evaluate(data.catalog, p.values)
                    sides = [(s("race_current"), feel.Pace(est.ttft_s, est.decode_tokens_per_s)),
                             (p.label[lang], feel.Pace(other.ttft_s, other.decode_tokens_per_s))]
                race(s, f, tokens, sides, sleep=sleep, clock=clock, still=still)


def current_estimate(data):
    """The estimate of the scenario as the inputs hold it now (the sliders live in another fragment)."""
    return scenario.evaluate(data.catalog, state.values(scenario.KEYS))[2]
