"""Shared by the page benchmarks: the plain baseline page and the app run headless in AppTest.

Benchmark scaffolding only (never imported by the app or the tests).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

BASELINE = (ROOT / "benchmarks" / "baseline_page.py").read_text(encoding="utf-8")
"""The plain page every speed goal is a ratio against (benchmarks/baseline_page.py)."""


def warm_server() -> None:
    """AppTest starts every run in Streamlit's legacy pages-folder mode (a live server leaves it
    after its first st.navigation); keep it out, as a warm server does."""
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.testing.v1 import app_test

    class WarmPagesManager(PagesManager):
        pass

    app_test.PagesManager = WarmPagesManager
    PagesManager.uses_pages_directory = False


def baseline() -> AppTest:
    at = AppTest.from_string(BASELINE, default_timeout=60)
    at.run()
    return at


def open_page(page_file: str, lang: str = "ko") -> AppTest:
    """The whole app (app.py, navigation, the page) on `page_file`, as a user opening it."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page(page_file)
    at.run()
    return at


def timed_run(at: AppTest) -> float:
    t = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - t
    if at.exception:
        raise SystemExit(f"the script raised: {at.exception[0].value}")
    return elapsed


def medians_ms(times: dict[str, list[float]]) -> dict[str, float]:
    return {k: statistics.median(v) * 1000 for k, v in times.items()}
