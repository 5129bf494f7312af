"""The lesson's stage bars (latency.charts.lesson.stage_bars): the total written at each bar's end has
room for its own width at every font size (it was cut at the figure's right edge on a phone: "2.4 s"
read "2."), and the legend's height follows its columns."""

import pytest

from latency.charts.lesson import stage_bars
from latency.estimation.estimator import STAGES
from latency.language import formats

SHIFT_PX = 6  # the annotation's xshift: it starts that far right of the bar's end
NAMES = {k: k.title() for k in STAGES}
ROWS = [("Start", {"network": 0.1, "queue": 0.0, "prefill": 0.3, "decode": 2.0}),
        ("Your choice", {"network": 0.1, "queue": 0.2, "prefill": 0.4, "decode": 1.7})]


def bars(lang: str, font_size: int, **kw):
    f = formats.get(lang)
    return stage_bars(ROWS, names=NAMES, x_max=2.4, axis_title="s", fmt_s=f.seconds, font_size=font_size, **kw)


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("font_size", [14, 24])
def test_the_total_at_the_bar_end_has_room_for_its_width(lang, font_size):
    fig = bars(lang, font_size)
    label = max((a.text for a in fig.layout.annotations), key=len)
    assert label == formats.get(lang).seconds(2.4)  # "2.4 s" / "2.4초": the longest total
    # a Hangul syllable is a full em wide; digits, the point and the space at least half of one
    em = sum(1.0 if "\uac00" <= c <= "\ud7a3" else 0.55 for c in label)
    need = em * font_size + SHIFT_PX
    # the bar ends at most at the range's end: the right margin alone holds the label
    assert fig.layout.margin.r >= need, (fig.layout.margin.r, need)
    assert fig.layout.xaxis.range[1] >= 2.4  # no bar is cut by the axis either


def test_two_legend_columns_take_half_the_lines():
    one, two = bars("en", 24), bars("en", 24, legend_columns=2)
    assert all(a.xshift == SHIFT_PX and a.xanchor == "left" for a in one.layout.annotations)
    assert two.layout.legend.orientation == "h" and two.layout.legend.entrywidthmode == "fraction"
    assert one.layout.legend.orientation == "v"
    saved = one.layout.margin.t - two.layout.margin.t
    assert saved == pytest.approx(2 * 24 * 1.45, abs=2)
    assert one.layout.height - two.layout.height == saved
