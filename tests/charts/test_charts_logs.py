"""Figure builders of the logs and measure pages (latency.charts.logs): hand-checked ECDF points,
percentile marks, the estimate band, the budget line, and the text passed in."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from latency.charts import logs as C

NAMES = dict(x_title="X", y_title="Y", requests="R", estimate="E", estimate_range="ER", budget="B", within_budget="W",
             percentile="p{p}")


def test_ecdf_points_by_hand():
    x, y = C.ecdf_points([3.0, 1.0, math.nan, 2.0, 2.0])
    assert x.tolist() == [1.0, 2.0, 2.0, 3.0]
    assert y.tolist() == [0.25, 0.5, 0.75, 1.0]


def test_ecdf_figure_marks_percentiles_estimate_and_budget():
    values = np.arange(1, 101, dtype=float)
    pct = {50: 50.5, 95: 95.05}
    fig = C.ecdf_figure(values, percentiles=pct, names=NAMES, estimate=(40.0, 30.0, 60.0), budget=90.0)
    by_name = {t.name: t for t in fig.data if t.name}
    assert list(by_name["R"].x) == values.tolist() and by_name["R"].y[-1] == 1.0
    assert list(by_name["E"].x) == [40.0, 40.0]
    assert list(by_name["B"].x) == [90.0, 90.0]
    assert [(list(by_name[p].x), list(by_name[p].y)) for p in ("p50", "p95")] == [([50.5], [0.5]), ([95.05], [0.95])]
    assert by_name["p50"].marker.symbol != by_name["p95"].marker.symbol  # told apart by shape in the legend
    # no text drawn on the plot: a label beside its point sat on the curve (issue 23 item 6)
    assert not [t for t in fig.data if "text" in (t.mode or "")] and not fig.layout.annotations
    bands = [(s.x0, s.x1) for s in fig.layout.shapes]
    assert (30.0, 60.0) in bands and (0, 90.0) in bands
    # each band named in the legend in its own fill (logs trial: "what is the grey area?")
    fills = {s.fillcolor for s in fig.layout.shapes}
    assert {by_name["ER"].marker.color, by_name["W"].marker.color} == fills and by_name["W"].showlegend is not False
    assert fig.layout.xaxis.title.text == "X" and fig.layout.yaxis.title.text == "Y"


def test_ecdf_figure_without_estimate_or_budget_has_only_the_requests():
    fig = C.ecdf_figure([1.0, 2.0], percentiles={50: math.nan}, names=NAMES)
    assert [t.name for t in fig.data if t.name] == ["R"] and not fig.layout.shapes


def test_over_time_figure_draws_each_request_and_the_lines():
    times = pd.to_datetime(["2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z"])
    fig = C.over_time_figure(times, [1.0, 2.0], names=NAMES, estimate=1.5, budget=3.0)
    assert list(fig.data[0].y) == [1.0, 2.0]
    assert sorted(s.y0 for s in fig.layout.shapes) == [1.5, 3.0]
    assert {t.name for t in fig.data} == {"R", "E", "B"}


def test_compare_figure_labels_bars_with_the_formatter():
    fig = C.compare_figure(["TTFT", "TPOT"], [3231.0, 1046.0], [230.0, 107.0], names=dict(measured="M", predicted="P",
                           y_title="ms"), fmt=lambda v: f"{v:,.0f} ms")
    assert list(fig.data[0].text) == ["3,231 ms", "1,046 ms"] and list(fig.data[1].text) == ["230 ms", "107 ms"]
    assert fig.data[0].name == "M" and fig.data[1].name == "P"


def test_over_time_dates_are_numeric_in_every_language():
    times = pd.to_datetime(["2026-01-01T00:00:00Z"])
    fig = C.over_time_figure(times, [1.0], names=NAMES)
    assert fig.layout.xaxis.tickformat == "%H:%M\n%Y-%m-%d"  # no English month names on a Korean screen


def _rgb(color: str) -> tuple[int, int, int]:
    r, g, b = (int(v) for v in color[color.index("(") + 1:].split(",")[:3])
    return r, g, b


def test_only_the_estimates_band_is_green():
    """Newcomer try (stop 43): the caption says 'the green band is its range', but the budget zone was a second
    green band and the estimate's could not be told apart. The estimate's band is the one green fill (green the
    largest channel); the budget's zone is not green."""
    fig = C.ecdf_figure(np.arange(1, 101, dtype=float), percentiles={50: 50.5}, names=NAMES,
                        estimate=(40.0, 30.0, 60.0), budget=90.0)
    fills = {(s.x0, s.x1): _rgb(s.fillcolor) for s in fig.layout.shapes}
    green = lambda rgb: rgb[1] > max(rgb[0], rgb[2]) + 20  # noqa: E731
    assert green(fills[(30.0, 60.0)])
    assert not green(fills[(0, 90.0)])


def test_the_last_rise_to_every_request_is_inside_the_plot():
    """A log whose slowest 5% share one value (a 15 s timeout) rises from 95% to 100% at that value; at the axis'
    very end the rise was drawn on the edge and cut (newcomer trial 2026-12-05). The axis runs past it, and past
    the estimate's band and the target when they lie further right."""
    values = [1.0 + 0.1 * i for i in range(95)] + [15.0] * 5
    fig = C.ecdf_figure(values, percentiles={99: 15.0}, names=NAMES)
    low, high = fig.layout.xaxis.range
    assert low == 0 and high > 15.0
    wider = C.ecdf_figure(values, percentiles={99: 15.0}, names=NAMES, estimate=(12.0, 9.0, 30.0), budget=20.0)
    assert wider.layout.xaxis.range[1] > 30.0
