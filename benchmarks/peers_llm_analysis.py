"""llm-analysis adapter for benchmarks/peers.py: runs in the peers' environment (benchmarks/.peers-venv).

stdin: {"jobs": [{"id", "call": {"op", "model", "gpu", "dtype", "tp", "batch", "seq_len", "tokens"}}]}
(benchmarks/peers.py llm_analysis_calls). stdout: {"tool", "version", "results": {id: {"prefill_latency",
"decode_latency", "total_tokens_per_sec"} | {"error"}}}. LLMAnalysis.inference as llm_analysis.analysis.infer
runs it, at its default efficiencies (flops_efficiency and hbm_memory_efficiency left None: 1).
"""

import json
import logging
import sys
from importlib.metadata import version


def _run(call):
    from llm_analysis.analysis import LLMAnalysis
    from llm_analysis.config import (GPUConfig, ModelConfig, ParallelismConfig, get_dtype_config_by_name,
                                     get_gpu_config_by_name, get_model_config_by_name)
    model = call["model"]
    model = get_model_config_by_name(model) if isinstance(model, str) else ModelConfig(**model["config"])
    gpu = call["gpu"]
    gpu = get_gpu_config_by_name(gpu) if isinstance(gpu, str) else GPUConfig(**gpu["config"])
    analysis = LLMAnalysis(model, gpu, get_dtype_config_by_name(call["dtype"]),
                           ParallelismConfig(tp_size=call["tp"], pp_size=1, dp_size=1))
    out = analysis.inference(batch_size_per_gpu=call["batch"], seq_len=call["seq_len"],
                             num_tokens_to_generate=call["tokens"])
    return {"prefill_latency": float(out["prefill_latency"]), "decode_latency": float(out["decode_latency"]),
            "total_tokens_per_sec": float(out["total_tokens_per_sec"])}


def main():
    jobs = json.load(sys.stdin)["jobs"]
    logging.disable(logging.CRITICAL)
    results = {}
    for job in jobs:
        try:
            results[job["id"]] = _run(job["call"])
        except Exception as e:  # e.g. "model is too large ... to fit in total GPU memory"
            results[job["id"]] = {"error": f"{type(e).__name__}: {e}"}
    json.dump({"tool": "llm-analysis", "version": version("llm-analysis"), "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
