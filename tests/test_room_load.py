"""The room load test, small (issues 25, 30): a real server, a presenter and 3 participants through
peer instruction (vote, spread, second vote, reveal)
speaking Streamlit's websocket protocol (benchmarks/room_load.py); fails on any error or lost
answer, never on timing. The 60-participant run and its figures: docs/deploy.md."""

from __future__ import annotations

import concurrent.futures
import importlib.util
import sys

from tests.conftest import ROOT


def test_every_answer_reaches_the_presenter():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location("benchmarks_room_load", ROOT / "benchmarks" / "room_load.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    # its own thread: the browser tests' Playwright leaves an event loop on this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        result = pool.submit(module.main, ["--participants", "3", "--think", "2", "--baseline-runs", "3",
                                           "--timeout", "60"]).result(timeout=240)
    assert result["error_list"] == [] and result["answers"] == 6 and result["lost"] == 0  # two votes of three
    assert result["follow_p50_s"] == result["follow_p50_s"]  # every move reached the phones (not NaN)
