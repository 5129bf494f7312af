"""GenZ adapter for benchmarks/peers.py: runs in the peers' environment (benchmarks/.peers-venv).

stdin: {"jobs": [{"id", "call": {"op", "model", "system", "bits", "tp", ...}}]} (benchmarks/peers.py
genz_calls). stdout: {"tool", "version", "results": {id: {"latency_ms"} | {"prefill_ms", "decode_ms"}
| {"error"}}}. GenZ at its defaults (system_eff=1); one beam per sequence (Bb=1). Nothing else is
decided here: the mapping and the scoring live in benchmarks/peers.py.
"""

import contextlib
import io
import json
import sys
import warnings
from importlib.metadata import version


def _model(spec):
    if isinstance(spec, str):
        return spec
    from GenZ.Models.default_models import ModelConfig
    return ModelConfig(**spec["config"])


def _run(call):
    from GenZ import chunked_moddeling, decode_moddeling, prefill_moddeling
    common = dict(model=_model(call["model"]), system_name=call["system"], bits=call["bits"],
                  tensor_parallel=call["tp"])
    op = call["op"]
    if op == "decode":
        out = decode_moddeling(batch_size=call["batch"], Bb=1, input_tokens=call["input_tokens"],
                               output_tokens=call["output_tokens"], **common)
        return {"latency_ms": float(out["Latency"])}
    if op == "prefill":
        out = prefill_moddeling(batch_size=call["batch"], input_tokens=call["input_tokens"], **common)
        return {"latency_ms": float(out["Latency"])}
    if op == "chunked":
        out = chunked_moddeling(prefill_kv_sizes=[tuple(x) for x in call["prefill_kv_sizes"]], decode_kv_sizes=[],
                                **common)
        return {"latency_ms": float(out["Latency"])}
    if op == "static_batch":
        pre = prefill_moddeling(batch_size=call["batch"], input_tokens=call["input_tokens"], **common)
        common["model"] = _model(call["model"])
        dec = decode_moddeling(batch_size=call["batch"], Bb=1, input_tokens=call["input_tokens"],
                               output_tokens=call["output_tokens"], **common)
        return {"prefill_ms": float(pre["Latency"]), "decode_ms": float(dec["Latency"])}
    raise ValueError(f"unknown op {op}")


def main():
    jobs = json.load(sys.stdin)["jobs"]
    results = {}
    warnings.filterwarnings("ignore")
    for job in jobs:
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                results[job["id"]] = _run(job["call"])
        except Exception as e:  # a peer's refusal (does not fit, unsupported) is reported per row
            results[job["id"]] = {"error": f"{type(e).__name__}: {e}"}
    json.dump({"tool": "GenZ", "version": version("genz-llm"), "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
