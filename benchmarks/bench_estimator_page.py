"""Speed of the estimator page: a rerun after a slider move, against a plain page, side by side.

    /work/venv/bin/python benchmarks/bench_estimator_page.py [--rounds 15]

Both scripts run headless in AppTest in this one process, interleaved round by round (so load
from other processes hits both alike), and the script prints medians and their ratio. The
goal (issue 4) is a ratio of at most 2; nothing here asserts it, the numbers are printed.

- baseline: a plain page whose slider feeds four plotly charts of 200 points each;
- page: pages/estimator.py as a page script (the app shell around it is the same for any page,
  so leaving it out of both makes the comparison stricter, not looser), the model-size slider
  moved to the next step before each run;
- app: the same slider move through the whole app (app.py + navigation + page), for reference.

AppTest always reruns the whole script. In the browser a slider move reruns only the page's
st.fragment, which is less work still; tests/e2e/test_estimator_page.py prints that latency.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

BASELINE = '''
import numpy as np
import plotly.graph_objects as go
import streamlit as st

n = st.slider("n", 1, 100, 10)
x = np.linspace(0.0, 1.0, 200)
for k in range(4):
    st.plotly_chart(go.Figure(go.Scatter(x=x, y=np.sin(x * n + k), mode="lines")), key=f"chart{k}")
'''


def timed_run(at: AppTest) -> float:
    t = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - t
    if at.exception:
        raise SystemExit(f"the script raised: {at.exception[0].value}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()

    from latency import inputs
    from latency.catalog import load_catalog
    from tests.conftest import run_page

    steps = inputs.size_steps(load_catalog())
    start = steps.index(8.03)
    sizes = [steps[(start + i) % len(steps)] for i in range(args.rounds + 1)]

    base = AppTest.from_string(BASELINE, default_timeout=60)
    base.run()
    page = AppTest.from_file(str(ROOT / "pages" / "estimator.py"), default_timeout=60)
    page.run()
    app = run_page("estimator", "ko", timeout=60)

    times: dict[str, list[float]] = {"baseline": [], "page": [], "app": []}
    for i in range(args.rounds):
        base.slider[0].set_value(10 + (i % 80))
        times["baseline"].append(timed_run(base))
        page.select_slider(key="model_size_b").set_value(sizes[i + 1])
        times["page"].append(timed_run(page))
        app.select_slider(key="model_size_b").set_value(sizes[i + 1])
        times["app"].append(timed_run(app))

    med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    print(f"rounds: {args.rounds} (medians; interleaved)")
    print(f"baseline (4 plotly charts x 200 points): {med['baseline']:7.1f} ms")
    print(f"estimator page rerun after a slider move: {med['page']:7.1f} ms")
    print(f"  same move through the whole app:        {med['app']:7.1f} ms (for reference)")
    print(f"ratio page / baseline: {med['page'] / med['baseline']:.2f}  (goal: <= 2)")


if __name__ == "__main__":
    main()
