"""Device labels on the trade-off page's cost chart (latency.charts.tradeoffs.place_labels).

Expected spots are worked out by hand in the pixel frame the docstring of place_labels describes:
x = (log10(cost) - x0) / (x1 - x0) * width, y = (y1 - log10(latency)) / (y1 - y0) * height.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs

from latency.charts import tradeoffs as C

ONE = ((200.0, 200.0),)      # one plot size, 200 x 200 px, axes 0..2 decades: 100 px a decade
RANGES = dict(x_range=(0.0, 2.0), y_range=(0.0, 2.0), sizes_px=ONE)


def boxes(cost, lat, labels, where, sizes=ONE, ranges=RANGES):
    """Each placed label's box (x0, y0, x1, y1) per plot size, computed here from the spot."""
    out = []
    for w_px, h_px in sizes:
        row = {}
        for i, spot in enumerate(where):
            if spot is None:
                continue
            x = (math.log10(cost[i]) - ranges["x_range"][0]) / (ranges["x_range"][1] - ranges["x_range"][0]) * w_px
            y = (ranges["y_range"][1] - math.log10(lat[i])) / (ranges["y_range"][1] - ranges["y_range"][0]) * h_px
            w, h = C.text_width_px(labels[i]) + 4, C.LABEL_FONT_PX * 1.4
            row[i] = (x + spot.dx - w / 2, y + spot.dy - h / 2, x + spot.dx + w / 2, y + spot.dy + h / 2, x, y)
        out.append((w_px, h_px, row))
    return out


def test_a_lone_point_is_labelled_right_above_its_marker():
    # cost 10 -> x = 100 px, latency 10 -> y = 100 px; "AB" is 2 x 0.66 em x 10 px + 4 = 17.2 px wide
    where = C.place_labels(np.array([10.0]), np.array([10.0]), ["AB"], [], 0.0, **RANGES)
    assert where[0] == C.LabelSpot(0.0, -(C.MARKER_R_PX + C.LABEL_FONT_PX * 1.4 / 2 + 1), False)


def test_a_label_that_would_sit_on_the_budget_line_goes_below_instead():
    # the point at y = 100 px, the budget line at latency 10**1.08 -> y = 92 px: above is taken by the line
    where = C.place_labels(np.array([10.0]), np.array([10.0]), ["AB"], [], 10 ** 1.08, **RANGES)
    assert where[0].dy > 0 and not where[0].leader


def test_a_point_hemmed_in_on_every_side_gets_no_label_but_the_current_point_always_does():
    # A centre point with neighbours 13 px away in all eight directions (not on top of it: > 12 px):
    # every spot next to it, or further out along a line, meets a neighbour's marker.
    d = 10 ** (13 / 100)
    cost = np.array([10.0] + [10.0 * d ** dx for dx, dy in C._DIRECTIONS])
    lat = np.array([10.0] + [10.0 * d ** -dy for dx, dy in C._DIRECTIONS])
    labels = ["AB"] * len(cost)
    assert C.place_labels(cost, lat, labels, [], 0.0, **RANGES)[0] is None
    assert C.place_labels(cost, lat, labels, [], 0.0, first=0, **RANGES)[0] is not None


def test_two_devices_at_the_same_point_are_both_named():
    where = C.place_labels(np.array([10.0, 10.0]), np.array([10.0, 10.0]), ["AB", "CD"], [], 0.0, **RANGES)
    assert where[0] is not None and where[1] is not None and where[0] != where[1]


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.tuples(hs.floats(0.05, 50.0), hs.floats(0.2, 30.0), hs.text("AB가 ", min_size=1, max_size=14)),
                min_size=1, max_size=16),
       hs.floats(0.3, 20.0))
def test_placed_labels_stay_in_the_plot_clear_of_each_other_and_of_other_markers(points, budget):
    cost = np.array([p[0] for p in points])
    lat = np.array([p[1] for p in points])
    labels = [p[2] for p in points]
    ranges = dict(x_range=(math.log10(cost.min()) - 0.2, math.log10(cost.max()) + 0.2),
                  y_range=(math.log10(min(lat.min(), budget)) - 0.2, math.log10(max(lat.max(), budget)) + 0.2))
    where = C.place_labels(cost, lat, labels, [], budget, sizes_px=C.PLOT_SIZES_PX, **ranges)
    for w_px, h_px, row in boxes(cost, lat, labels, where, C.PLOT_SIZES_PX, ranges):
        for i, (x0, y0, x1, y1, x, y) in row.items():
            assert 0 <= x0 and x1 <= w_px and 0 <= y0 and y1 <= h_px
            for j, (a0, b0, a1, b1, _, _) in row.items():
                assert j == i or not (x0 < a1 and a0 < x1 and y0 < b1 and b0 < y1), (labels[i], labels[j])
            for j, (cx, cy) in enumerate(zip(*boxes_centres(cost, lat, w_px, h_px, ranges))):
                if j == i or math.dist((cx, cy), (x, y)) <= 2 * C.MARKER_R_PX:
                    continue
                r = C.MARKER_R_PX
                assert not (x0 < cx + r and cx - r < x1 and y0 < cy + r and cy - r < y1), (labels[i], j)


def boxes_centres(cost, lat, w_px, h_px, ranges):
    xs = (np.log10(cost) - ranges["x_range"][0]) / (ranges["x_range"][1] - ranges["x_range"][0]) * w_px
    ys = (ranges["y_range"][1] - np.log10(lat)) / (ranges["y_range"][1] - ranges["y_range"][0]) * h_px
    return xs, ys
