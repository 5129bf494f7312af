"""A discrete-event simulation of one serving engine, to check the steady-state model against.

    python benchmarks/sim_serving.py          (prints the grid and where the two disagree)

The same engine as latency.estimation.serving, simulated step by step and request by request
instead of in the mean: N users in a closed loop (a user sends a new request when its previous
answer has arrived, after a think time); every engine step first admits waiting requests while
fewer than `max_running` are inside (the KV cache's room), gives each decoding request one token,
then fills the rest of the token budget with chunks of the prompts still being prefilled, first
come first served; a prompt's last chunk gives its first token. The step lasts `step_s(decoding
requests, prompt tokens, prompts in the step)`: the estimator's own step physics
(latency.estimation.estimator.engine_step_fn), so the simulation tests the queueing and the
scheduling, the part the closed form approximates. Means are taken over the requests that start
after a warm-up (the first requests of all users arrive together, a burst, which the steady state
is not).
"""

from __future__ import annotations

import heapq
import random
import sys
from collections import deque
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from latency.estimation import estimator as est  # noqa: E402
from latency.estimation.serving import max_running_requests, steady_state, token_budget_tokens  # noqa: E402


class SimResult(NamedTuple):
    ttft_s: float
    itl_s: float
    output_tokens_per_s: float
    running_requests: float
    requests: int


def simulate(users: int, think_s: float, prompt_tokens: int, output_tokens: int, budget_tokens: int,
             max_running: int, step_s, requests: int = 1500, warmup: float = 0.3, seed: int = 0,
             spread_s: float = 0.0) -> SimResult:
    """Run the engine until `requests` requests have finished; means over those that arrived after
    the first `warmup` share of them. Think times are exponential with mean think_s (0: none).
    spread_s: the users' first requests arrive uniformly over [0, spread_s] (0: all at once). With
    identical prompt and answer lengths and no think time, users who start together finish
    together and send together again: a burst that repeats forever. Spread over one answer's
    time, they stay spread, the steady state a real benchmark reaches by its jitter."""
    rng = random.Random(seed)
    arrivals: list[tuple[float, int, int]] = []   # (time, order, user)
    order = 0
    for u in range(users):
        heapq.heappush(arrivals, (rng.uniform(0.0, spread_s), order, u))
        order += 1
    waiting: deque = deque()      # requests not yet admitted: [arrival_s]
    running: list[dict] = []      # admitted, in admission order
    now, done = 0.0, []
    busy_integral, t_first = 0.0, None
    while len(done) < requests:
        while arrivals and arrivals[0][0] <= now:
            t, _, _u = heapq.heappop(arrivals)
            waiting.append(t)
        while waiting and len(running) < max_running:
            running.append({"arrival": waiting.popleft(), "left": prompt_tokens, "made": 0, "first": None})
        if not running:
            now = arrivals[0][0]
            continue
        decoding = [r for r in running if r["left"] == 0]
        room = max(budget_tokens - len(decoding), 0)
        chunks = []
        for r in running:
            if r["left"] > 0 and room > 0:
                c = min(r["left"], room)
                chunks.append((r, c))
                room -= c
        p = sum(c for _, c in chunks)
        dt = float(step_s(float(len(decoding)), float(p), float(len(chunks))))
        now += dt
        busy_integral += dt * len(running)
        finished = []
        for r in decoding:
            r["made"] += 1
            if r["made"] >= output_tokens:
                finished.append(r)
        for r, c in chunks:
            r["left"] -= c
            if r["left"] == 0:
                r["first"], r["made"] = now, 1
                if output_tokens == 1:
                    finished.append(r)
        for r in finished:
            running.remove(r)
            r["end"] = now
            done.append(r)
            z = rng.expovariate(1.0 / think_s) if think_s > 0 else 0.0
            heapq.heappush(arrivals, (now + z, order, 0))
            order += 1
    done.sort(key=lambda r: r["arrival"])
    start = done[int(warmup * len(done))]["arrival"]
    kept = [r for r in done if r["arrival"] >= start and r["end"] <= done[-1]["end"]]
    t0 = min(r["first"] for r in kept)
    t1 = max(r["end"] for r in kept)
    span = t1 - t0
    ttft = sum(r["first"] - r["arrival"] for r in kept) / len(kept)
    itl = (sum((r["end"] - r["first"]) / (output_tokens - 1) for r in kept) / len(kept)
           if output_tokens > 1 else float("nan"))
    tokens = sum(output_tokens for r in kept if r["first"] >= t0)
    return SimResult(ttft_s=ttft, itl_s=itl, output_tokens_per_s=tokens / span,
                     running_requests=busy_integral / now, requests=len(kept))


class Setup(NamedTuple):
    label: str
    model: est.Model
    hardware: est.Hardware
    prompt: int
    output: int
    devices: int


H100 = est.Hardware(name="NVIDIA H100 SXM", kind="datacenter_gpu", mem_bandwidth_gbs=3350, peak_tflops=989.4, memory_gb=80)
RTX4090 = est.Hardware(name="RTX 4090", kind="desktop_gpu", mem_bandwidth_gbs=1008, peak_tflops=165.2, memory_gb=24)
LLAMA70 = est.Model(name="Llama 3.1 70B FP8", params_b=70.6, bytes_per_param=1.0, layers=80, hidden_size=8192,
                    heads=64, kv_heads=8, head_dim=128)
LLAMA8 = est.Model(name="Llama 3.1 8B", params_b=8.03, bytes_per_param=2.0, layers=32, hidden_size=4096,
                   heads=32, kv_heads=8, head_dim=128)
LLAMA8Q = est.Model(name="Llama 3.1 8B Q4_K_M", params_b=8.03, bytes_per_param=0.611, layers=32, hidden_size=4096,
                    heads=32, kv_heads=8, head_dim=128)

SETUPS = (
    Setup("70B FP8, 2 x H100, 5,000 in / 500 out", LLAMA70, H100, 5000, 500, 2),
    Setup("8B FP16, 1 x H100, 1,000 in / 300 out", LLAMA8, H100, 1000, 300, 1),
    Setup("8B Q4, RTX 4090 (llama.cpp), 2,000 in / 200 out", LLAMA8Q, RTX4090, 2000, 200, 1),
)
USERS = (1, 4, 16, 32, 64, 128)
THINKS = (0.0, 5.0)


def engine_of(setup: Setup, params: dict | None = None):
    """The estimator's step function, token budget and running cap for one set-up (what
    `request_times` hands to `steady_state`)."""
    params = params or est.load_params()
    engine = est.DEFAULT_ENGINE[setup.hardware.kind]
    bpp = float(setup.model.bytes_per_param)
    ep = est._engine_values(engine, setup.hardware.kind, bpp, params)
    shape = est._shape(setup.model, setup.model.active_b)
    dev = est._device(setup.hardware, est._lowp(setup.model, setup.hardware, engine, bpp))
    n = float(setup.devices)
    tp = ep["tensor_parallel"]
    rates = est.engine_rates(ep, dev, n if tp else 1.0, params.get("combine", "max"))
    w = est.Workload(prompt=float(setup.prompt), output=float(setup.output), context=0.0, batch=1.0, users=1.0,
                     utilization=0.0, network_s=0.0, forced_devices=n)

    def kv_gb(tokens, streams):
        return est.kv_cache_gb(shape.attention_layers, shape.kv_dim, shape.kv_bytes, tokens, streams, shape.loops,
                               shape.loop_kv_window)

    def comm_s(tokens):
        if tp:
            return est.tp_allreduce_s(n, shape.layers, shape.loops, tokens, shape.hidden, dev.interconnect_gbs,
                                      dev.link_latency_s)
        return est.pipeline_hops_s(n, tokens, shape.hidden, dev.interconnect_gbs, dev.link_latency_s)

    weights = est.weights_gb(shape.params_b, shape.bytes_per_param)
    step = est.engine_step_fn(shape, rates, ep, weights, w, kv_gb, comm_s)
    cap = est.kv_capacity_requests(n, dev.memory_gb, weights, kv_gb(float(setup.prompt + setup.output), 1.0))
    budget = float(token_budget_tokens(tp, dev.memory_gb))
    running = float(max_running_requests(tp, dev.memory_gb, cap))
    return step, budget, running


def compare(setup: Setup, users: int, think_s: float, requests: int = 1500) -> dict:
    step, budget, cap = engine_of(setup)
    model = steady_state(float(users), think_s, float(setup.prompt), float(setup.output), budget, cap, step)
    one = steady_state(1.0, 0.0, float(setup.prompt), float(setup.output), budget, cap, step)
    cycle_s = float(one.ttft_s + (setup.output - 1) * one.itl_s)
    sim = simulate(users, think_s, setup.prompt, setup.output, int(budget), int(cap), step, requests=requests,
                   spread_s=cycle_s)
    return {"model": model, "sim": sim, "cap": cap, "budget": budget}


def rel(a: float, b: float) -> float:
    return a / b - 1.0


def main() -> None:
    print("Steady state (closed form) against the discrete-event simulation of the same engine")
    print(f"{'set-up':<48}{'users':>6}{'think':>6}{'cap':>5}  {'TTFT s model/sim':>20}{'err':>7}"
          f"  {'ITL ms model/sim':>18}{'err':>7}  {'tok/s model/sim':>18}{'err':>7}")
    worst = {"ttft": (0, None), "itl": (0, None), "tps": (0, None)}
    for setup in SETUPS:
        for z in THINKS:
            for n in USERS:
                c = compare(setup, n, z)
                m, s = c["model"], c["sim"]
                e = {"ttft": rel(m.ttft_s, s.ttft_s), "itl": rel(m.itl_s, s.itl_s),
                     "tps": rel(m.output_tokens_per_s, s.output_tokens_per_s)}
                flag = "  <- disagree" if max(abs(v) for v in e.values()) > 0.15 else ""
                print(f"{setup.label:<48}{n:>6}{z:>6.0f}{c['cap']:>5.0f}  {m.ttft_s:>9.3f}/{s.ttft_s:<9.3f}{e['ttft']:>+7.0%}"
                      f"  {1e3 * m.itl_s:>8.1f}/{1e3 * s.itl_s:<8.1f}{e['itl']:>+7.0%}"
                      f"  {m.output_tokens_per_s:>8.0f}/{s.output_tokens_per_s:<8.0f}{e['tps']:>+7.0%}{flag}")
                for k, v in e.items():
                    if abs(v) > abs(worst[k][0]):
                        worst[k] = (v, f"{setup.label}, {n} users, think {z:g} s")
    for k, (v, where) in worst.items():
        print(f"largest {k} disagreement: {v:+.0%} ({where})")


if __name__ == "__main__":
    main()
