"""Maximum throughput per GPU against NVIDIA's published TensorRT-LLM figures (issue 32: "maximum
throughput per GPU, 70B FP8 on H100/H200, 1k-32k prompts"), rows the calibration never sees.

Source: TensorRT-LLM "Performance Overview" (docs/source/developer-guide/perf-overview.md, NVIDIA/
TensorRT-LLM at 03e27c7, read 2026-12-05), table "LLaMA v3.3 70B", nvidia/Llama-3.3-70B-Instruct-FP8
on DGX H200 and DGX H100, TP2, `trtllm-bench throughput` (every request queued at once; lengths
fixed, --input-stdev=0 --output-stdev=0), output tokens per second per GPU. The number of requests
per length pair is the page's own table ("Preparing a Dataset"). Llama 3.3 70B has Llama 3.1 70B's
architecture (the catalog's llama-3.1-70b at FP8).

The estimator is asked as a PM would ask it: that many users at once on one server of two GPUs with
TensorRT-LLM, every user sending again as soon as an answer ends (the queue never empties), and
the whole server's output tokens per second divided by the GPUs. The expected values are the
published ones; nothing here is fitted on them.
"""

from __future__ import annotations

import statistics

import pytest

from latency.estimation.catalog import load_catalog
from latency.estimation.estimator import estimate

# (device, input tokens, output tokens, requests, published output tokens/s per GPU)
PUBLISHED = (
    ("h200-sxm", 1000, 1000, 3000, 2587),
    ("h200-sxm", 1024, 1024, 3000, 2582),
    ("h200-sxm", 1024, 8192, 1500, 2009),
    ("h200-sxm", 8192, 1024, 1500, 537),
    ("h200-sxm", 32768, 1024, 1000, 120),
    ("h100-sxm", 1000, 1000, 3000, 2209),
    ("h100-sxm", 8192, 1024, 1500, 398),
)


def per_gpu(device: str, prompt: int, output: int, requests: int) -> float:
    cat = load_catalog()
    e = estimate(cat.models["llama-3.1-70b"].model_at("fp8"), cat.hardware[device].hardware, prompt_tokens=prompt,
                 output_tokens=output, devices=2, engine="tensorrt-llm", access="none", concurrent_users=requests,
                 serving_api=False)
    assert e.fits and e.devices_needed <= 2
    return e.server_tokens_per_s / 2


def errors() -> list[float]:
    return [per_gpu(d, i, o, n) / published - 1.0 for d, i, o, n, published in PUBLISHED]


def test_each_published_row_within_25_percent_below_and_at_most_3_percent_above_it():
    """Where the estimate stands (2026-12-07, round 4's sixteenth pass): from 18% below the published
    figures to 2% above, so a PM is told a server does about what NVIDIA measured or a little less,
    never clearly more. docs/estimator.md ("Maximum throughput against TensorRT-LLM's published
    figures") gives each row and where the time goes."""
    for row, err in zip(PUBLISHED, errors()):
        assert -0.25 <= err <= 0.03, (row, f"{err:+.1%}")


def test_median_error_meets_the_issues_goal_of_10_percent():
    """Issue 32: "maximum throughput <= 10%". 8.5% since the sixteenth pass (TensorRT-LLM's FP8
    matmuls at the speed-up its own kernel tables measure on Hopper, 1.49 over BF16); 10.05% before."""
    assert statistics.median(abs(e) for e in errors()) <= 0.10


@pytest.mark.parametrize("device", ["h200-sxm", "h100-sxm"])
def test_longer_prompts_give_fewer_output_tokens(device):
    rows = sorted((i, per_gpu(d, i, o, n)) for d, i, o, n, _ in PUBLISHED if d == device and o == 1024 or
                  d == device and (i, o) == (1000, 1000))
    assert [tps for _, tps in rows] == sorted((tps for _, tps in rows), reverse=True)
