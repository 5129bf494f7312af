"""Small sample request logs in every format the "Your logs" page reads (never imports streamlit).

    python -m latency.log_samples            # (re)writes assets/samples/*

The numbers are synthetic, drawn from a fixed seed (not copied from anywhere): a chat service whose
time to first token is log-normal around 0.35 s with a slow tail, whose time per output token is
about 25 ms, and whose answers are 40 to 400 tokens long, over one afternoon.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import numpy as np

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "assets" / "samples"
SAMPLES = {  # format -> file name
    "csv": "requests.csv",
    "jsonl": "requests.jsonl",
    "vllm": "vllm-bench-result.json",
    "llamacpp": "llamacpp-responses.jsonl",
    "list": "latencies.txt",
}
N = 200
SEED = 11
START_UNIX = 1_767_225_600  # 2026-01-01 00:00:00 UTC


def requests(n: int = N, seed: int = SEED) -> list[dict]:
    """Synthetic requests: ttft_s, tpot_s, output_tokens, itls (seconds), start (Unix seconds)."""
    rng = np.random.default_rng(seed)
    ttft = rng.lognormal(np.log(0.35), 0.35, n)
    slow = rng.random(n) < 0.05  # 5 % of requests queue behind others: a tail
    ttft[slow] += rng.uniform(0.8, 2.5, slow.sum())
    out = rng.integers(40, 400, n)
    tpot = rng.lognormal(np.log(0.025), 0.15, n)
    starts = START_UNIX + np.sort(rng.uniform(0, 4 * 3600, n))
    rows = []
    for i in range(n):
        itls = np.round(rng.normal(tpot[i], tpot[i] * 0.1, out[i] - 1).clip(0.002), 5)
        rows.append(dict(ttft_s=round(float(ttft[i]), 4), itls=itls.tolist(), output_tokens=int(out[i]),
                         input_tokens=int(rng.integers(100, 1200)), start=round(float(starts[i]), 3)))
    for r in rows:
        r["tpot_s"] = round(sum(r["itls"]) / (r["output_tokens"] - 1), 5)
        r["e2e_s"] = round(r["ttft_s"] + sum(r["itls"]), 4)
    return rows


def _iso(unix: float) -> str:
    return np.datetime_as_string(np.datetime64(int(unix * 1000), "ms"), unit="ms") + "Z"


def render(fmt: str, rows: list[dict]) -> str:
    """One format's file text for the given requests."""
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["timestamp", "ttft_ms", "tpot_ms", "e2e_ms", "output_tokens"])
        for r in rows:
            w.writerow([_iso(r["start"]), f"{r['ttft_s'] * 1e3:.1f}", f"{r['tpot_s'] * 1e3:.2f}",
                        f"{r['e2e_s'] * 1e3:.1f}", r["output_tokens"]])
        return buf.getvalue()
    if fmt == "jsonl":
        return "".join(json.dumps(dict(timestamp=_iso(r["start"]), ttft_s=r["ttft_s"], tpot_s=r["tpot_s"],
                                       e2e_s=r["e2e_s"], output_tokens=r["output_tokens"])) + "\n" for r in rows)
    if fmt == "vllm":
        few = rows[:60]  # per-token gaps make this file large: fewer requests
        result = {
            "backend": "vllm", "model_id": "sample", "num_prompts": len(few), "completed": len(few),
            "input_lens": [r["input_tokens"] for r in few], "output_lens": [r["output_tokens"] for r in few],
            "ttfts": [r["ttft_s"] for r in few], "itls": [[round(x, 4) for x in r["itls"]] for r in few],
            "generated_texts": [""] * len(few), "errors": [""] * len(few),
        }
        return json.dumps(result) + "\n"
    if fmt == "llamacpp":
        lines = []
        for r in rows:
            n = r["output_tokens"]
            pred_ms = sum(r["itls"]) * 1e3 + r["tpot_s"] * 1e3  # llama.cpp counts every generated token
            timings = dict(prompt_n=r["input_tokens"], prompt_ms=round(r["ttft_s"] * 1e3, 3),
                           prompt_per_token_ms=round(r["ttft_s"] * 1e3 / r["input_tokens"], 4),
                           prompt_per_second=round(r["input_tokens"] / r["ttft_s"], 2),
                           predicted_n=n, predicted_ms=round(pred_ms, 3),
                           predicted_per_token_ms=round(pred_ms / n, 4), predicted_per_second=round(n / pred_ms * 1e3, 2))
            lines.append(json.dumps(dict(content="…", created=int(r["start"]), tokens_predicted=n,
                                         tokens_evaluated=r["input_tokens"], timings=timings)))
        return "\n".join(lines) + "\n"
    if fmt == "list":
        return "e2e_ms\n" + "".join(f"{r['e2e_s'] * 1e3:.1f}\n" for r in rows)
    raise ValueError(f"unknown format {fmt!r}")


def write_samples(folder: Path = SAMPLES_DIR) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    rows = requests()
    paths = []
    for fmt, name in SAMPLES.items():
        path = folder / name
        path.write_text(render(fmt, rows), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> int:
    for path in write_samples():
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
