"""The load test, small (issue 15, item 2): a real server, 5 sessions speaking Streamlit's websocket
protocol, each opening the estimator (or the trade-off page) and changing inputs; every run is checked against
latency.estimate (see benchmarks/load.py). Fails on any error or wrong number, never on timing.
"""

from __future__ import annotations

import importlib.util
import math
import sys

import pytest

from tests.conftest import ROOT


def load_module():
    spec = importlib.util.spec_from_file_location("benchmarks_load", ROOT / "benchmarks" / "load.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def load():
    return load_module()


@pytest.mark.parametrize("page,sessions", [("estimator", 5), ("tradeoffs", 3)])
def test_sessions_get_the_right_numbers(load, page, sessions):
    # In its own thread: the browser tests' Playwright (sync API) leaves an event loop on this thread,
    # and the load test runs its own with asyncio.run.
    import concurrent.futures

    args = ["--sessions", str(sessions), "--changes", "3", "--think", "0.1", "0.4", "--duration", "30", "--ramp", "1",
            "--page", page]
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        result = pool.submit(load.main, args).result(timeout=240)
    assert result["error_list"] == [] and result["errors"] == 0
    assert result["server_warnings"] == []
    assert result["page_loads"] == sessions
    assert result["checked"] == result["runs"] >= 2 * sessions  # every run checked; most sessions changed something
    assert result["rss_after_mb"] > 0 and result["server_cpu_s"] > 0


@pytest.mark.parametrize("shown,expected,ok", [
    ("0.82초", 0.82, True), ("0.82초", 0.8249, True), ("0.82초", 0.8251, False), ("0.82 s", 0.815, True),
    ("1,240 s", 1240.4, True), ("1,240 s", 1241, False), ("2.4초", 2.3, False), ("1e-05 s", 0.00001, True),
    ("–", math.inf, True), ("0.5초", math.inf, False), ("–", 0.5, False),
])
def test_matches_to_the_digits_shown(load, shown, expected, ok):
    """The comparison the load test uses: a number equals the estimate to the digits it shows."""
    assert load.matches(shown, expected) is ok
