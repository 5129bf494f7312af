"""The results chart on the projector (presenter trial, round 3): each row's grey track is its 0-100%
scale; no row line runs on past it to the chart's edge."""

from latency.charts.room import results_bars


def test_no_row_lines_run_past_the_tracks():
    fig = results_bars(["1. a", "2. b"], [0.5, None], [None, None], ["50% right", "nobody answered"], names=("1", "2"))
    assert fig.layout.yaxis.showgrid is False
    assert fig.layout.xaxis.visible is False  # no column lines either
    tracks = [sh for sh in fig.layout.shapes if sh.x1 == 100]
    assert len(tracks) == 1  # one 0-100% track per answered row, by hand: the first row only


def test_a_row_nobody_answered_has_no_track_and_its_words_stand_at_zero():
    """Presenter trial 2026-12-04: "nobody answered" rows were drawn as a full-width grey bar (their
    track with nothing on it). Row 2 here (the bottom one in plotly's order: row index 0) has no
    answers: no shape covers it, and its text starts at 0."""
    fig = results_bars(["1. a", "2. b"], [0.5, None], [None, None], ["50% right", "nobody answered"], names=("1", "2"))
    assert [(sh.y0, sh.y1) for sh in fig.layout.shapes] == [(1 - 0.4, 1 + 0.4)]  # row 1 (top) only
    words = next(t for t in fig.data if t.type == "scatter")
    assert list(words.x) == [0, 50] and words.text[0].strip() == "nobody answered"
