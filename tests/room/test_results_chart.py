"""The results chart on the projector (presenter trial, round 3): each row's grey track is its 0-100%
scale; no row line runs on past it to the chart's edge."""

from latency.charts.room import results_bars


def test_no_row_lines_run_past_the_tracks():
    fig = results_bars(["1. a", "2. b"], [0.5, None], [None, None], ["50% right", "nobody answered"], names=("1", "2"))
    assert fig.layout.yaxis.showgrid is False
    assert fig.layout.xaxis.visible is False  # no column lines either
    tracks = [sh for sh in fig.layout.shapes if sh.x1 == 100]
    assert len(tracks) == 2  # one 0-100% track per row, by hand: two rows
