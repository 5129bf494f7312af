"""docs/estimator.md's copy of the glossary comparison table ("The glossary's comparison table,
checked") says what the estimator says now: the how-it-works page computes the same set-ups live, and
the copy once kept an earlier round's figures (70B FP16 on four H100s at 62 tok/s against two at 36)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from latency.estimation.catalog import load_catalog
from latency.teaching import content, explain

DOC = Path(__file__).resolve().parents[2] / "docs" / "estimator.md"
ROW = re.compile(r"^\| (large|light|loop) \| (.+?) \| (\w+) \| (.+?) \((\d+)\) \| ([\d.]+) \| (\d+) \| ([\d.]+) \| ([\d.]+)-([\d.]+) \|$")


def _doc_rows():
    section = DOC.read_text(encoding="utf-8").split("## The glossary's comparison table, checked", 1)[1].split("\n## ", 1)[0]
    return [m.groups() for m in map(ROW.match, section.splitlines()) if m]


def test_the_docs_copy_of_the_comparison_table_is_current():
    rows = _doc_rows()
    results = [r for c in explain.check_classes(content.comparison_classes("en"), load_catalog()) for r in c.results]
    assert len(rows) == len(results) == len(explain.SCENARIOS)
    for row, r in zip(rows, results):
        _cls, _model, precision, _hw, devices, ttft, tok_s, total, lo, hi = row
        assert precision == r.scenario.precision and int(devices) == r.devices, row
        assert float(ttft) == pytest.approx(r.ttft_s, abs=0.0051), row
        assert int(tok_s) == pytest.approx(r.decode_tokens_per_s, abs=0.51), row
        assert float(total) == pytest.approx(r.total_s, abs=0.051), row
        assert (float(lo), float(hi)) == pytest.approx(r.total_range, abs=0.051), row
