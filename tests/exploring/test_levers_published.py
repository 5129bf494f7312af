"""The launch check's levers (latency.exploring.levers) against published measurements: each lever's
effect, as `latency.estimate` computes it, beside the same change measured on the same device and
engine (../shared/calibration, with its citations; docs/estimator.md "Levers" lists every pair).

These files are also what the estimator's free parameters were fitted on, so the check is of the
lever's mechanism (a ratio between two set-ups, which no single fitted value sets), not a
held-out test. The tolerance is the estimator's own spread on these rows: a lever whose measured
and estimated effect differ by more than LEVER_TOLERANCE fails."""

from __future__ import annotations

import csv
from dataclasses import replace

import pytest

from latency import estimate
from latency.estimation import calibrate
from latency.estimation.catalog import load_catalog
from latency.estimation.estimator import calibration_dir

CAT = load_catalog()
CAL = calibration_dir()
LEVER_TOLERANCE = 1.5   # estimated effect / measured effect within [1/1.5, 1.5]
pytestmark = pytest.mark.skipif(not (CAL / "measurements.csv").exists(), reason="no calibration data next to the repository")


def llama_rows() -> dict:
    """measurements.csv: llama-bench tg512 (tokens/s) by (device, model, precision)."""
    out = {}
    for r in csv.DictReader(open(CAL / "measurements.csv")):
        if r["decode_tok_s"]:
            out[(r["hardware"].split(" (")[0], r["model"], r["precision"])] = float(r["decode_tok_s"])
    return out


DEVICES = {"NVIDIA GeForce RTX 3090 24GB": "rtx-3090", "NVIDIA A100 80GB PCIe": "a100-pcie-80gb",
           "Apple M1 Max": "apple-m1-max", "Apple M2 Ultra": "apple-m2-ultra", "NVIDIA GeForce RTX 4090 24GB": "rtx-4090"}
MODELS = {"Llama 3 8B": "llama-3.1-8b", "Llama 3 70B": "llama-3.1-70b"}
BPP = {"Q4_K_M": {"Llama 3 8B": 0.611, "Llama 3 70B": 0.603}, "F16": {"Llama 3 8B": 2.0, "Llama 3 70B": 2.0}}


def decode_rate(model: str, device: str, precision: str) -> float:
    m = replace(CAT.models[MODELS[model]].model, bytes_per_param=BPP[precision][model])
    e = estimate(m, CAT.hardware[DEVICES[device]].hardware, prompt_tokens=1, output_tokens=512, engine="llama.cpp",
                 access="none", serving_api=False)
    return e.decode_tokens_per_s


def close(estimated: float, measured: float, tolerance: float = LEVER_TOLERANCE) -> bool:
    return 1 / tolerance <= estimated / measured <= tolerance


QUANT = [(d, m) for d in DEVICES for m in MODELS]


@pytest.mark.parametrize("device,model", QUANT)
def test_quantization_speeds_decode_as_measured(device, model):
    """Lever `precision`: FP16 -> Q4_K_M on the same device (llama-bench tg512)."""
    rows = llama_rows()
    if (device, model, "F16") not in rows or (device, model, "Q4_K_M") not in rows:
        pytest.skip("no F16 and Q4_K_M pair published for this device and model")
    measured = rows[(device, model, "Q4_K_M")] / rows[(device, model, "F16")]
    estimated = decode_rate(model, device, "Q4_K_M") / decode_rate(model, device, "F16")
    assert estimated > 1.5
    assert close(estimated, measured), (estimated, measured)


@pytest.mark.parametrize("device", list(DEVICES))
def test_a_smaller_model_speeds_decode_as_measured(device):
    """Lever `smaller_model`: Llama 3 70B -> 8B, both Q4_K_M, same device."""
    rows = llama_rows()
    if (device, "Llama 3 70B", "Q4_K_M") not in rows:
        pytest.skip("no 70B row published for this device")
    measured = rows[(device, "Llama 3 8B", "Q4_K_M")] / rows[(device, "Llama 3 70B", "Q4_K_M")]
    estimated = decode_rate("Llama 3 8B", device, "Q4_K_M") / decode_rate("Llama 3 70B", device, "Q4_K_M")
    assert close(estimated, measured), (estimated, measured)


def long_context() -> dict:
    rows = calibrate.load_long_context(CAL)
    return {(r.model, r.target, r.context): r for r in rows}


def lc_estimate(r, prompt: int | None = None, context: int | None = None):
    return estimate(r.llm, r.hardware, prompt_tokens=r.prompt if prompt is None else prompt, output_tokens=r.output,
                    engine="llama.cpp", access="none", serving_api=False,
                    context_tokens=r.context if context is None else context)


def measured_uncached_prefill_s(rows: dict, model: str, prompt: int, cached: int) -> float:
    """The measured time to prefill prompt + cached tokens with nothing cached, rebuilt from the
    published pp2048 rates at each depth: chunks of 2,048 tokens, each at the rate measured with as many
    tokens before it (linear between the published depths 0, 4k, 8k, 16k, 32k)."""
    depths = sorted(d for (m, t, d) in rows if m == model and t == "prefill")
    rates = [rows[(model, "prefill", d)].measured for d in depths]

    def rate(at: float) -> float:
        for (d0, r0), (d1, r1) in zip(zip(depths, rates), zip(depths[1:], rates[1:])):
            if d0 <= at <= d1:
                return r0 + (r1 - r0) * (at - d0) / (d1 - d0)
        return rates[-1]

    total, done = 0.0, 0
    while done < prompt + cached:
        chunk = min(2048, prompt + cached - done)
        total += chunk / rate(done)
        done += chunk
    return total


LC_MODELS = ("Qwen2.5-Coder-7B", "gpt-oss-20b", "gpt-oss-120b", "gemma-3-4b", "Qwen3-Coder-30B-A3B")


@pytest.mark.parametrize("model", LC_MODELS)
def test_caching_the_shared_part_cuts_prefill_as_measured(model):
    """Lever `prefix_cache`: a 2,048-token question after 32,768 cached tokens (llama-bench pp2048 at depth
    32k, DGX Spark) against reading all 34,816 tokens, both measured (rebuilt from the published rates) and
    estimated (the cached tokens as context_tokens, as scenario.evaluate passes them)."""
    rows = long_context()
    cached_row = rows[(model, "prefill", 32768)]
    measured_cached_s = 2048 / cached_row.measured
    measured = measured_uncached_prefill_s(rows, model, 2048, 32768) / measured_cached_s
    est_cached = lc_estimate(cached_row).breakdown["prefill"]
    est_uncached = lc_estimate(cached_row, prompt=2048 + 32768, context=0).breakdown["prefill"]
    estimated = est_uncached / est_cached
    assert estimated > 5 and measured > 5
    assert close(estimated, measured, 2.0), (estimated, measured)


def test_a_mixture_of_experts_model_decodes_like_its_active_share():
    """Lever `moe`: Qwen3-Coder-30B-A3B (MoE, 3.3B active of 30.5B) against Qwen2.5-Coder-7B (dense), both Q8_0
    on a DGX Spark (llama-bench tg32, depth 0): the MoE model, four times larger, decodes about twice as fast."""
    rows = long_context()
    moe, dense = rows[("Qwen3-Coder-30B-A3B", "decode", 0)], rows[("Qwen2.5-Coder-7B", "decode", 0)]
    measured = moe.measured / dense.measured
    estimated = lc_estimate(moe).decode_tokens_per_s / lc_estimate(dense).decode_tokens_per_s
    assert measured > 1.5 and estimated > 1.5
    assert close(estimated, measured), (estimated, measured)


def test_a_reused_connection_saves_two_round_trips():
    """Lever `connection`: a new HTTPS connection costs TCP 1 RTT + TLS 1.3 1 RTT before the request's own
    round trip (calibration README, RFC 8446), so new / reused = 3 round trips against 1."""
    m, hw = CAT.models["llama-3.1-8b"].model, CAT.hardware["h100-sxm"].hardware
    warm = estimate(m, hw, distance_km=1149, connection="warm").breakdown["network"]
    cold = estimate(m, hw, distance_km=1149, connection="cold").breakdown["network"]
    assert cold / warm == pytest.approx(3.0, rel=1e-9)


def test_a_closer_region_follows_the_published_round_trips():
    """Lever `region`: the network stage over distance is the fit on IBM Cloud's published round trips
    (rtt.csv, backbone only). Single routes wander (Washington DC - Toronto: 19 ms over 563 km), so the
    check is on the whole table: the median of estimated / measured within 20%, and the round trip grows
    with distance as the measurements do (farther half of the routes against the nearer half)."""
    from statistics import median

    from latency import round_trip_s
    pairs = []
    for r in csv.DictReader(open(CAL / "rtt.csv")):
        km, ms = float(r["distance_km"] or 0), float(r["rtt_ms"] or 0)
        if km > 0 and ms > 0:
            pairs.append((km, ms, round_trip_s(km) * 1000))
    assert len(pairs) >= 10
    assert 0.8 <= median(e / m for _, m, e in pairs) <= 1.25
    pairs.sort()
    near, far = pairs[: len(pairs) // 2], pairs[len(pairs) // 2:]
    measured_gain = median(m for _, m, _ in far) / median(m for _, m, _ in near)
    estimated_gain = median(e for _, _, e in far) / median(e for _, _, e in near)
    assert close(estimated_gain, measured_gain), (estimated_gain, measured_gain)


def test_shorter_answers_shorten_decode_and_leave_the_first_token():
    """Levers `shorter_answers` and `streaming`: the whole answer is the first token plus one time per token
    for the rest (the estimator's TPOT, fitted on the published decode rates above), so an answer half as
    long takes about half the decode (a little less: a shorter answer's KV cache is shorter) and the first
    token, what a streamed answer shows first, does not move."""
    m, hw = CAT.models["llama-3.1-8b"].model, CAT.hardware["h100-sxm"].hardware
    full = estimate(m, hw, output_tokens=1000)
    half = estimate(m, hw, output_tokens=500)
    assert half.breakdown["decode"] / full.breakdown["decode"] == pytest.approx(499 / 999, rel=0.02)
    assert half.breakdown["decode"] <= full.breakdown["decode"] * 499 / 999 * (1 + 1e-9)
    assert half.ttft_s == pytest.approx(full.ttft_s, rel=1e-9)
