"""Speed of the latency estimator: one `estimate` call, and a 10,000-scenario `estimate_sweep`.

    /work/venv/bin/python benchmarks/bench_estimator.py   (or: python -m benchmarks.bench_estimator)

Budgets (issue 3): a single estimate < 100 us; 10,000 scenarios < 20 ms. The baseline, measured in
the same run, is the plain way to get the same 10,000 numbers: calling `estimate` once per scenario
in a Python loop (the same stage formulas, one scenario at a time). Prints figures, asserts nothing.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from latency import Hardware, Model, estimate, estimate_sweep  # noqa: E402

N = 10_000
H100 = Hardware(name="NVIDIA H100 SXM", kind="datacenter_gpu", mem_bandwidth_gbs=3350, peak_tflops=989.4, memory_gb=80)
GENERIC = Model(name="dense", params_b=1.0)


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    rng = np.random.default_rng(0)
    sizes = rng.uniform(0.5, 400, N)
    dist = rng.uniform(0, 15000, N)
    prompt = rng.integers(16, 8192, N).astype(float)
    output = rng.integers(1, 2048, N).astype(float)
    batch = rng.integers(1, 64, N).astype(float)

    # Single estimate: median of many calls.
    m = Model(name="Llama 3 8B", params_b=8.03)
    estimate(m, H100)
    singles = []
    for _ in range(2000):
        t = time.perf_counter()
        estimate(m, H100, prompt_tokens=512, output_tokens=256, distance_km=1200)
        singles.append(time.perf_counter() - t)
    single_us = statistics.median(singles) * 1e6

    def sweep():
        return estimate_sweep(GENERIC, H100, params_b=sizes, distance_km=dist, prompt_tokens=prompt,
                              output_tokens=output, batch=batch)

    def loop():
        return [estimate(replace(GENERIC, params_b=float(p)), H100, prompt_tokens=float(pt), output_tokens=float(o),
                         batch=float(b), distance_km=float(d)).total_s
                for p, d, pt, o, b in zip(sizes, dist, prompt, output, batch)]

    sweep()
    sweep_s = best_of(sweep, 20)
    loop_s = best_of(loop, 2)
    diff = float(np.max(np.abs(sweep()["total_s"] / np.array(loop()) - 1)))

    print(f"single estimate():            {single_us:8.1f} us   (budget 100 us)")
    print(f"estimate_sweep, {N:,} rows:   {sweep_s * 1e3:8.2f} ms   (budget 20 ms)")
    print(f"baseline: estimate() in a Python loop, {N:,} rows: {loop_s * 1e3:8.1f} ms")
    print(f"sweep speed-up over the loop: {loop_s / sweep_s:8.0f} x")
    print(f"max relative difference sweep vs loop: {diff:.1e}")


if __name__ == "__main__":
    main()
