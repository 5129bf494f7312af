"""Room load test (issues 25, 30): one presenter and N participants (60 by default) in one room
through the peer-instruction flow, each a session speaking Streamlit's websocket protocol as a
browser tab does (benchmarks/load.py).

    python benchmarks/room_load.py                         # 60 participants, answers within 10 s
    python benchmarks/room_load.py --participants 3 --think 2    # the small run tests/test_room_load.py does
    LATENCY_DB_URL=postgresql://... python benchmarks/room_load.py --servers 2   # two processes, one database

It starts the app on free loopback ports (`--servers` processes on one store: a fresh SQLite file in
a temporary data directory, or LATENCY_DB_URL), opens a room through the store (as the presenter's
"open a room" button does), joins the participants through the store and opens each one's session
on /lesson?room=CODE with the participant's cookie (as the phone that joined sends it), spread over
the servers, the presenter's on the first server with ?present=1&key=. Every session does what its
browser does: it answers the server's `auto_rerun` (the room's st.fragment(run_every=LIVE_S)) with a
fragment rerun every interval. Then the presenter moves the room through one question as peer
instruction runs it: the question opens (first vote), the spread is shown (the vote closes), the
second vote opens, the answers are revealed. In each vote every participant, once the vote's radio
reaches it, answers within `--think` seconds (uniform), its choice drawn at random.

Prints, with a baseline measured in the same run (the plain page benchmarks/baseline_page.py, four
plotly charts, rerun `--baseline-runs` times on its own server before the room starts):
- answer -> shown on the presenter's screen: p50, p95, max over both votes (the k-th answer of a
  vote sent against the first presenter run that counts k answers; goal p95 within 2 s);
- presenter's move -> shown on a phone: p50, p95, max over the four moves and every phone (the
  move written to the store against the phone's first run showing the new state; goal p95 within 2 s);
- server CPU per participant rerun (utime+stime of every server process over the flow, divided
  by the participants' reruns), and its ratio to a baseline page rerun;
- errors (exceptions on a page, timeouts; goal 0) and answers lost (sent but not counted by the
  store or the presenter's screen; goal 0).
Exit status 1 on any error or lost answer; timings never fail it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import websockets  # noqa: E402  (installed with streamlit)
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from load import DONE, HOST, RUN_TIMEOUT_S, cpu_s, free_port, pct, start_server, stop_server  # noqa: E402
from latency.estimation.catalog import load_catalog  # noqa: E402
from latency.estimation.places import load_stops  # noqa: E402
from latency.language import i18n  # noqa: E402
from latency.room import store as room_store  # noqa: E402
from latency.room.store import SPREAD, VOTE2  # noqa: E402
from latency.teaching import lesson, quiz  # noqa: E402

LANG = "ko"


@dataclass
class Tab:
    """One browser tab on /lesson: its websocket, the fragments that rerun on their own, the last
    run's radio (question id, widget id, fragment id, options) and markdown."""

    port: int
    query: dict[str, str]
    name: str
    page: str = "lesson"
    cookie: str = ""      # the room's cookie, as the phone that joined sends it
    auto: dict[str, float] = field(default_factory=dict)   # fragment id -> interval s
    radio: tuple[int, str, str, list[str]] | None = None   # (vote 1 or 2, widget id, fragment id, options)
    markdown: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)     # markdown and alert bodies of the last run
    exceptions: list[str] = field(default_factory=list)
    states: dict[str, str] = field(default_factory=dict)    # widget id -> value, sent with every rerun as a browser does
    page_hash: str = ""   # the page's script hash from the server's new_session, sent back as the browser does
    reruns: int = 0
    ws: object = None

    async def open(self) -> None:
        self.ws = await websockets.connect(f"ws://{HOST}:{self.port}/_stcore/stream", subprotocols=["streamlit"],
                                           max_size=None, open_timeout=RUN_TIMEOUT_S, ping_interval=None,
                                           additional_headers={"Cookie": self.cookie} if self.cookie else None)
        await self.run()

    async def run(self, fragment_id: str = "", widget: tuple[str, str] | None = None) -> None:
        """One rerun (a fragment's, or the page's with a widget changed), read until it finished."""
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = urlencode(self.query)
        state.page_name = self.page
        state.page_script_hash = self.page_hash  # without it, a rerun the page asks for (st.rerun) opens the default page
        state.fragment_id = fragment_id
        if widget is not None:
            self.states[widget[0]] = widget[1]
        for wid, value in self.states.items():
            ws = state.widget_states.widgets.add()
            ws.id, ws.string_value = wid, value
        self.markdown, self.exceptions = [], []
        if not fragment_id:
            self.radio, self.texts = None, []
        await self.ws.send(msg.SerializeToString())
        self.reruns += 1
        deadline = time.perf_counter() + RUN_TIMEOUT_S
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), max(0.1, deadline - time.perf_counter()))
            fwd = ForwardMsg()
            fwd.ParseFromString(raw)
            kind = fwd.WhichOneof("type")
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                self._element(fwd.delta.new_element, fwd.delta.fragment_id)
            elif kind == "new_session" and fwd.new_session.page_script_hash:
                self.page_hash = fwd.new_session.page_script_hash
            elif kind == "auto_rerun":
                self.auto[fwd.auto_rerun.fragment_id] = fwd.auto_rerun.interval
            elif kind == "script_finished":
                if fwd.script_finished in DONE:
                    return
                if fwd.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    self.exceptions.append("compile error")
                    return
                # FINISHED_EARLY_FOR_RERUN: the room moved on, the page's own rerun follows; a new
                # full run clears the elements the tab knew
                self.radio, self.texts = None, []

    def _element(self, el, fragment_id: str) -> None:
        which = el.WhichOneof("type")
        if which == "exception":
            self.exceptions.append(f"{el.exception.type}: {el.exception.message}")
        elif which == "markdown":
            self.markdown.append(el.markdown.body)
            self.texts.append(el.markdown.body)
        elif which == "alert":
            self.texts.append(el.alert.body)
        elif which == "radio" and ("room_q_" in el.radio.id or "room_q2_" in el.radio.id):
            self.radio = (2 if "room_q2_" in el.radio.id else 1, el.radio.id, fragment_id, list(el.radio.options))

    async def poll(self) -> None:
        """What the browser does every `run_every`: rerun the room's fragment."""
        for fid in list(self.auto):
            await self.run(fragment_id=fid)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


@dataclass
class Result:
    sent: dict[int, list[float]] = field(default_factory=lambda: {1: [], 2: []})   # vote -> when each answer was sent
    shown: dict[int, list[tuple[float, int]]] = field(default_factory=lambda: {1: [], 2: []})  # vote -> presenter runs (when, count)
    follow: list[float] = field(default_factory=list)        # move -> a phone showing it, seconds
    follow_by: dict[str, list[float]] = field(default_factory=dict)  # the same, per move
    errors: list[str] = field(default_factory=list)
    phase: tuple[str, float] = ("", 0.0)                     # the presenter's last move and when it was written
    reruns: int = 0


ANSWERED = re.compile(r"(\d+)")


def shown_count(tab: Tab, label_head: str) -> int | None:
    """The number of answers on the presenter's screen ("답한 사람: 12명 / 참여 60명")."""
    for body in tab.markdown:
        text = body.strip("*")
        if text.startswith(label_head):
            m = ANSWERED.search(text[len(label_head):])
            return int(m.group(1)) if m else None
    return None


def shows(tab: Tab, phase: str, marks: dict[str, str]) -> bool:
    """Whether the tab's last run shows the room in `phase` (its radio, or a text only that phase has)."""
    if phase in ("vote1", "vote2"):
        return tab.radio is not None and tab.radio[0] == int(phase[-1])
    return any(t.startswith(marks[phase]) for t in tab.texts)


async def participant(tab: Tab, think: float, stop: asyncio.Event, res: Result, rng: random.Random,
                      marks: dict[str, str]) -> None:
    try:
        await tab.open()
        answered: set[int] = set()
        answer_at: dict[int, float] = {}
        seen: set[str] = set()
        while not stop.is_set():
            await asyncio.sleep(min(tab.auto.values(), default=1.0))
            await tab.poll()
            res.errors += [f"{tab.name}: {e}" for e in tab.exceptions]
            phase, moved = res.phase
            if phase and phase not in seen and shows(tab, phase, marks):
                seen.add(phase)
                res.follow.append(time.monotonic() - moved)
                res.follow_by.setdefault(phase, []).append(res.follow[-1])
            if tab.radio:
                vote = tab.radio[0]
                if vote not in answered and vote not in answer_at:
                    answer_at[vote] = time.monotonic() + rng.uniform(0, think)
                if vote not in answered and time.monotonic() >= answer_at[vote]:
                    _, wid, _, options = tab.radio
                    res.sent[vote].append(time.monotonic())
                    answered.add(vote)
                    await tab.run(widget=(wid, rng.choice(options)))
                    res.errors += [f"{tab.name}: {e}" for e in tab.exceptions]
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as exc:
        res.errors.append(f"{tab.name}: {type(exc).__name__}: {exc}")
    finally:
        res.reruns += tab.reruns
        await tab.close()


async def presenter(tab: Tab, heads: dict[int, str], stop: asyncio.Event, res: Result) -> None:
    try:
        await tab.open()
        while not stop.is_set():
            await asyncio.sleep(min(tab.auto.values(), default=1.0))
            await tab.poll()
            res.errors += [f"presenter: {e}" for e in tab.exceptions]
            for vote in (2, 1):  # the second vote's label contains the first's words: ask it first
                n = shown_count(tab, heads[vote])
                if n is not None:
                    res.shown[vote].append((time.monotonic(), n))
                    break
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as exc:
        res.errors.append(f"presenter: {type(exc).__name__}: {exc}")
    finally:
        await tab.close()


async def room(ports: list[int], n: int, think: float, timeout_s: float, seed: int, pids: list[int]) -> tuple[Result, float, float]:
    les = lesson.load_lesson(load_catalog(), load_stops())
    first = quiz.load_quiz(load_catalog(), load_stops(), les)[0]
    store = room_store.Store(room_store.database_url())
    store.migrate()
    code, key = store.open_room("lobby", LANG)
    tokens = [store.join(code, f"p{k}").token for k in range(n)]
    s = i18n.strings("lesson", LANG)
    heads = {1: s("room_answered").split("{n}")[0], 2: s("room_answered2").split("{n}")[0]}  # the words before the count
    heads = {k: v.split("{")[0] for k, v in heads.items()}
    marks = {"spread": s("room_vote_closed_phone"), "reveal": s("room_right_answer", answer="")}
    res, stop, rng = Result(), asyncio.Event(), random.Random(seed)
    pres = Tab(ports[0], {"lang": LANG, "present": "1", "room": code, "key": key}, "presenter")
    tabs = [Tab(ports[k % len(ports)], {"lang": LANG, "room": code}, f"p{k}", cookie=f"latency_room_{code}={t}")
            for k, t in enumerate(tokens)]
    tasks = [asyncio.create_task(presenter(pres, heads, stop, res))]
    tasks += [asyncio.create_task(participant(t, think, stop, res, random.Random(rng.random()), marks)) for t in tabs]
    t_open = time.monotonic()
    while time.monotonic() - t_open < 60 and not all(t.auto for t in tabs):  # every tab opened and polling
        await asyncio.sleep(0.2)
    cpu0 = sum(cpu_s(p) for p in pids)
    reruns0 = sum(t.reruns for t in tabs)

    async def move(phase: str, change) -> None:
        change()
        res.phase = (phase, time.monotonic())

    async def until(done, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not done():
            await asyncio.sleep(0.25)

    for phase, change, vote in (("vote1", lambda: store.set_screen(code, key, f"q:{first.id}"), 1),
                                ("spread", lambda: store.set_phase(code, key, first.id, SPREAD), None),
                                ("vote2", lambda: store.set_phase(code, key, first.id, VOTE2), 2),
                                ("reveal", lambda: store.reveal(code, key, first.id), None)):
        before = len(res.follow)
        await move(phase, change)
        if vote:  # every participant answers, and the presenter's screen counts every answer
            await until(lambda: len(res.sent[vote]) == n and res.shown[vote] and res.shown[vote][-1][1] >= n, timeout_s)
            await asyncio.sleep(2.5)  # two more presenter polls
        else:  # every phone shows the move
            await until(lambda: len(res.follow) - before >= n, timeout_s)
    cpu = sum(cpu_s(p) for p in pids) - cpu0
    phase_reruns = sum(t.reruns for t in tabs) - reruns0
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    for vote in (1, 2):
        stored = sum(store.counts(code, first.id, vote).values())
        sent = len(res.sent[vote])
        if stored != sent:
            res.errors.append(f"lost: vote {vote}: {sent} answers sent, the store counts {stored}")
        final = res.shown[vote][-1][1] if res.shown[vote] else 0
        if final != sent:
            res.errors.append(f"lost: vote {vote}: {sent} answers sent, the presenter's screen shows {final}")
        if sent != n:
            res.errors.append(f"vote {vote}: only {sent} of {n} participants saw the question and answered")
    if len(res.follow) != 4 * n:
        res.errors.append(f"{4 * n - len(res.follow)} of {4 * n} moves never reached a phone")
    store.engine.dispose()
    return res, cpu, phase_reruns


def latencies(sent: list[float], shown: list[tuple[float, int]]) -> list[float]:
    """The k-th answer sent against the first presenter run showing at least k answers."""
    out = []
    for k, t in enumerate(sorted(sent), 1):
        when = next((w for w, c in shown if c >= k and w >= t), None)
        if when is not None:
            out.append(when - t)
    return out


async def baseline(port: int, runs: int) -> None:
    """The plain page's reruns (four plotly charts), as a tab that presses rerun."""
    tab = Tab(port, {}, "baseline", page="")
    try:
        await tab.open()
        for _ in range(runs):
            await tab.run()
    finally:
        await tab.close()


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--participants", type=int, default=60)
    ap.add_argument("--think", type=float, default=10.0, help="each participant answers within this many seconds")
    ap.add_argument("--servers", type=int, default=1, help="server processes on the one store")
    ap.add_argument("--timeout", type=float, default=90.0, help="seconds the question phase may last")
    ap.add_argument("--baseline-runs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=25)
    args = ap.parse_args(argv)

    tmp, before = None, os.environ.get("LATENCY_DATA_DIR")
    if not os.environ.get("LATENCY_DB_URL"):
        tmp = tempfile.TemporaryDirectory(prefix="room-load-")
        os.environ["LATENCY_DATA_DIR"] = tmp.name  # the servers inherit it
    ports = [free_port() for _ in range(args.servers)]
    servers = []
    try:
        base_port = free_port()
        base = start_server(base_port, session_ttl_s=10, script="benchmarks/baseline_page.py")
        servers.append(base)
        asyncio.run(baseline(base_port, 2))  # warm-up
        c0 = cpu_s(base.pid)
        asyncio.run(baseline(base_port, args.baseline_runs))
        base_ms = 1000 * (cpu_s(base.pid) - c0) / (args.baseline_runs + 1)
        stop_server(base)
        servers.remove(base)
        servers += [start_server(p, session_ttl_s=30) for p in ports]
        res, cpu, reruns = asyncio.run(room(ports, args.participants, args.think, args.timeout, args.seed,
                                            [s.pid for s in servers]))
    finally:
        for s in servers:
            stop_server(s)
        if tmp is not None:
            tmp.cleanup()
            if before is None:
                os.environ.pop("LATENCY_DATA_DIR", None)
            else:
                os.environ["LATENCY_DATA_DIR"] = before
    lat = latencies(res.sent[1], res.shown[1]) + latencies(res.sent[2], res.shown[2])
    per_rerun_ms = 1000 * cpu / reruns if reruns else float("nan")
    answers = len(res.sent[1]) + len(res.sent[2])
    out = dict(participants=args.participants, servers=args.servers, answers=answers, errors=len(res.errors),
               lost=sum("lost" in e for e in res.errors), shown_p50_s=pct(lat, 0.5), shown_p95_s=pct(lat, 0.95),
               shown_max_s=max(lat, default=float("nan")), follow_p50_s=pct(res.follow, 0.5),
               follow_p95_s=pct(res.follow, 0.95), follow_max_s=max(res.follow, default=float("nan")),
               cpu_ms_per_rerun=round(per_rerun_ms, 1),
               baseline_ms_per_rerun=round(base_ms, 1), ratio=round(per_rerun_ms / base_ms, 2) if base_ms else float("nan"),
               error_list=res.errors[:20])
    print(f"{args.participants} participants on {args.servers} server process(es), peer instruction "
          f"(vote, spread, second vote, reveal), {answers} answers")
    print(f"answer -> presenter's count: p50 {out['shown_p50_s']:.2f} s, p95 {out['shown_p95_s']:.2f} s, "
          f"max {out['shown_max_s']:.2f} s (goal: p95 within 2 s)")
    print(f"presenter's move -> phone: p50 {out['follow_p50_s']:.2f} s, p95 {out['follow_p95_s']:.2f} s, "
          f"max {out['follow_max_s']:.2f} s over {len(res.follow)} phone views (goal: p95 within 2 s)")
    print("  per move: " + "; ".join(f"{phase} p50 {pct(v, 0.5):.2f} s, max {max(v):.2f} s" for phase, v in res.follow_by.items()))
    print(f"server CPU per participant rerun {per_rerun_ms:.1f} ms ({reruns} reruns); baseline page rerun "
          f"{base_ms:.1f} ms; ratio {out['ratio']}")
    print(f"errors {out['errors']} (goal 0), answers lost {out['lost']} (goal 0); "
          f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    for e in res.errors[:10]:
        print("ERROR", e)
    return out


if __name__ == "__main__":
    result = main()
    sys.exit(1 if result["errors"] else 0)
