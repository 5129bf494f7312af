"""Speed of the trade-off page: a rerun after a slider move, against a plain page, side by side.

    /work/main/.venv/bin/python benchmarks/bench_tradeoffs_page.py [--rounds 15]

Both scripts run headless in AppTest in this one process, interleaved round by round (so load from
other processes hits both alike); the script prints medians and their ratio. Goal (issue 8 item 8):
a trade-off rerun at most 2x the plain page. Nothing here asserts it; the numbers are printed.

- baseline: a plain page whose slider feeds four plotly charts of 200 points each;
- page: the whole app (app.py + navigation + pages/tradeoffs.py) on the trade-off page, the
  model-size slider moved to the next step before each run; the first tab (two budget maps) is
  open, as when the page opens. Only the open tab computes and draws.
- tab: the same move with the Concurrency tab open, for reference.

Each scenario is new to the page's caches (the slider walks the size steps), so the numbers include
the computation, not only a cache hit. Imports nothing from tests/.
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


def warm_server() -> None:
    """AppTest starts every run in Streamlit's legacy pages-folder mode (a live server leaves it
    after its first st.navigation); keep it out, as a warm server does. Benchmark scaffolding only."""
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.testing.v1 import app_test

    class WarmPagesManager(PagesManager):
        pass

    app_test.PagesManager = WarmPagesManager
    PagesManager.uses_pages_directory = False


def open_page(lang: str = "ko") -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("pages/tradeoffs.py")
    at.run()
    return at


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
    warm_server()

    from latency import i18n, sizing
    from latency.catalog import load_catalog

    steps = sizing.size_steps(load_catalog())
    start = steps.index(8.03)
    sizes = [steps[(start + i) % len(steps)] for i in range(2 * args.rounds + 2)]

    base = AppTest.from_string(BASELINE, default_timeout=60)
    base.run()
    page = open_page()
    tab = open_page()
    tab.session_state["tr_tab"] = i18n.strings("tradeoffs", "ko")("tab_concurrency")
    tab.run()

    times: dict[str, list[float]] = {"baseline": [], "page": [], "tab": []}
    for i in range(args.rounds):
        base.slider[0].set_value(10 + (i % 80))
        times["baseline"].append(timed_run(base))
        page.select_slider(key="model_size_b").set_value(sizes[i + 1])
        times["page"].append(timed_run(page))
        tab.select_slider(key="model_size_b").set_value(sizes[args.rounds + i + 1])
        times["tab"].append(timed_run(tab))

    med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    print(f"rounds: {args.rounds} (medians; interleaved)")
    print(f"baseline (4 plotly charts x 200 points):      {med['baseline']:7.1f} ms")
    print(f"trade-off page, map tab open, size moved:     {med['page']:7.1f} ms")
    print(f"  same move with the Concurrency tab open:    {med['tab']:7.1f} ms (for reference)")
    print(f"ratio page / baseline: {med['page'] / med['baseline']:.2f}  (goal: <= 2)")
    print(f"ratio tab / baseline:  {med['tab'] / med['baseline']:.2f}")


if __name__ == "__main__":
    main()
