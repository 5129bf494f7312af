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
import math
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
    preemptions: int = 0


WATERMARK = 0.01
"""vLLM keeps 1% of the KV blocks free when it admits a waiting request (watermark, vLLM's block
manager), so a new prompt does not take the very last blocks the running requests grow into."""


def simulate(users: int, think_s: float, prompt_tokens: int, output_tokens: int, budget_tokens: int,
             max_running: int, step_s, requests: int = 1500, warmup: float = 0.3, seed: int = 0,
             spread_s: float = 0.0, kv_tokens: float | None = None, reserve_whole: bool = True) -> SimResult:
    """Run the engine until `requests` requests have finished; means over those that arrived after
    the first `warmup` share of them. Think times are exponential with mean think_s (0: none).
    spread_s: the users' first requests arrive uniformly over [0, spread_s] (0: all at once). With
    identical prompt and answer lengths and no think time, users who start together finish
    together and send together again: a burst that repeats forever. Spread over one answer's
    time, they stay spread, the steady state a real benchmark reaches by its jitter.

    kv_tokens: the KV cache's room in tokens (None: only `max_running` limits admission). With
    reserve_whole (TensorRT-LLM's GUARANTEED_NO_EVICT, llama-server's slots) a request is admitted
    only when its prompt and whole answer fit; otherwise (vLLM, SGLang) when its prompt fits beside
    a 1% watermark, its cache then grows one token per step, and when a step finds no room the
    newest running request is preempted: its cache is dropped and it waits at the head of the queue
    to recompute its prompt and the tokens it had made (vLLM's PreemptionMode.RECOMPUTE)."""
    rng = random.Random(seed)
    arrivals: list[tuple[float, int, int]] = []   # (time, order, user)
    order = 0
    for u in range(users):
        heapq.heappush(arrivals, (rng.uniform(0.0, spread_s), order, u))
        order += 1
    waiting: deque = deque()      # requests not admitted (new ones, and preempted ones at the head)
    running: list[dict] = []      # admitted, in admission order
    now, done = 0.0, []
    busy_integral, t_first = 0.0, None
    room_kv = math.inf if kv_tokens is None else float(kv_tokens)
    held = 0.0                    # KV tokens held by the running requests
    preemptions = 0

    def need(r):  # tokens a request must find free to be admitted
        if reserve_whole:
            return prompt_tokens + output_tokens
        return r["left"] + WATERMARK * room_kv

    while len(done) < requests:
        while arrivals and arrivals[0][0] <= now:
            t, _, _u = heapq.heappop(arrivals)
            waiting.append({"arrival": t, "left": prompt_tokens, "made": 0, "first": None})
        while waiting and len(running) < max_running and held + need(waiting[0]) <= room_kv:
            r = waiting.popleft()
            r["held"] = prompt_tokens + output_tokens if reserve_whole else r["left"]
            held += r["held"]
            running.append(r)
        if not running:
            if not arrivals:  # nothing fits at all
                raise ValueError("not one request fits in the KV cache")
            now = max(now, arrivals[0][0])
            continue
        decoding = [r for r in running if r["left"] == 0]
        if not reserve_whole:  # every decoding request's cache grows by one token this step
            while decoding and held + len(decoding) > room_kv:
                victim = running.pop()  # the newest running request
                held -= victim["held"]
                victim["left"] = prompt_tokens + victim["made"]  # recomputed as one longer prompt
                victim["held"] = 0.0
                waiting.appendleft(victim)
                preemptions += 1
                decoding = [r for r in running if r["left"] == 0]
            held += len(decoding)
            for r in decoding:
                r["held"] += 1
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
                if r["first"] is None:  # a preempted request's recompute does not stream a new first token
                    r["first"], r["made"] = now, 1
                if r["made"] >= output_tokens:
                    finished.append(r)
        for r in finished:
            running.remove(r)
            held -= r.get("held", 0.0)
            r["end"] = now
            done.append(r)
            z = rng.expovariate(1.0 / think_s) if think_s > 0 else 0.0
            heapq.heappush(arrivals, (now + z, order, 0))
            order += 1
        if not running and not waiting and arrivals:
            now = max(now, arrivals[0][0])
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
                     running_requests=busy_integral / now, requests=len(kept), preemptions=preemptions)


class Setup(NamedTuple):
    label: str
    model: est.Model
    hardware: est.Hardware
    prompt: int
    output: int
    devices: int


H100 = est.Hardware(name="NVIDIA H100 SXM", kind="datacenter_gpu", mem_bandwidth_gbs=3350, peak_tflops=989.4, memory_gb=80)
H100_FP8 = est.Hardware(name="NVIDIA H100 SXM", kind="datacenter_gpu", mem_bandwidth_gbs=3350, peak_tflops=989.4,
                        memory_gb=80, fp8=True)
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


def engine_of(setup: Setup, params: dict | None = None, engine: str | None = None):
    """The estimator's step function, token budget, running cap and KV room for one set-up (what
    `request_times` hands to `steady_state`), for the set-up's default engine or `engine` by name
    ("vllm", "tensorrt-llm", ...): (step_s, token budget, running cap, KV room in tokens, whether a
    request reserves its whole cache, the engine's most running requests)."""
    params = params or est.load_params()
    family, server = est._resolve_engine(engine, setup.hardware.kind)
    bpp = float(setup.model.bytes_per_param)
    fmt = est.weight_format_of(setup.model, setup.hardware, family, bpp)
    ep = est._engine_values(family, setup.hardware.kind, bpp, params, server, fmt)
    shape = est._shape(setup.model, setup.model.active_b, kv_bytes=est.kv_bytes_of(setup.model, fmt, server),
                       moe_extra_s=est.moe_small_batch_extra_s(setup.model, setup.hardware, server, fmt))
    dev = est._device(setup.hardware, est._lowp(setup.model, setup.hardware, family, bpp, fmt), engine=family)
    n = float(setup.devices)
    tp = ep["tensor_parallel"]
    rates = est.engine_rates(ep, dev, n if tp else 1.0, params.get("combine", "max"), layers=shape.layers * shape.loops)
    rates = est.moe_kernel_rates(rates, shape, tp)
    w = est.Workload(prompt=float(setup.prompt), output=float(setup.output), context=0.0, batch=1.0, users=1.0,
                     utilization=0.0, network_s=0.0, forced_devices=n)

    def kv_gb(tokens, streams):
        return est.kv_cache_gb(shape.attention_layers, shape.kv_dim, shape.kv_bytes, tokens, streams, shape.loops,
                               shape.loop_kv_window)

    def comm_s(tokens):
        if tp:
            return est.tp_allreduce_s(n, shape.layers, shape.loops, tokens, shape.hidden, dev.interconnect_gbs,
                                      dev.link_latency_s, shape.extra_allreduces)
        return est.pipeline_hops_s(n, tokens, shape.hidden, dev.interconnect_gbs, dev.link_latency_s)

    weights = est.weights_gb(shape.params_b, shape.bytes_per_param)
    def moe_s(tokens):
        return est.moe_small_batch_s(shape.moe_small_batch_s, shape.layers, shape.loops, tokens, n if tp else 1.0)

    step = est.engine_step_fn(shape, rates, ep, weights, w, kv_gb, comm_s, moe_s)
    e = est.estimate(setup.model, setup.hardware, prompt_tokens=setup.prompt, output_tokens=setup.output,
                     devices=setup.devices, engine=engine, access="none", serving_api=False, params=params)
    cap = float(e.max_concurrent_requests)
    budget = float(token_budget_tokens(tp, dev.memory_gb))
    running = float(max_running_requests(tp, dev.memory_gb, cap))
    kv_tokens = e.kv_budget_gb / kv_gb(1.0, 1.0)
    seqs = float(max_running_requests(tp, dev.memory_gb, math.inf))
    return step, budget, running, kv_tokens, ep["reserve_whole"] > 0.5, seqs


def compare(setup: Setup, users: int, think_s: float, requests: int = 1500, engine: str | None = None) -> dict:
    step, budget, cap, kv_tokens, whole, seqs = engine_of(setup, engine=engine)
    model = steady_state(float(users), think_s, float(setup.prompt), float(setup.output), budget, cap, step)
    one = steady_state(1.0, 0.0, float(setup.prompt), float(setup.output), budget, cap, step)
    cycle_s = float(one.ttft_s + (setup.output - 1) * one.itl_s)
    sim = simulate(users, think_s, setup.prompt, setup.output, int(budget), int(seqs), step, requests=requests,
                   spread_s=cycle_s, kv_tokens=kv_tokens, reserve_whole=whole)
    return {"model": model, "sim": sim, "cap": cap, "budget": budget, "kv_tokens": kv_tokens}


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
    print("\nPast the knee, by the engine's admission (70B FP8 with an FP8 KV cache on 2 x H100, 5,000 in / 500 out):")
    setup = Setup("70B FP8, 2 x H100 (FP8 cache)", LLAMA70, H100_FP8, 5000, 500, 2)
    for engine in ("tensorrt-llm", "vllm"):
        for n in (50, 100, 150, 250):
            c = compare(setup, n, 0.0, engine=engine)
            m, s = c["model"], c["sim"]
            print(f"  {engine:<13}{n:>5} users  cap {c['cap']:>4.0f}  TTFT {m.ttft_s:>7.2f}/{s.ttft_s:<7.2f} s"
                  f"  ITL {1e3 * m.itl_s:>5.1f}/{1e3 * s.itl_s:<5.1f} ms  tok/s {m.output_tokens_per_s:>5.0f}/"
                  f"{s.output_tokens_per_s:<5.0f}  preempted {s.preemptions}")


if __name__ == "__main__":
    main()
