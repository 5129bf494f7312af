"""The room's charts (latency/charts/room.py), read off the figures: counts and shares where the
page says, the right option marked only at the reveal, the first vote beside the second."""

from latency.charts import room
from latency.charts.style import INK


def test_the_spread_has_no_right_answer_and_the_reveal_marks_it():
    spread = room.vote_bars(["a", "b", "c"], [1, 2, 0])
    assert len(spread.data) == 1 and set(spread.data[0].marker.color) == {room.OTHER_COLOR}
    assert list(spread.data[0].x) == [0, 2, 1] and list(spread.data[0].text) == ["0", "2", "1"]  # first option on top
    # each count with its counter, an empty bar's too (presenter re-check 2026-12-05: "0명" asked for; a bare "0"
    # had read as an axis label, so the page always passes a counter), and one for exactly one
    assert list(room.vote_bars(["a", "b"], [1, 0], count_text="{n}명").data[0].text) == ["0명", "1명"]
    assert list(room.vote_bars(["a", "b", "c"], [1, 0, 2], count_text="{n} votes", count_one="{n} vote").data[0].text) \
        == ["2 votes", "0 votes", "1 vote"]
    reveal = room.vote_bars(["a", "b", "c"], [1, 2, 0], right=1)
    assert list(reveal.data[0].marker.color) == [room.OTHER_COLOR, room.RIGHT_COLOR, room.OTHER_COLOR]


def test_two_votes_stand_side_by_side_with_a_legend():
    fig = room.vote_bars(["<b>a</b>", "b"], [2, 0], [1, 1], names=("First", "After"), font_size=24)
    second, first = fig.data
    assert (first.name, list(first.x), first.marker.color) == ("First", [0, 2], room.OTHER_COLOR)
    assert (second.name, list(second.x), second.marker.color) == ("After", [1, 1], room.SECOND_COLOR)
    assert fig.layout.showlegend and fig.layout.legend.font.size == 24 and fig.layout.font.color == INK
    # each count in its vote's colour, so an empty bar's count reads as that vote's (presenter trial 2026-12-06)
    assert (first.textfont.color, second.textfont.color) == (room.OTHER_COLOR, room.SECOND_COLOR)
    assert "<b>" not in "".join(first.y)  # a label's tags are shown as text, never read by plotly


def test_the_results_put_one_line_of_text_at_each_question():
    fig = room.results_bars(["1. x", "2. y"], [0.5, None], [0.8, None], ["50% → 80%", "–"], names=("F", "S"))
    first, second, text = fig.data
    assert list(first.x) == [0, 50] and list(second.x) == [0, 80]
    # rows bottom-up: "2. y" was never voted twice, so its one bar takes the row's height; "1. x" has two
    assert list(first.width) == [0.7, 0.38] and list(second.width) == [0, 0.38]
    assert list(text.text) == [" –", " 50% → 80%"] and list(text.x) == [0, 80]
