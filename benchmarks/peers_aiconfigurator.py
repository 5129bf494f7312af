"""aiconfigurator adapter for benchmarks/peers.py: runs in the peers' environment (benchmarks/.peers-venv).

stdin: {"jobs": [{"id", "call": {"model", "system", "backend", "mode", "isl", "osl", "batch_size", "tp",
"moe_tp", "prefix"}}]} (benchmarks/peers.py aiconfigurator_calls). stdout: {"tool", "version", "results":
{id: {"ttft_ms", "tpot_ms", "tokens_per_s", "db_version", "notes"} | {"error"}}}.
aiconfigurator.cli.api.cli_estimate (the programmatic `aiconfigurator cli estimate`) at its defaults:
database mode SILICON (measured kernel tables), the `current` kernel-database version of the system and
backend, quantisation inferred from the model's config and quantisation file as the tool does.
A model given as {"local": ...} gets a config.json (and hf_quant_config.json) written to a temporary
directory: its shipped config (aiconfigurator_core/model_configs) or the published shapes sent along.
"""

import contextlib
import io
import json
import logging
import os
import shutil
import sys
import tempfile
from importlib.metadata import version


def _published_config(p):
    return {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": p["hidden"],
            "intermediate_size": p["ffn"], "num_hidden_layers": p["layers"], "num_attention_heads": p["heads"],
            "num_key_value_heads": p["kv_heads"], "head_dim": p["head_dim"], "vocab_size": p["vocab"],
            "max_position_embeddings": p["max_len"], "rms_norm_eps": 1e-05, "rope_theta": 10000.0,
            "tie_word_embeddings": False, "hidden_act": "silu", "torch_dtype": "float16"}


def _model_path(how, tmp, cache):
    if "hf" in how:
        return how["hf"]
    local = how["local"]
    key = json.dumps(local, sort_keys=True)
    if key in cache:
        return cache[key]
    path = os.path.join(tmp, f"m{len(cache)}")
    os.makedirs(path)
    if "base" in local:
        from aiconfigurator_core.sdk.utils import _get_model_config_path
        src = _get_model_config_path() / (local["base"].replace("/", "--") + "_config.json")
        shutil.copyfile(src, os.path.join(path, "config.json"))
    else:
        with open(os.path.join(path, "config.json"), "w") as f:
            json.dump(_published_config(local["published_shapes"]), f)
    if "quant" in local:
        with open(os.path.join(path, "hf_quant_config.json"), "w") as f:
            json.dump(local["quant"], f)
    cache[key] = path
    return path


def _run(call, tmp, cache):
    from aiconfigurator.cli.api import cli_estimate
    kw = dict(mode=call["mode"], backend_name=call["backend"], isl=call["isl"], osl=call["osl"],
              batch_size=call["batch_size"], tp_size=call["tp"], prefix=call.get("prefix", 0))
    if call.get("moe_tp"):
        kw.update(moe_tp_size=call["moe_tp"], moe_ep_size=1)
    r = cli_estimate(_model_path(call["model"], tmp, cache), call["system"], **kw)
    notes = []
    if r.kv_cache_warning:
        notes.append("aiconfigurator warned: requested batch exceeds its KV-cache capacity (requests would queue)")
    return {"ttft_ms": float(r.ttft), "tpot_ms": float(r.tpot), "tokens_per_s": float(r.tokens_per_second),
            "db_version": str(r.backend_version), "gemm": str(r.raw.get("gemm")), "kvcache": str(r.raw.get("kvcache")),
            "notes": notes}


def main():
    jobs = json.load(sys.stdin)["jobs"]
    logging.disable(logging.CRITICAL)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        cache = {}
        for job in jobs:
            try:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    results[job["id"]] = _run(job["call"], tmp, cache)
            except Exception as e:  # e.g. OOM, unsupported quantisation
                results[job["id"]] = {"error": f"{type(e).__name__}: {e}"}
    json.dump({"tool": "aiconfigurator", "version": version("aiconfigurator"), "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
