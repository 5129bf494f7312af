"""The browser layout check's own rule (tests/e2e/layout.py), on hand-made boxes."""

from __future__ import annotations

from tests.e2e.layout import Box, problems


def box(text, x, y, w=100, h=16, kind="html", owner=-1):
    return Box(kind, text, x, y, w, h, owner)


def test_side_by_side_and_stacked_texts_pass():
    assert problems([box("a", 0, 0), box("b", 100, 0), box("c", 0, 16), box("d", 102, 17)]) == []


def test_overlap_beyond_tolerance_fails():
    found = problems([box("고객사 SLA 2초", 0, 0), box("화상 회의 자동 자막 1초", 10, 8)])
    assert len(found) == 1 and "고객사 SLA 2초" in found[0] and "90x8" in found[0]


def test_touching_within_tolerance_passes():
    assert problems([box("a", 0, 0), box("b", 98, 14)]) == []


def test_clipped_metric_and_chart_text_outside_its_chart_fail():
    chart = box("chart 0", 0, 0, 300, 200, kind="chart", owner=0)
    inside = box("legend", 10, 10, 50, 12, kind="svg", owner=0)
    outside = box("axis title", 250, 190, 80, 12, kind="svg", owner=0)
    found = problems([chart, inside, outside, box("121 toke…", 0, 300, kind="clipped")])
    assert found == ["clipped: '121 toke…'", "outside its chart: 'axis title'"]


def test_one_text_drawn_twice_in_place_is_not_a_collision():
    assert problems([box("Roles", 0, 0), box("Roles", 0, 0)]) == []
