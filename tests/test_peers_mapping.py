"""benchmarks/peers.py without the peers installed: the row-to-peer-input mapping, the conversion of a
peer's outputs to the row's figure, and the error summary (median / p90 by hand on small cases).

The peers themselves (aiconfigurator, GenZ, llm-analysis) are never imported here: they live in
benchmarks/.peers-venv, which only `python benchmarks/peers.py` builds and uses.
"""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

import pytest

from benchmarks import peers
from benchmarks.peers import Skip, Spec

ROOT = Path(__file__).resolve().parents[1]

H100 = {"mem_bandwidth_gbs": 3350, "peak_tflops": 989.4, "memory_gb": 80, "kind": "datacenter_gpu", "interconnect_gbs": None}
RTX3090 = {"mem_bandwidth_gbs": 936, "peak_tflops": 71, "memory_gb": 24, "kind": "desktop_gpu", "interconnect_gbs": None}
B200 = {"mem_bandwidth_gbs": 8000, "peak_tflops": 2250, "memory_gb": 180, "kind": "datacenter_gpu", "interconnect_gbs": 900}


def spec(**kw) -> Spec:
    base = dict(id="r0", kind="prefill_single", target="ttft", measured=0.0308, device="NVIDIA H100 SXM 80GB",
                model="Llama 2 7B", precision="FP8", engine="TensorRT-LLM 0.9.0", prompt=2048, output=1, hw=H100)
    base.update(kw)
    return Spec(**base)


# --- error summary, by hand ------------------------------------------------------------------

def test_abs_pct_error_is_relative_to_the_measurement():
    assert peers.abs_pct_error(110.0, 100.0) == pytest.approx(10.0)
    assert peers.abs_pct_error(0.09, 0.1) == pytest.approx(10.0)
    assert peers.abs_pct_error(300.0, 100.0) == pytest.approx(200.0)


def test_median_and_p90_by_hand():
    # five errors: median is the middle one; p90 sits at rank 0.9 x 4 = 3.6, 60% of the way from 40 to 50
    assert peers.summary([50.0, 10.0, 40.0, 20.0, 30.0]) == pytest.approx((30.0, 46.0))
    # four errors: median halfway between 2 and 3; p90 at rank 2.7, 70% of the way from 3 to 4
    assert peers.summary([4.0, 1.0, 3.0, 2.0]) == pytest.approx((2.5, 3.7))
    assert peers.summary([7.0]) == (7.0, 7.0)
    assert all(math.isnan(x) for x in peers.summary([]))


def test_compare_scores_only_the_rows_both_predicted():
    rows = [spec(id="a", kind="decode_single", target="decode", measured=100.0, estimator=110.0, estimator_loo=120.0),
            spec(id="b", kind="decode_single", target="decode", measured=100.0, estimator=95.0, estimator_loo=70.0),
            spec(id="c", kind="decode_single", target="decode", measured=100.0, estimator=100.0, estimator_loo=100.0),
            spec(id="d", kind="long_context", target="decode", measured=50.0, estimator=50.0, estimator_loo=50.0)]
    preds = {"GenZ": {"a": 200.0, "b": 50.0}, "llm-analysis": {"d": 75.0}}   # GenZ has no row c
    out = {(c.kind, c.peer): c for c in peers.compare(rows, preds)}
    assert set(out) == {("decode_single", "GenZ"), ("long_context", "llm-analysis")}
    g = out[("decode_single", "GenZ")]
    assert g.rows == 2
    # GenZ errors 100% and 50%: median 75, p90 = 50 + 0.9 x 50 = 95
    assert (g.peer_median, g.peer_p90) == pytest.approx((75.0, 95.0))
    # the estimator on the same two rows only (not row c): in-sample 10% and 5%; out of sample 20% and 30%
    assert (g.est_median, g.est_p90) == pytest.approx((7.5, 9.5))
    assert (g.loo_median, g.loo_p90) == pytest.approx((25.0, 29.0))
    assert out[("long_context", "llm-analysis")].peer_median == pytest.approx(50.0)


def test_table_prints_every_comparison_with_its_row_count():
    c = peers.Comparison("decode_single", "GenZ", 2, 75.0, 95.0, 7.5, 9.5, 25.0, 29.0)
    text = peers.table([c])
    assert "| single-request decode (tokens/s) | GenZ | 2 | 75.0% / 95.0% | 25.0% / 29.0% | 7.5% / 9.5% |" in text


# --- kinds of figure -------------------------------------------------------------------------

@pytest.mark.parametrize("target, series, users, batch, kind", [
    ("decode", "measurements.csv", 1, 1, "decode_single"),
    ("prefill", "measurements.csv", 1, 1, "prefill_single"),
    ("ttft", "measurements.csv", 1, 1, "prefill_single"),
    ("ttft", "NVIDIA B200 (HGX) MiniMax-M2.5", 1, 1, "prefill_single"),
    ("ttft", "NVIDIA B200 (HGX) MiniMax-M2.5", 8, 1, "ttft_load"),
    ("decode", "NVIDIA B200 (HGX) MiniMax-M2.5", 8, 1, "tpot_load"),
    ("throughput", "NVIDIA B200 (HGX) MiniMax-M2.5", 1, 1, "throughput"),
    ("decode", "NVIDIA DGX Spark (GB10) gemma-3-4b", 1, 16, "tpot_load"),
    ("prefill", "NVIDIA DGX Spark (GB10) gemma-3-4b", 1, 16, "ttft_load"),
    ("decode", "long_context.csv", 1, 1, "long_context"),
    ("prefill", "long_context.csv", 1, 1, "long_context"),
])
def test_figure_kind(target, series, users, batch, kind):
    assert peers.figure_kind(target, series, users, batch) == kind


# --- aiconfigurator --------------------------------------------------------------------------

def test_aiconfigurator_single_request_on_tensorrt_llm_is_its_static_mode():
    calls, notes = peers.aiconfigurator_calls(spec())
    assert len(calls) == 1 and calls[0]["weight"] == 1.0
    c = calls[0]["call"]
    assert (c["system"], c["backend"], c["mode"], c["batch_size"], c["isl"], c["tp"]) == ("h100_sxm", "trtllm", "static", 1, 2048, 1)
    local = c["model"]["local"]
    assert local["quant"]["quantization"]["quant_algo"] == "FP8"          # the row's FP8 checkpoint
    assert local["published_shapes"]["ffn"] == 11008 and local["published_shapes"]["kv_heads"] == 32
    assert any("kernel database 1.3.0rc20" in n and "TensorRT-LLM 0.9.0" in n for n in notes)


def test_aiconfigurator_fp16_row_has_no_quantisation_file():
    calls, _ = peers.aiconfigurator_calls(spec(device="NVIDIA A100 (memory size/form factor not stated)", precision="FP16",
                                               hw=H100))
    c = calls[0]["call"]
    assert c["system"] == "a100_sxm" and "quant" not in c["model"]["local"]


def test_aiconfigurator_serving_row_is_its_agg_mode_at_the_row_concurrency():
    s = spec(kind="tpot_load", target="decode", device="NVIDIA B200 (HGX)", model="Nemotron-Nano-30B",
             engine="vLLM 0.16.0", prompt=2048, output=512, users=64, devices=2, cold_share=1.0, hw=B200)
    c = peers.aiconfigurator_calls(s)[0][0]["call"]
    assert (c["system"], c["backend"], c["mode"], c["batch_size"], c["tp"], c["moe_tp"]) == ("b200_sxm", "vllm", "agg", 64, 2, 2)
    assert c["osl"] == 512 and c["prefix"] == 0


def test_aiconfigurator_mixes_cold_and_prefix_cached_requests_like_the_estimator():
    s = spec(kind="ttft_load", target="ttft", device="NVIDIA B200 (HGX)", model="MiniMax-M2.5", engine="vLLM 0.12.0",
             prompt=2048, output=512, users=8, devices=4, cold_share=0.25, hw=B200)
    calls, _ = peers.aiconfigurator_calls(s)
    assert [c["weight"] for c in calls] == [0.25, 0.75]
    # 2,048 tokens in 16-token blocks: the cached request recomputes the last block (16 tokens)
    assert calls[1]["call"]["prefix"] == 2048 - 16 and calls[1]["call"]["isl"] == 2048
    assert calls[0]["call"]["model"] == {"hf": "MiniMaxAI/MiniMax-M2.5"}
    # decode reads the same KV cache either way: one call
    d = peers.aiconfigurator_calls(spec(**{**s.__dict__, "target": "decode", "kind": "tpot_load"}))[0]
    assert len(d) == 1 and d[0]["weight"] == 1.0


@pytest.mark.parametrize("kw, why", [
    (dict(engine="llama.cpp", device="NVIDIA GeForce RTX 3090 24GB", model="Llama 3 8B", precision="F16"), "llama.cpp"),
    (dict(model="Mistral 7B"), "MistralForCausalLM"),
    (dict(model="GPT-J 6B"), "GPTJForCausalLM"),
    (dict(engine="vLLM 0.16.0", device="NVIDIA DGX Spark (GB10)", model="MiniMax-M2.5"), "no aiconfigurator system"),
])
def test_aiconfigurator_skips_what_it_cannot_express(kw, why):
    with pytest.raises(Skip, match=why):
        peers.aiconfigurator_calls(spec(**kw))


# --- GenZ ------------------------------------------------------------------------------------

def test_genz_decode_uses_its_own_model_and_system_configs_with_one_beam():
    s = spec(kind="decode_single", target="decode", measured=47.4, device="NVIDIA GeForce RTX 3090 24GB",
             model="Llama 3 8B", precision="F16", engine="llama.cpp", prompt=1, output=512, hw=RTX3090)
    calls, notes = peers.genz_calls(s)
    c = calls[0]["call"]
    assert (c["op"], c["model"], c["bits"], c["batch"], c["input_tokens"], c["output_tokens"], c["tp"]) == \
        ("decode", "meta-llama/Llama-3.1-8B", "bf16", 1, 1, 512, 1)
    assert c["system"] == {"Flops": 71, "Memory_size": 24, "Memory_BW": 936, "ICN": 150, "real_values": True}
    assert any("GenZ ships no NVIDIA GeForce RTX 3090" in n for n in notes)
    h = peers.genz_calls(spec(device="NVIDIA H100 SXM 80GB"))[0][0]["call"]
    assert h["system"] == "H100_GPU" and h["bits"] == "fp8" and h["op"] == "prefill" and h["model"] == "meta-llama/Llama-2-7B"


def test_genz_builds_a_config_from_the_published_shapes_where_it_ships_none():
    s = spec(kind="throughput", target="throughput", device="NVIDIA B200 (HGX)", model="MiniMax-M2.5",
             engine="vLLM 0.12.0", prompt=2048, output=512, users=16, devices=4, hw=B200)
    c = peers.genz_calls(s)[0][0]["call"]
    cfg = c["model"]["config"]
    assert (cfg["num_experts"], cfg["expert_top_k"], cfg["intermediate_size"], cfg["num_ffi"], cfg["head_dim"]) == (256, 8, 1536, 2, 128)
    assert (c["op"], c["batch"], c["tp"]) == ("static_batch", 16, 4)
    assert c["system"]["Memory_BW"] == 8000 and c["system"]["ICN"] == 900


def test_genz_prefill_over_a_filled_kv_cache_is_its_chunked_model():
    s = spec(kind="long_context", target="prefill", device="NVIDIA H100 SXM 80GB", model="Llama 2 7B",
             precision="F16", prompt=2048, context=16384)
    c = peers.genz_calls(s)[0][0]["call"]
    assert c["op"] == "chunked" and c["prefill_kv_sizes"] == [[16384, 2048]]


@pytest.mark.parametrize("kw, why", [
    (dict(precision="Q4_K_M", engine="llama.cpp"), "weight-only"),
    (dict(precision="MXFP4", engine="llama.cpp"), "weight-only"),
    (dict(model="Nemotron-Nano-30B"), "Mamba"),
    (dict(model="Nemotron-Super-49B"), "layer shape"),
    (dict(kind="ttft_load", users=8), "queue"),
])
def test_genz_skips_what_it_cannot_express(kw, why):
    with pytest.raises(Skip, match=why):
        peers.genz_calls(spec(**kw))


# --- llm-analysis ----------------------------------------------------------------------------

def _llma_layer_params(cfg: dict) -> int:
    """llm-analysis's own per-layer count (analysis.get_num_params_per_layer_attn + _mlp), rewritten."""
    h, H, kv, ffn = cfg["hidden_dim"], cfg["n_head"], cfg["num_key_value_heads"], cfg["ffn_embed_dim"]
    return 2 * h * h + 2 * h * (h * kv // H) + 2 * h * ffn


def test_llm_analysis_config_keeps_a_gated_models_weights():
    model, notes = peers.llma_model("Llama 3 8B")
    cfg = model["config"]
    # Llama 3 8B per layer, from its config.json: q, o 4096 x 4096; k, v 4096 x 1024; gate, up, down 4096 x 14336
    assert _llma_layer_params(cfg) == 2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336
    assert cfg["ffn_embed_dim"] == 21504 and cfg["num_layers"] == 32 and cfg["vocab_size"] == 128256
    assert peers.llma_model("Llama 2 7B") == ("NousResearch_Llama-2-7b-hf", [])   # its own shipped config
    moe, moe_notes = peers.llma_model("gpt-oss-20b")
    assert (moe["config"]["moe_num_experts"], moe["config"]["moe_top_k"]) == (32, 4)
    assert any("head size" in n for n in moe_notes)


def test_llm_analysis_calls():
    s = spec(kind="decode_single", target="decode", device="NVIDIA A100 80GB SXM4", model="Llama 3 70B",
             precision="Q4_K_M", engine="llama.cpp", prompt=1, output=512, hw=H100)
    c = peers.llm_analysis_calls(s)[0][0]["call"]
    assert (c["op"], c["gpu"], c["dtype"], c["batch"], c["seq_len"], c["tokens"]) == \
        ("decode", "a100-sxm-80gb", "w4a16e16", 1, 1, 512)
    lc = spec(kind="long_context", target="decode", device="NVIDIA DGX Spark (GB10)", model="gpt-oss-20b",
              precision="MXFP4", engine="llama.cpp", prompt=1, output=32, context=8192,
              hw={"mem_bandwidth_gbs": 273, "peak_tflops": 62.5, "memory_gb": 128, "kind": "integrated_gpu"})
    c = peers.llm_analysis_calls(lc)[0][0]["call"]
    assert c["seq_len"] == 8193 and c["tokens"] == 32
    assert c["gpu"]["config"]["hbm_bandwidth_in_GB_per_sec"] == 273 and c["gpu"]["config"]["peak_fp16_TFLOPS"] == 62.5
    t = peers.llm_analysis_calls(spec(kind="throughput", target="throughput", users=16, output=512))[0][0]["call"]
    assert (t["op"], t["batch"], t["seq_len"], t["tokens"], t["dtype"]) == ("throughput", 16, 2048, 512, "w8a8e16")


@pytest.mark.parametrize("kw, why", [
    (dict(kind="long_context", target="prefill", context=4096), "already in the KV cache"),
    (dict(kind="ttft_load", users=8), "queue"),
    (dict(model="Nemotron-Super-49B"), "layer shape"),
])
def test_llm_analysis_skips_what_it_cannot_express(kw, why):
    with pytest.raises(Skip, match=why):
        peers.llm_analysis_calls(spec(**kw))


# --- from a peer's outputs to the row's figure ----------------------------------------------

def test_value_from_raw():
    dec = spec(target="decode", output=512)
    assert peers.value_from_raw(dec, "aiconfigurator", {"tpot_ms": 10.0}) == pytest.approx(100.0)
    assert peers.value_from_raw(spec(), "aiconfigurator", {"ttft_ms": 30.0}) == pytest.approx(0.03)
    assert peers.value_from_raw(dec, "GenZ", {"latency_ms": 4.0}) == pytest.approx(250.0)
    pre = spec(target="prefill", prompt=512, batch=4)
    assert peers.value_from_raw(pre, "GenZ", {"latency_ms": 100.0}) == pytest.approx(4 * 512 / 0.1)
    assert peers.value_from_raw(pre, "llm-analysis", {"prefill_latency": 0.1}) == pytest.approx(4 * 512 / 0.1)
    # long-context prefill: one prompt over a filled cache
    lc = spec(target="prefill", prompt=2048, context=8192)
    assert peers.value_from_raw(lc, "GenZ", {"latency_ms": 500.0}) == pytest.approx(4096.0)
    # a static batch of 8 requests, 2,048 in and 100 out: 800 tokens over 1 s of prefill + 100 x 10 ms of decode
    thr = spec(target="throughput", users=8, output=100)
    assert peers.value_from_raw(thr, "GenZ", {"prefill_ms": 1000.0, "decode_ms": 10.0}) == pytest.approx(400.0)
    assert peers.value_from_raw(dec, "llm-analysis", {"decode_latency": 0.02}) == pytest.approx(50.0)


def test_combine_mixes_like_calibrate_predict():
    assert peers.combine(spec(target="ttft"), [(0.25, 2.0), (0.75, 1.0)]) == pytest.approx(1.25)
    # throughput: time per token averaged, 0.5/100 + 0.5/300 = 1/150
    assert peers.combine(spec(target="throughput"), [(0.5, 100.0), (0.5, 300.0)]) == pytest.approx(150.0)


# --- the real rows, the environment and the install ------------------------------------------

CAL = ROOT.parent / "shared" / "calibration"


@pytest.mark.skipif(not (CAL / "measurements.csv").exists(), reason="../shared/calibration not present")
def test_every_calibration_row_has_a_kind_and_both_estimator_predictions():
    specs = peers.load_specs()
    assert len(specs) > 300
    assert {s.kind for s in specs} == set(peers.KIND_NAMES)
    assert all(math.isfinite(s.estimator) and s.estimator > 0 for s in specs)
    assert all(math.isfinite(s.estimator_loo) for s in specs)       # matched in calibration_report.json
    assert {s.engine for s in specs} >= {"llama.cpp", "TensorRT-LLM 0.9.0", "vLLM 0.16.0", "vLLM 0.12.0"}
    # every row is either mapped or skipped with a reason, for every peer
    for s in specs:
        for peer, mapper in peers.MAPPERS.items():
            try:
                calls, _ = mapper(s)
            except Skip as e:
                assert str(e)
                continue
            assert calls and abs(sum(c["weight"] for c in calls) - 1.0) < 1e-9


def test_peers_stay_out_of_the_app_and_its_test_command():
    pinned = (ROOT / "requirements-peers.txt").read_text()
    for name in ("aiconfigurator==", "aiconfigurator-core==", "genz-llm==", "llm-analysis=="):
        assert name in pinned
    for req in ("requirements.txt", "requirements-dev.txt"):
        text = (ROOT / req).read_text().lower()
        assert not any(p in text for p in ("aiconfigurator", "genz", "llm-analysis")), req
    ignored = subprocess.run(["git", "check-ignore", "-q", "benchmarks/.peers-venv/bin/python"], cwd=ROOT)
    assert ignored.returncode == 0, ".gitignore must cover the peers' environment"


def test_predict_all_runs_each_adapter_as_a_subprocess_and_counts_skips_and_refusals(tmp_path, monkeypatch):
    """The JSON contract with an adapter, with a stand-in adapter run by this interpreter: jobs in on
    stdin, raw outputs (or a refusal) out on stdout; a refusal becomes a counted skip."""
    import sys
    fake = tmp_path / "fake_genz.py"
    fake.write_text(
        "import json, sys\n"
        "jobs = json.load(sys.stdin)['jobs']\n"
        "res = {j['id']: ({'error': 'ValueError: All params would not fit on chip'} if j['call']['input_tokens'] == 999"
        " else {'latency_ms': 4.0}) for j in jobs}\n"
        "json.dump({'tool': 'GenZ', 'version': '9.9', 'results': res}, sys.stdout)\n")
    monkeypatch.setitem(peers.ADAPTERS, "GenZ", fake)
    base = dict(kind="decode_single", target="decode", measured=200.0, device="NVIDIA GeForce RTX 3090 24GB",
                model="Llama 3 8B", precision="F16", engine="llama.cpp", output=512, hw=RTX3090)
    rows = [spec(id="ok", prompt=1, **base), spec(id="big", prompt=999, **base),
            spec(id="q4", prompt=1, **{**base, "precision": "Q4_K_M"})]
    preds, skips, approx, versions = peers.predict_all(rows, Path(sys.executable), peers=("GenZ",), say=lambda *a: None)
    assert preds["GenZ"] == {"ok": pytest.approx(250.0)}            # 1000 / 4 ms
    assert versions["GenZ"] == "9.9"
    reasons = skips["GenZ"]["decode_single"]
    assert reasons["GenZ raised: ValueError: All params would not fit on chip"] == 1
    assert sum(n for r, n in reasons.items() if r.startswith("weight-only")) == 1
    assert any("RTX 3090" in note for note in approx["GenZ"])
