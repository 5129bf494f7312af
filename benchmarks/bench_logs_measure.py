"""Speed of the logs reader at its size limit, and the measure page's decode against the estimator.

    python benchmarks/bench_logs_measure.py            (add --sizes 50m,125m to choose model sizes)

Goals (issue 11): reading a log at the 5 MiB limit well within one page run (goal 2 s); every
offered model size finishing inside the 20 s cap with prompt 64 and 16 answer tokens. Prints the
figures and their ratios to the goals, and measured / predicted for each size; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from latency.measured import log_samples as S  # noqa: E402
from latency.measured import logs as L  # noqa: E402
from latency.measured import measure as M  # noqa: E402

READ_GOAL_S = 2.0


def bench_read() -> None:
    text = S.render("csv", S.requests(n=60_000, seed=1)).encode()[: L.MAX_BYTES]
    text = text[: text.rfind(b"\n") + 1]
    t = time.perf_counter()
    df = L.read_latency_log(text)
    L.summarize_latency(df, budget_s=5.0)
    took = time.perf_counter() - t
    print(f"read + summarise {len(text) / 1e6:.1f} MB CSV ({len(df):,} requests): {took:.2f} s "
          f"= {took / READ_GOAL_S:.2f} x the {READ_GOAL_S:g} s goal")


def bench_measure(ids: list[str]) -> None:
    free = M.available_memory_gb()
    print(f"free memory {free:.1f} GB; sizes within the cap: {[c.id for c in M.sizes_that_fit(free)]}")
    for cid in ids:
        config = M.SIZE_BY_ID[cid]
        t = time.perf_counter()
        m = M.run(config, 64, 16, clock=time.perf_counter)
        wall = time.perf_counter() - t
        line = f"{cid:>5}: {wall:5.1f} s = {wall / M.TIME_CAP_S:.2f} x the cap; load {m.load_s:.1f} s"
        if m.complete:
            c = M.compare(m, free)
            line += (f"; TTFT {m.ttft_s * 1e3:.0f} ms vs {c.estimate.ttft_s * 1e3:.0f} ms predicted "
                     f"({c.ttft_ratio:.2f}x); TPOT {m.tpot_s * 1e3:.1f} ms vs {c.estimate.tpot_s * 1e3:.1f} ms "
                     f"({c.tpot_ratio:.2f}x); floor {c.decode_floor_s * 1e3:.1f} ms; probe "
                     f"{m.probe.bandwidth_gbs:.1f} GB/s, {m.probe.matmul_gflops:.0f} GFLOP/s")
        print(line + (f"; stopped during {m.stopped}" if m.stopped else ""))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="50m,125m", help="comma-separated ids from latency.measured.measure.SIZES")
    args = parser.parse_args()
    bench_read()
    bench_measure([s for s in args.sizes.split(",") if s])


if __name__ == "__main__":
    main()
