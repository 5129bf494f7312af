"""Load test: many browser sessions on one server process, through Streamlit's own websocket protocol.

    python benchmarks/load.py                          # 30 sessions, each changing an input every 2-5 s for 60 s
    python benchmarks/load.py --sessions 5 --changes 3 --think 0.1 0.3    # the small run tests/test_load.py does
    python benchmarks/load.py --soak                   # memory: 300 reruns of one session, then 30 sessions opened and closed
    python benchmarks/load.py --page tradeoffs         # the same on the trade-off page

It starts the app (`streamlit run app.py`) on a free port of 127.0.0.1 (loopback only), waits for
`/_stcore/health`, and opens N sessions on `ws://127.0.0.1:<port>/_stcore/stream`, each speaking the
protocol the browser speaks (streamlit.proto: a `BackMsg.rerun_script` with the page name, the query
string and widget states; the server answers with `ForwardMsg`s until `script_finished`). Each
session opens `/estimator?lang=ko&model_size_b=8.03&hardware=h100-sxm` and then changes an input
the way a user does: picks another device in the hardware select box or another stop on the distance
slider (the widget found by its proto type and options, its new value sent as a widget state, with
the st.fragment id when the widget sits in one).

Every finished run is checked: no exception element, and the page's headline number equals
`latency.estimate` computed here for the values in force, read back from the URL the page wrote
(`page_info_changed`), to the digits shown: on the estimator the time to first token (the metric
labelled `metric_ttft` in content/ui/estimator.yaml), on the trade-off page (`--page tradeoffs`)
the generation speed per user (`metric_speed` in content/ui/tradeoffs.yaml). The device picked
must be the one in that URL.

Bounded: `--changes` per session and `--duration` seconds in all (sessions stop early when either
is reached), every wait has a timeout, and the server is stopped at the end, whatever happened.
Prints: runs, errors (with the first few named), p50/p95/max seconds from change to finished rerun
(page loads apart), server CPU seconds per run (utime+stime of the server process from
/proc/<pid>/stat over the measured phase, divided by the runs), RSS before and after.
Exit status 1 when there was any error or wrong number; timings never fail it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402  (installed with streamlit)
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from latency import estimate  # noqa: E402
from latency.language import i18n  # noqa: E402
from latency.estimation.catalog import load_catalog  # noqa: E402

HOST = "127.0.0.1"  # loopback only, never another address
PAGES = ("estimator", "tradeoffs")
START_QUERY = {"lang": "ko", "model_size_b": "8.03", "hardware": "h100-sxm"}  # on either page
RUN_TIMEOUT_S = 120.0
DONE = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")  # how Streamlit's logger starts a line
SERVER_NOTICES = ("server started on",)  # the one line a healthy server logs (Streamlit 1.67's uvicorn)
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?")


# --------------------------------------------------------------------------------------------
# Server
# --------------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def start_server(port: int, session_ttl_s: int, script: str = "app.py") -> subprocess.Popen:
    cmd = [sys.executable, "-m", "streamlit", "run", script, "--server.address", HOST, "--server.port", str(port),
           "--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
           "--server.disconnectedSessionTTL", str(session_ttl_s)]
    # The server's log goes to a file, never a pipe nobody reads: a full pipe blocks every script thread
    # that logs (a warning per rerun once hung all sessions of the load test).
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    proc.log = log
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {server_log(proc)[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return proc
        except OSError:
            time.sleep(0.2)
    stop_server(proc)
    raise RuntimeError("server did not answer /_stcore/health within 60 s")


def server_log(proc: subprocess.Popen) -> str:
    """What the server wrote to stderr so far."""
    proc.log.seek(0)
    return proc.log.read().decode(errors="replace")


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def cpu_s(pid: int) -> float:
    """utime + stime of the process, in seconds (/proc/<pid>/stat fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# --------------------------------------------------------------------------------------------
# Expected numbers: latency.estimate for the values in the page's URL
# --------------------------------------------------------------------------------------------

CATALOG = load_catalog()


@dataclass(frozen=True)
class Headline:
    """The headline number a page's run is checked on: the page, the metric's label on screen (from
    the page's content file), the `latency.Estimate` attribute it shows."""

    page: str
    label: str
    attr: str


def headline(page: str) -> Headline:
    """Estimator: time to first token (`metric_ttft`); trade-offs: generation speed per user
    (`metric_speed`), both for the scenario in the URL."""
    area, key, attr = {"estimator": ("estimator", "metric_ttft", "ttft_s"),
                       "tradeoffs": ("tradeoffs", "metric_speed", "decode_tokens_per_s")}[page]
    try:
        return Headline(page, i18n.strings(area, "ko")(key), attr)
    except Exception as exc:  # noqa: BLE001  the label is part of what is checked
        raise SystemExit(f"cannot read the headline label from content/ui/{area}.yaml: {exc}")


def expected(values: dict[str, str]):
    """The estimate for the scenario in `values` (URL keys), straight from latency.estimate.

    The load picks only catalog model sizes and changes only hardware and distance, so the model is
    the catalog entry of that size and architecture; the serving rule (an optimized engine batches
    the concurrent users, a local runner queues them) is the estimator's documented one."""
    arch = values.get("arch", "dense")
    size = float(values["model_size_b"])
    entry = next(m for m in CATALOG.models.values() if m.model.arch == arch and math.isclose(m.model.params_b, size, rel_tol=1e-9))
    model = entry.model_at(CATALOG.precisions[values.get("precision", "fp16")])
    hw = CATALOG.hardware[values["hardware"]].hardware
    engine = values.get("engine", "auto")
    engine = None if engine == "auto" else engine
    users = int(values.get("concurrency", 1))
    optimized = (engine or ("optimized" if hw.kind == "datacenter_gpu" else "llama.cpp")) == "optimized"
    devices = values.get("devices", "auto")
    est = estimate(model, hw, prompt_tokens=int(values.get("prompt_tokens", 512)),
                   output_tokens=int(values.get("output_tokens", 256)), batch=users if optimized else 1,
                   concurrent_users=users, distance_km=float(values["distance_km"]), engine=engine,
                   access=values.get("access", "wired"), connection=values.get("connection", "warm"),
                   devices=None if devices == "auto" else int(devices))
    return est


def matches(shown: str, expected: float) -> bool:
    """`shown` (e.g. "0.82초", "1,240 s", "–") is `expected` to the digits it shows."""
    if not math.isfinite(expected):
        return NUMBER.search(shown) is None
    m = NUMBER.search(shown)
    if m is None:
        return False
    text = m.group().replace(",", "")
    value = float(text)
    if "e" in text.lower():
        mantissa = text.lower().split("e")[0]
        decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
        half = 0.5 * 10 ** (int(text.lower().split("e")[1]) - decimals)
    else:
        decimals = len(text.split(".")[1]) if "." in text else 0
        half = 0.5 * 10 ** -decimals
    return abs(value - expected) <= half * 1.001 + 1e-12


# --------------------------------------------------------------------------------------------
# One session
# --------------------------------------------------------------------------------------------

@dataclass
class Widget:
    id: str
    kind: str                  # "selectbox" | "slider" (a select_slider) | "number_slider"
    options: list[str]
    fragment_id: str = ""


@dataclass
class Stats:
    load_s: list[float] = field(default_factory=list)
    change_s: list[float] = field(default_factory=list)
    checked: int = 0
    errors: list[str] = field(default_factory=list)


class Session:
    """One browser tab: a websocket, the widgets and headline of its last run, its URL values."""

    def __init__(self, port: int, name: str, head: Headline) -> None:
        self.url = f"ws://{HOST}:{port}/_stcore/stream"
        self.name = name
        self.head = head
        self.query = dict(START_QUERY)
        self.widgets: dict[str, Widget] = {}
        self.metrics: list[tuple[str, str]] = []
        self.exceptions: list[str] = []
        self.ws = None

    async def open(self) -> float:
        self.ws = await websockets.connect(self.url, subprotocols=["streamlit"], max_size=None,
                                           open_timeout=RUN_TIMEOUT_S, ping_interval=None)
        return await self.run()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def run(self, widget: Widget | None = None, value: str | None = None) -> float:
        """Send one rerun (a page load, or one widget changed) and read until it finished; seconds."""
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = urlencode(self.query)
        state.page_name = self.head.page
        if widget is not None:
            ws = state.widget_states.widgets.add()
            ws.id = widget.id
            if widget.kind == "slider":
                ws.string_array_value.data.append(value)
            elif widget.kind == "number_slider":
                ws.double_array_value.data.append(float(value))
            else:
                ws.string_value = value
            state.fragment_id = widget.fragment_id
        self.metrics, self.exceptions = [], []
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        deadline = t0 + RUN_TIMEOUT_S
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), max(0.1, deadline - time.perf_counter()))
            fwd = ForwardMsg()
            fwd.ParseFromString(raw)
            kind = fwd.WhichOneof("type")
            if kind == "delta":
                self._delta(fwd.delta)
            elif kind == "page_info_changed":
                self.query = {k: v[-1] for k, v in parse_qs(fwd.page_info_changed.query_string, keep_blank_values=True).items()}
            elif kind == "script_finished":
                if fwd.script_finished in DONE:
                    return time.perf_counter() - t0
                if fwd.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    self.exceptions.append("compile error")
                    return time.perf_counter() - t0
                # FINISHED_EARLY_FOR_RERUN (st.rerun): the next run follows on its own
            elif kind == "page_not_found":
                self.exceptions.append("page not found")

    def _delta(self, delta) -> None:
        if delta.WhichOneof("type") != "new_element":
            return
        el = delta.new_element
        which = el.WhichOneof("type")
        if which == "exception":
            self.exceptions.append(f"{el.exception.type}: {el.exception.message}")
        elif which == "metric":
            self.metrics.append((el.metric.label, el.metric.body))
        elif which == "selectbox":
            self.widgets[el.selectbox.id] = Widget(el.selectbox.id, "selectbox", list(el.selectbox.options), delta.fragment_id)
        elif which == "slider" and el.slider.options:  # a select_slider: its options are the formatted labels
            self.widgets[el.slider.id] = Widget(el.slider.id, "slider", list(el.slider.options), delta.fragment_id)

    def check(self, wanted_hw: str | None = None) -> list[str]:
        """What is wrong with the last run ([] = nothing)."""
        problems = list(self.exceptions)
        if wanted_hw is not None and self.query.get("hardware") != wanted_hw:
            problems.append(f"asked for hardware {wanted_hw}, the URL says {self.query.get('hardware')}")
        try:
            est = expected(self.query)
        except (KeyError, StopIteration, ValueError) as exc:
            return problems + [f"cannot compute the expected value for {self.query}: {exc!r}"]
        shown = next((body for label, body in self.metrics if label == self.head.label), None)
        if shown is None:
            if not est.fits:
                return problems  # both pages say what the model would need instead of its headline
            return problems + [f"no metric labelled {self.head.label!r} (metrics: {self.metrics})"]
        want = getattr(est, self.head.attr)
        if not matches(shown, want):
            problems.append(f"{self.head.attr} shown {shown!r}, latency.estimate gives {want:.4g} for {self.query}")
        return problems

    @staticmethod
    def _named(option: str) -> list:
        """The catalog devices whose name holds an option's name part: the box shows a short form,
        "H100 SXM · 데이터센터 GPU" (ui/scenario_inputs.hardware_choice)."""
        name = option.rsplit(" · ", 1)[0]
        return [e for e in CATALOG.hardware.values() if name and name in e.label("ko")]

    def hardware_box(self) -> Widget | None:
        """The select box whose options name catalog devices."""
        return next((w for w in self.widgets.values() if w.kind == "selectbox" and len(w.options) == len(CATALOG.hardware)
                     and all(self._named(o) for o in w.options)), None)

    def distance_slider(self) -> Widget | None:
        """The select slider whose options are distances in km."""
        return next((w for w in self.widgets.values() if w.kind == "slider" and all("km" in o for o in w.options)), None)

    def hardware_of(self, option: str) -> str:
        """The catalog id of a hardware option (of the devices whose name holds it, the shortest name)."""
        return min(self._named(option), key=lambda e: len(e.label("ko"))).id


async def one_session(port: int, n: int, changes: int, think: tuple[float, float], deadline: float,
                      stats: Stats, head: Headline, rng: random.Random) -> None:
    session = Session(port, f"s{n}", head)
    try:
        stats.load_s.append(await session.open())
        record(stats, session, session.check())
        for _ in range(changes):
            pause = rng.uniform(*think)
            if time.monotonic() + pause >= deadline:
                break
            await asyncio.sleep(pause)
            box, slider = session.hardware_box(), session.distance_slider()
            if box is None:
                stats.errors.append(f"{session.name}: no hardware select box on the page")
                break
            if slider is not None and rng.random() < 0.4:
                stats.change_s.append(await session.run(slider, rng.choice(slider.options)))
                record(stats, session, session.check())
            else:
                option = rng.choice(box.options)
                stats.change_s.append(await session.run(box, option))
                record(stats, session, session.check(session.hardware_of(option)))
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as exc:
        stats.errors.append(f"{session.name}: {type(exc).__name__}: {exc}")
    finally:
        await session.close()


def record(stats: Stats, session: Session, problems: list[str]) -> None:
    stats.checked += 1
    stats.errors.extend(f"{session.name}: {p}" for p in problems)


# --------------------------------------------------------------------------------------------
# Runs
# --------------------------------------------------------------------------------------------

def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]


async def load(port: int, sessions: int, changes: int, think: tuple[float, float], duration_s: float,
               ramp_s: float, seed: int, page: str = "estimator") -> Stats:
    stats = Stats()
    label = headline(page)
    deadline = time.monotonic() + duration_s
    rng = random.Random(seed)

    async def later(n: int) -> None:
        await asyncio.sleep(ramp_s * n / max(1, sessions))
        await one_session(port, n, changes, think, deadline, stats, label, random.Random(rng.random()))

    tasks = [asyncio.create_task(later(n)) for n in range(sessions)]
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), duration_s + RUN_TIMEOUT_S + ramp_s)
    except asyncio.TimeoutError:
        stats.errors.append(f"the run did not end within {duration_s + RUN_TIMEOUT_S + ramp_s:.0f} s")
        for t in tasks:
            t.cancel()
    return stats


def report(stats: Stats, cpu: float, rss: tuple[float, float], wall_s: float) -> dict:
    runs = len(stats.load_s) + len(stats.change_s)
    out = dict(runs=runs, page_loads=len(stats.load_s), changes=len(stats.change_s), checked=stats.checked,
               errors=len(stats.errors), wall_s=round(wall_s, 1),
               change_p50_s=pct(stats.change_s, 0.5), change_p95_s=pct(stats.change_s, 0.95),
               change_max_s=max(stats.change_s, default=float("nan")),
               load_p50_s=pct(stats.load_s, 0.5), load_max_s=max(stats.load_s, default=float("nan")),
               server_cpu_s=round(cpu, 2), cpu_ms_per_run=round(1000 * cpu / runs, 1) if runs else float("nan"),
               runs_per_s=round(runs / wall_s, 2) if wall_s else float("nan"),
               rss_before_mb=round(rss[0], 1), rss_after_mb=round(rss[1], 1))
    print(f"runs {runs} ({out['page_loads']} page loads, {out['changes']} changes), checked {stats.checked}, "
          f"errors {len(stats.errors)}, {wall_s:.1f} s")
    print(f"change -> finished rerun: p50 {out['change_p50_s']:.3f} s, p95 {out['change_p95_s']:.3f} s, "
          f"max {out['change_max_s']:.3f} s; page load p50 {out['load_p50_s']:.3f} s, max {out['load_max_s']:.3f} s")
    out["load_average"] = os.getloadavg()[0]
    print(f"server CPU {cpu:.2f} s = {out['cpu_ms_per_run']} ms per run; {out['runs_per_s']} runs/s; "
          f"RSS {rss[0]:.0f} MB before, {rss[1]:.0f} MB after")
    print(f"machine: {os.cpu_count()} CPUs, load average {out['load_average']:.1f} at the end "
          f"(timings are only comparable at similar load; CPU per run is the server's own)")
    for err in stats.errors[:10]:
        print("ERROR", err)
    return out


async def soak(port: int, pid: int, reruns: int, opened: int, settle_runs: int,
               page: str = "estimator") -> tuple[Stats, dict]:
    """Memory: settle, then `reruns` reruns of one session, then `opened` sessions opened and closed."""
    stats = Stats()
    label = headline(page)
    rng = random.Random(1)

    async def changes(session: Session, n: int, into: list[float]) -> None:
        for _ in range(n):
            box = session.hardware_box()
            if box is None:
                stats.errors.append(f"{session.name}: no hardware select box on the page")
                return
            option = rng.choice(box.options)
            into.append(await session.run(box, option))
            record(stats, session, session.check(session.hardware_of(option)))

    session = Session(port, "soak", label)
    stats.load_s.append(await session.open())
    await changes(session, settle_runs, stats.change_s)
    for n in range(5):  # a few sessions opened and closed so every page-level cache is filled once
        other = Session(port, f"settle{n}", label)
        stats.load_s.append(await other.open())
        await other.close()
    await asyncio.sleep(3)
    settled = rss_mb(pid)
    await changes(session, reruns, stats.change_s)
    after_reruns = rss_mb(pid)
    await session.close()
    for n in range(opened):
        other = Session(port, f"open{n}", label)
        stats.load_s.append(await other.open())
        record(stats, other, other.check())
        await changes(other, 2, stats.change_s)
        await other.close()
    await asyncio.sleep(5)  # the server drops a closed session after --server.disconnectedSessionTTL
    after_sessions = rss_mb(pid)
    mem = dict(settled_mb=round(settled, 1), after_reruns_mb=round(after_reruns, 1), after_sessions_mb=round(after_sessions, 1),
               growth_reruns=round(after_reruns / settled - 1, 3), growth_sessions=round(after_sessions / settled - 1, 3))
    print(f"memory: settled {settled:.0f} MB; after {reruns} reruns of one session {after_reruns:.0f} MB "
          f"({100 * mem['growth_reruns']:+.1f}%); after {opened} sessions opened and closed {after_sessions:.0f} MB "
          f"({100 * mem['growth_sessions']:+.1f}%); goal: within 10% of settled")
    return stats, mem


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--changes", type=int, default=30, help="input changes per session, at most")
    ap.add_argument("--think", type=float, nargs=2, default=(2.0, 5.0), metavar=("MIN_S", "MAX_S"),
                    help="pause between a session's changes, drawn uniformly")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds after which no session starts a change")
    ap.add_argument("--ramp", type=float, default=5.0, help="seconds over which the sessions open")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--soak", action="store_true", help="memory run: 300 reruns of one session, 30 sessions opened and closed")
    ap.add_argument("--reruns", type=int, default=300)
    ap.add_argument("--opened", type=int, default=30)
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    ap.add_argument("--page", choices=PAGES, default="estimator",
                    help="the page every session opens and changes (checked on its headline number)")
    args = ap.parse_args(argv)

    port = free_port()
    server = start_server(port, session_ttl_s=2 if args.soak else 120)
    try:
        warm = Session(port, "warm-up", headline(args.page))  # first load compiles and fills caches: not measured
        asyncio.run(_once(warm))
        time.sleep(0.5)
        rss0, cpu0, t0 = rss_mb(server.pid), cpu_s(server.pid), time.monotonic()
        if args.soak:
            stats, mem = asyncio.run(asyncio.wait_for(soak(port, server.pid, args.reruns, args.opened, settle_runs=50,
                                                           page=args.page), 1800))
        else:
            stats, mem = asyncio.run(load(port, args.sessions, args.changes, tuple(args.think), args.duration, args.ramp,
                                          args.seed, args.page)), {}
        wall, cpu, rss1 = time.monotonic() - t0, cpu_s(server.pid) - cpu0, rss_mb(server.pid)
    finally:
        stop_server(server)
    out = report(stats, cpu, (rss0, rss1), wall) | mem
    out["error_list"] = stats.errors[:50]
    # A warning or traceback in the server's log is a defect the pages may hide (and logging per rerun costs).
    # Streamlit's log lines start with a timestamp and carry no level name.
    out["server_warnings"] = [line for line in server_log(server).splitlines()
                              if (LOG_LINE.match(line) and not any(ok in line for ok in SERVER_NOTICES))
                              or line.startswith("Traceback")][:20]
    for line in out["server_warnings"][:5]:
        print("SERVER", line)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return out


async def _once(session: Session) -> None:
    try:
        await session.open()
    finally:
        await session.close()


if __name__ == "__main__":
    result = main()
    sys.exit(1 if result["errors"] else 0)
