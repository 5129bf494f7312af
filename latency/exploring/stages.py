"""The four stages of one request as the pages name them (pure Python, never imports streamlit).

COORDINATION decision 2: the estimator's `breakdown` keeps four stages summing to `total_s`; the queue
stage is ONLY the wait for other users (0 with one user, on every page), and the serving engine's own
per-request handling (its API front end: HTTP, tokenising, scheduling) is part of the prefill stage and
given on its own as `Estimate.overhead_s`, so a page can name it ("the server's own request handling,
0.08 s"). An estimator from before that change counts the handling in the queue stage and has no
`overhead_s`; `page_stages` moves it where the decision puts it, so every page reads the same figures
from either, and a one-user set-up never shows a queue (issue 31 item 2: the trade-off page said "the
queue (62%)" with one user while the estimator said there was no one to wait for).
"""

from __future__ import annotations

from typing import Any, Mapping

from latency.estimation.estimator import STAGES, engine_params, load_params


def handling_s(est: Any, kind: str) -> float:
    """The serving engine's own per-request handling time in this estimate, seconds: `Estimate.overhead_s`
    where the estimator gives it; else the engine's fitted `request_overhead_s` (fitted_params.json,
    `python -m latency.calibrate`), which that estimator counted in the queue stage (never more than it)."""
    value = getattr(est, "overhead_s", None)
    if value is not None:
        return float(value)
    fitted = float(engine_params(load_params(), est.engine, kind).get("request_overhead_s", 0.0))
    return min(fitted, float(est.breakdown["queue"]))


def page_stages(est: Any, kind: str) -> dict[str, float]:
    """{network, queue, prefill, decode} (seconds, summing to `est.total_s`) as decision 2 defines them:
    queue only the wait for other users, the engine's own handling inside prefill."""
    stages = {k: float(est.breakdown[k]) for k in STAGES}
    if getattr(est, "overhead_s", None) is None:  # an estimator that still counts the handling as queue
        moved = handling_s(est, kind)
        stages["queue"] -= moved
        stages["prefill"] += moved
    stages["queue"] = max(stages["queue"], 0.0)
    return stages


def wait_for_others_s(queue_s: float, est: Any, kind: str) -> float:
    """A queue figure from a sweep (`estimate_sweep`'s "queue") as the wait for other users alone."""
    if getattr(est, "overhead_s", None) is not None:
        return float(queue_s)
    return max(float(queue_s) - handling_s(est, kind), 0.0)


def stage_shares(stages: Mapping[str, float], measure: str) -> tuple[str, float]:
    """The largest stage for the measure ("ttft": the three before the first token; "total": all four)
    and its share of that time."""
    keys = STAGES if measure == "total" else tuple(k for k in STAGES if k != "decode")
    whole = sum(stages[k] for k in keys)
    top = max(keys, key=lambda k: stages[k])
    return top, (stages[top] / whole if whole > 0 else 0.0)


def sweep_wait_s(sweep: Mapping[str, Any], i: int, engine: str, kind: str) -> float:
    """Point `i` of an `estimate_sweep` result's queue stage as the wait for other users alone: the sweep
    gives the engine's handling as "overhead" once the estimator does (decision 2), else it is the
    engine's fitted `request_overhead_s`, counted inside "queue"."""
    import numpy as np

    queue = float(np.asarray(sweep["queue"]).reshape(-1)[i])
    if "overhead" in sweep:
        return queue
    fitted = float(engine_params(load_params(), engine, kind).get("request_overhead_s", 0.0))
    return max(queue - fitted, 0.0)
