"""The calibration script reproduces latency/estimation/fitted_params.json and meets the accuracy targets."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from latency.estimation import calibrate, estimator
from latency.estimation.estimator import PARAMS_PATH, calibration_dir

CAL = calibration_dir()
pytestmark = [pytest.mark.skipif(not (CAL / "measurements.csv").exists(),
                                 reason=f"calibration data not found at {CAL}"),
              # The full fit (52 refits for the cross-validation, the steady-use rows through the
              # serving engine's fixed point) takes ~3 CPU-minutes; more on a shared machine. It runs
              # once per test command (tests/conftest.py calibration_fit).
              pytest.mark.timeout(1200)]

TARGETS = {"decode": 20.0, "prefill/TTFT": 40.0, "RTT": 20.0}  # issue 3: median |error| limits


@pytest.fixture(scope="module")
def fitted(calibration_fit):
    """(params, printed report) of a fresh fit: one per test command (tests/conftest.py calibration_fit)."""
    params, report, _ = calibration_fit
    return params, report


@pytest.fixture(scope="module")
def committed():
    return json.loads(PARAMS_PATH.read_text(encoding="utf-8"))


def _close(a, b, path="") -> None:
    if isinstance(a, dict):
        assert set(a) == set(b), f"{path}: keys differ: {sorted(set(a) ^ set(b))}"
        for k in a:
            _close(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _close(x, y, f"{path}[{i}]")
    elif isinstance(a, float) or isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-4, abs_tol=1e-9), f"{path}: fit {a} != committed {b}"
    else:
        assert a == b, f"{path}: fit {a!r} != committed {b!r}"


def test_rerun_reproduces_committed_parameters(fitted, committed):
    _close(fitted[0], committed)


def test_committed_parameters_were_fitted_on_these_files(committed):
    assert committed["meta"]["data_sha256"] == calibrate.file_hashes(CAL)


@pytest.mark.parametrize("kind", ["in_sample", "leave_one_device_out"])
def test_median_errors_meet_the_targets(fitted, kind):
    errors = fitted[0]["meta"]["median_abs_error_pct"][kind]
    assert errors["RTT"] <= TARGETS["RTT"]
    # The issue-3 targets were set on measurements.csv (batch-1 rows of eleven devices).
    errors = fitted[0]["meta"]["median_abs_error_pct_by_source"]["measurements.csv"][kind]
    for target in ("decode", "prefill/TTFT"):
        assert errors[target] <= TARGETS[target], f"{kind} {target}: {errors[target]:.1f}% > {TARGETS[target]}%"


def test_ranges_state_their_coverage_and_uncalibrated_ones_are_wider(fitted):
    params = fitted[0]
    cov = params["meta"]["coverage_pct"]
    assert cov["stated"] == 80.0
    for stage in ("decode", "prefill"):
        for key in (f"{stage}_calibrated", f"{stage}_uncalibrated"):
            assert 0 <= cov[key]["coverage_pct"] <= 100 and cov[key]["rows"] > 0
        lo, hi = params["bands"][stage]
        ulo, uhi = params["bands_uncalibrated"][stage]
        assert ulo <= lo <= 1 <= hi <= uhi
    assert "Ranges: each aims to hold" in fitted[1] and "Network errors per provider" in fitted[1]
    assert "Errors per series" in fitted[1]


def test_percentile_band_holds_eighty_percent_and_includes_one():
    ratios = [0.5, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.2, 1.3, 2.0, 0.7]
    lo, hi = calibrate._band(ratios)
    assert sum(lo <= r <= hi for r in ratios) / len(ratios) == pytest.approx(9 / 11)
    assert calibrate._band([1.1, 1.2, 1.3])[0] == 1.0  # widened to include the prediction itself


def test_serving_rows_use_the_prompts_actually_sent():
    assert calibrate._prompts_in_run("random dataset; 50 prompts at c=1, 400 at c>1", 512) == 400
    assert calibrate._prompts_in_run("random dataset; 50 prompts at c=1, 400 at c>1", 1) == 50
    assert calibrate._prompts_in_run("~50 prompts per level; page notes", 64) == 50
    assert calibrate._prompts_in_run("TP=4", 32) is None


def test_report_prints_row_table_and_medians(fitted):
    report = fitted[1]
    assert "Leave-one-device-out errors" in report and "In-sample errors" in report
    assert report.count("decode tok/s") >= 2 * 18 and "TTFT s" in report
    assert "Median |error|" in report
    assert "SUSPECT" in report


def test_suspect_prefill_is_excluded_but_its_decode_is_kept():
    rows, excluded, _ = calibrate.load_rows(CAL)
    assert any("A100 80GB SXM4" in x and "F16" in x for x in excluded)
    sxm_f16 = [r for r in rows if r.device == "NVIDIA A100 80GB SXM4" and r.precision == "F16"]
    assert [r.target for r in sxm_f16] == ["decode"]


def test_vectorised_rows_match_the_public_estimate(committed):
    rows, _, _ = calibrate.load_rows(CAL)
    fast = calibrate.RowSet(rows).predict(committed)
    slow = np.array([calibrate.predict(r, committed) for r in rows])
    assert np.allclose(fast, slow, rtol=1e-9)


def test_tiled_rows_give_each_copy_its_own_parameters_exactly(committed):
    """The fit's one-pass Jacobian: copy c of the rows, predicted with parameter set c, gives the very
    numbers of predicting the rows with that set alone (two different sets, so a mix-up shows)."""
    rows, _, _ = calibrate.load_rows(CAL)
    other = json.loads(json.dumps(committed))
    other["engines"]["optimized"]["pass_overhead_s"] *= 1.5
    other["engines"]["llama.cpp"]["kinds"]["desktop_gpu"]["kv_read_eff"] = 0.5
    alone = [calibrate.RowSet(rows).predict(p) for p in (committed, other)]
    both = calibrate.RowSet.tiled(rows, 2).predict(committed, params_list=[committed, other]).reshape(2, len(rows))
    assert not np.allclose(alone[0], alone[1])
    assert np.array_equal(both[0], alone[0]) and np.array_equal(both[1], alone[1])


def test_every_calibration_row_runs_on_one_device():
    rows, _, _ = calibrate.load_rows(CAL)
    for r in rows:
        if r.devices > 1:  # the serving benchmark's tensor-parallel rows name their GPUs
            continue
        e = estimator.estimate(r.llm, r.hardware, prompt_tokens=r.prompt, output_tokens=r.output, engine=r.engine,
                               batch=r.batch, context_tokens=r.context)
        assert e.devices_needed == 1, r


def test_fitted_values_are_physical(committed):
    for engine, e in committed["engines"].items():
        assert 0 < e["pass_overhead_s"] < 0.02, engine
        for kind, v in e["kinds"].items():
            assert 0 < v["bw_frac"] <= 1.0, (engine, kind)
            assert 0 < v["compute_frac"] <= 2.0, (engine, kind)  # GeForce peak is the FP32-accumulate rate
        for v in e["kinds"].values():
            assert v.get("bw_cap_gbs", 1e3) > 0 and v.get("compute_cap_tflops", 1e2) > 0
    lo, hi = committed["bands"]["decode"]
    assert lo < 1 < hi


def test_discrete_gpu_kinds_share_one_saturating_curve(committed):
    kinds = committed["engines"]["llama.cpp"]["kinds"]
    assert kinds["desktop_gpu"] == kinds["datacenter_gpu"]
    assert "bw_cap_gbs" in kinds["desktop_gpu"] and "bw_cap_gbs" not in kinds["apple_silicon"]


def test_achieved_fraction_saturates():
    f = estimator.achieved_fraction
    assert f(500.0, 0.8) == 0.8 and f(500.0, 0.8, None) == 0.8
    assert f(1.0, 0.9, 1000.0) == pytest.approx(0.9)  # far below the cap: the share of peak
    assert f(1e6, 0.9, 1000.0) * 1e6 == pytest.approx(1000.0, rel=1e-3)  # far above: the cap
    peaks = np.array([300.0, 900.0, 3000.0])
    achieved = f(peaks, 1.0, 1000.0) * peaks
    assert np.all(np.diff(achieved) > 0) and np.all(achieved < np.minimum(peaks, 1000.0))


def test_model_selection_is_recorded(fitted):
    sel = fitted[0]["meta"]["model_selection"]
    before, used = sel["per_kind_fraction"], sel["saturating_curve"]
    for g in ("decode", "prefill/TTFT"):
        assert used["leave_one_kind_out"][g] < before["leave_one_kind_out"][g]
    assert "Leave-one-kind-out errors" in fitted[1] and "Model selection" in fitted[1]


def test_calibration_dir_can_be_overridden(monkeypatch, tmp_path):
    monkeypatch.setenv("LATENCY_CALIBRATION_DIR", str(tmp_path))
    assert calibration_dir() == tmp_path


def test_network_fit_is_closed_form():
    rows = [{"distance_km": "0", "rtt_ms": "1"}, {"distance_km": "0", "rtt_ms": "3"},
            {"distance_km": "1000", "rtt_ms": "17"}, {"distance_km": "2000", "rtt_ms": "42"}]
    net = calibrate.fit_network(rows)
    assert net["fixed_ms"] == 2.0
    assert net["route_inflation"] == pytest.approx(np.median([1.5, 2.0]))


def test_check_without_the_data_folder_fails_with_one_clear_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("LATENCY_CALIBRATION_DIR", str(tmp_path / "absent"))
    assert calibrate.main(["--check"]) != 0
    out = capsys.readouterr()
    lines = [x for x in (out.out + out.err).splitlines() if x.strip()]
    assert len(lines) == 1 and "is needed" in lines[0] and "Traceback" not in lines[0]


def test_new_calibration_devices_match_the_catalog():
    from latency.estimation import catalog
    hw = catalog.load_catalog().hardware
    for key, cid in (("NVIDIA DGX Spark", "dgx-spark"), ("NVIDIA HGX B200", "b200")):
        spec, entry = calibrate.EXTRA_HARDWARE[key], hw[cid].hardware
        for f in ("kind", "mem_bandwidth_gbs", "peak_tflops", "memory_gb", "fp8", "fp4_speedup", "compute_capability"):
            assert getattr(spec, f) == getattr(entry, f), (cid, f)


def test_provider_is_the_words_both_endpoints_share():
    row = {"endpoint_a": "IBM Cloud Washington DC", "endpoint_b": "IBM Cloud Sao Paulo"}
    assert calibrate._provider(row) == "IBM Cloud"
    assert calibrate._provider({"endpoint_a": "AWS us-east-1", "endpoint_b": "AWS eu-west-1"}) == "AWS"


def test_one_calibration_device_does_not_make_a_kind_calibrated():
    params = json.loads(PARAMS_PATH.read_text(encoding="utf-8"))
    params["engines"]["llama.cpp"]["calibration_devices"] = {"desktop_gpu": 5, "integrated_gpu": 1}
    assert estimator.engine_params(params, "llama.cpp", "desktop_gpu")["calibrated"]
    assert not estimator.engine_params(params, "llama.cpp", "integrated_gpu")["calibrated"]
    assert not estimator.engine_params(params, "llama.cpp", "cpu")["calibrated"]


def test_a_held_out_device_alone_of_its_kind_keeps_only_what_other_devices_fitted(committed):
    """Round 4, fifth pass: leaving out the DGX Spark (the only integrated GPU) left its kind's parameters at the
    fit's start values, which no row informs. Held out, it is predicted the way the estimator predicts a kind
    without calibration rows (the engine's "default" entry) for what only its own rows fit (its compute share),
    and (sixth pass) with the bandwidth curve it shares with the discrete CUDA GPUs (GPU_GROUP "cuda_gpu"), which
    the other devices' rows fit. Checked against the public `estimate` with parameters written here by hand: the
    desktop GPUs' bandwidth curve, and the default compute share as the geometric mean of the remaining kinds'
    shares at their median calibration devices."""
    import copy

    rows, _, _ = calibrate.load_rows(CAL)
    held = [r for r in rows if r.kind == "integrated_gpu" and r.engine == "llama.cpp"]
    train = [r for r in rows if r.device not in {h.device for h in held}]
    assert held and len({r.device for r in held}) == 1
    params = calibrate.without_untrained_kinds(copy.deepcopy(committed), train, held)
    kinds = params["engines"]["llama.cpp"]["kinds"]
    desktop = committed["engines"]["llama.cpp"]["kinds"]["desktop_gpu"]
    # the default compute share by hand: each remaining kind at the median peak of its calibration devices
    effs = []
    for kind, v in committed["engines"]["llama.cpp"]["kinds"].items():
        if kind in ("default", "integrated_gpu"):
            continue
        devs = {r.device: r.hardware for r in train if r.kind == kind and r.engine == "llama.cpp"}
        tf = float(np.median([h.peak_tflops * estimator.compute_peak_scale(h, "llama.cpp") for h in devs.values()]))
        effs.append(estimator.achieved_fraction(tf, v["compute_frac"], v.get("compute_cap_tflops")))
    by_hand = copy.deepcopy(committed)
    by_hand["engines"]["llama.cpp"]["kinds"]["integrated_gpu"] = {
        "bw_frac": desktop["bw_frac"], "bw_cap_gbs": desktop["bw_cap_gbs"],
        "compute_frac": float(np.exp(np.mean(np.log(effs))))}
    assert math.isclose(kinds["integrated_gpu"]["compute_frac"], by_hand["engines"]["llama.cpp"]["kinds"]["integrated_gpu"]["compute_frac"], rel_tol=1e-9)
    assert "compute_cap_tflops" not in kinds["integrated_gpu"]
    # the held-out rows as calibrate predicts them = the public estimate with the hand-written entry
    fast = calibrate.RowSet(held).predict(params)
    for r, p in zip(held[:6], fast[:6]):
        assert math.isclose(p, calibrate.predict(r, by_hand), rel_tol=1e-9), (r.model, r.target)
    # and not from the Spark's own compute share (fitted on these very rows)
    assert not np.allclose(fast, calibrate.RowSet(held).predict(committed))
    # a device whose kind the training rows know keeps its kind's own entry
    other = [r for r in rows if r.device == "NVIDIA GeForce RTX 3090 24GB"]
    kept = calibrate.without_untrained_kinds(copy.deepcopy(committed), [r for r in rows if r not in other], other)
    assert kept["engines"]["llama.cpp"]["kinds"]["desktop_gpu"] == committed["engines"]["llama.cpp"]["kinds"]["desktop_gpu"]


def test_a_batched_bench_prefill_slower_than_twice_its_work_is_left_out_but_its_decode_is_kept():
    """Round 4, sixth pass: in the DGX Spark's llama-batched-bench tables the first test (512-token prompt, B=1)
    of the three MoE models took longer than B=2, which prefills twice the tokens (gpt-oss-20b 390 ms against
    273 ms, gpt-oss-120b 605 against 585, Qwen3-Coder 401 against 355): start-up time, not prefill. The dense
    models' first tests take about half their B=2 time and stay."""
    rows, excluded, _ = calibrate.load_rows(CAL)
    cold = [x for x in excluded if "start-up time" in x]
    assert len(cold) == 3
    for model in ("gpt-oss-20b", "gpt-oss-120b", "Qwen3-Coder-30B-A3B"):
        assert any(f" {model} B=1 " in x for x in cold), model
        first = [r for r in rows if r.model == model and r.series.endswith(model) and r.batch == 1 and r.prompt == 512]
        assert [r.target for r in first] == ["decode"], model
    for model in ("Qwen2.5-Coder-7B", "gemma-3-4b"):
        first = [r for r in rows if r.model == model and r.batch == 1 and r.prompt == 512 and r.series != "long_context.csv"]
        assert sorted(r.target for r in first) == ["decode", "prefill"], model


def test_the_spark_shares_the_discrete_gpus_bandwidth_curve_not_their_compute(committed):
    """Round 4, sixth pass (GPU_GROUP "cuda_gpu"): llama.cpp's CUDA kernels stream the weights on the GB10 as on
    the discrete GPUs, so one bandwidth curve serves all three kinds; the Spark's compute share stays its own."""
    kinds = committed["engines"]["llama.cpp"]["kinds"]
    for key in ("bw_frac", "bw_cap_gbs"):
        assert kinds["integrated_gpu"][key] == kinds["desktop_gpu"][key] == kinds["datacenter_gpu"][key], key
    assert "compute_cap_tflops" not in kinds["integrated_gpu"]
    assert kinds["integrated_gpu"]["compute_frac"] != kinds["desktop_gpu"]["compute_frac"]
