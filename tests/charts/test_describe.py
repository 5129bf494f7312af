"""Charts' text alternatives (latency/charts/describe.py, issue 23 item 3): hand-built figures with
the sentence a screen reader should get, and every plotly chart of every page with one, in the
page's language."""

from __future__ import annotations

import re

import numpy as np
import plotly.graph_objects as go
import pytest

from latency.charts import tradeoffs as CT
from latency.charts.describe import describe
from latency.language import i18n
from tests.conftest import PAGES, run_page

HANGUL = re.compile(r"[\uac00-\ud7a3]")
EN = i18n.strings("common", "en")


def test_bars_say_each_category_and_value():
    fig = go.Figure(go.Bar(x=[0.031, 2.3], y=["Network", "Decode"], orientation="h", name="Stages"))
    fig.update_xaxes(ticksuffix=" s")
    assert describe(fig, EN) == "Stages: Network 0.031 s, Decode 2.3 s."


def test_many_bars_are_summed_up_by_their_extremes():
    fig = go.Figure(go.Bar(x=[f"d{i}" for i in range(20)], y=list(range(1, 21))))
    assert describe(fig, EN) == "lowest d0 1, highest d19 20."


def test_a_line_says_where_it_starts_and_ends():
    fig = go.Figure(go.Scatter(x=[100, 1, 10], y=[9.0, 0.5, 2.0], name="Whole answer", mode="lines"))
    fig.update_layout(xaxis_title="Model size", yaxis_title="Time", xaxis_ticksuffix="B", yaxis_ticksuffix=" s")
    assert describe(fig, EN) == "Whole answer: Time 0.5 s at Model size 1B, 9 s at 100B."


def test_a_single_point_and_helper_traces():
    fig = go.Figure([go.Scatter(x=[8], y=[0.13], name="You are here", mode="markers"),
                     go.Scatter(x=[1, 2], y=[1, 2], mode="text", text=["a", "b"], hoverinfo="skip"),  # a label layer
                     go.Scatter(x=[1, 2], y=[1, 2], name="legend only", showlegend=False)])
    assert describe(fig, EN) == "You are here: 0.13 at 8."


def test_a_budget_map_counts_the_cells_that_meet_it():
    ratio = np.array([[0.5, 2.0, 0.9], [np.nan, 1.0, 3.0]])
    spec = CT.budget_heatmap_spec(ratio, x_labels=["a", "b", "c"], y_labels=["r1", "r2"],
                                  hover=[["", "", ""], ["", "", ""]], marks=[],
                                  names={"x_title": "x", "colorbar": "c", "nofit": "n"})
    assert describe(spec, EN) == "3 of 5 cells meet the target time (✓); the others miss it (✕)."


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("page", list(PAGES))
def test_every_plotly_chart_has_a_text_alternative_in_the_page_language(page, lang):
    at = run_page(page, lang)
    assert not at.exception
    for el in at.get("plotly_chart"):
        alt = el.proto.alt
        assert alt and re.search(r"\d", alt), f"{page}: a chart without key numbers in its alt: {alt!r}"
        if lang == "en":
            assert not HANGUL.search(alt), alt


# --- the chart's numbers as tables (latency.charts.describe.tables, issue 23 item 3), hand-built figures
from latency.charts.describe import tables  # noqa: E402


def test_a_bar_chart_is_a_table_of_its_bars_with_the_axis_titles_and_units():
    fig = go.Figure(go.Bar(x=[0.031, 2.3], y=["Network", "Decode"], orientation="h", name="Stages"))
    fig.update_xaxes(title_text="Time", ticksuffix=" s")
    fig.update_yaxes(title_text="Stage")
    assert tables(fig, EN) == [(["Stage", "Time (s)"], [["Network", "0.031"], ["Decode", "2.3"]])]


def test_bars_that_start_at_a_base_are_read_where_they_end():
    """A tornado's bars run from the current time (base 1.0 s) to the time with one input moved: the table
    and the text alternative give that time (0.6 s, 1.5 s), not the bar's length (-0.4, +0.5) under the
    axis title "First token time" (PM trial 2026-12-05: negative times)."""
    fig = CT.tornado_figure([CT.Bar(name="Hardware", low_s=0.6, high_s=1.5, low_text="a", high_text="b")], base_s=1.0,
                            names=dict(x_title="First token time (s)", low="Down", high="Up", base="Now 1 s"),
                            fmt_s=lambda v: f"{v:g} s")
    cells = [row[-1] for _, rows in tables(fig, EN) for row in rows]
    assert cells == ["0.6", "1.5"], tables(fig, EN)
    alt = describe(fig, EN)
    assert "0.6" in alt and "1.5" in alt and "-0.4" not in alt


def test_two_series_get_a_series_column_and_helper_traces_are_left_out():
    fig = go.Figure([go.Scatter(x=[1, 2], y=[10, 12345.6], name="A"), go.Scatter(x=[1], y=[3], name="B"),
                     go.Scatter(x=[1], y=[99], mode="text", showlegend=False, text=["label"])])
    fig.update_xaxes(title_text="Users")
    fig.update_yaxes(title_text="Speed")
    assert tables(fig, EN) == [(["Series", "Users", "Speed"], [["A", "1", "10"], ["A", "2", "12,346"], ["B", "1", "3"]])]


def test_a_hidden_name_axis_takes_each_points_name_from_its_hover_data():
    fig = go.Figure(go.Bar(y=[0.2, 1.2], x=[1.5, 3.0], orientation="h", name="Total",
                           customdata=[["GPU A", "1.5 s"], ["GPU B", "3 s"]]))
    fig.update_yaxes(showticklabels=False)
    fig.update_xaxes(title_text="Time (s)")
    assert tables(fig, EN) == [(["Name", "Time (s)"], [["GPU A", "1.5"], ["GPU B", "3"]])]


def test_a_budget_map_lists_each_cell_with_its_mark_and_hover_text():
    fig = go.Figure(go.Heatmap(z=[[-1, 1]], x=["1B", "70B"], y=["H100"], text=[["✓", "✕"]], texttemplate="%{text}",
                               customdata=[["0.5 s<br>fits", "2 s"]], name="Latency ÷ budget"))
    fig.update_xaxes(title_text="Model size")
    assert tables(fig, EN) == [(["Model size", "Name", "Value"], [["1B", "H100", "✓ 0.5 s · fits"], ["70B", "H100", "✕ 2 s"]])]


def test_two_panels_give_two_tables():
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=2, cols=1, shared_xaxes=True)
    fig.add_trace(go.Scatter(x=[1, 2], y=[5, 6], name="Speed"), row=1, col=1)
    fig.add_trace(go.Scatter(x=[1, 2], y=[0.1, 0.2], name="Wait"), row=2, col=1)
    fig.update_xaxes(title_text="Users", row=2, col=1)
    fig.update_yaxes(title_text="tokens/s", row=1, col=1)
    fig.update_yaxes(title_text="s", row=2, col=1)
    assert tables(fig, EN) == [(["Users", "tokens/s"], [["1", "5"], ["2", "6"]]),
                               (["Users", "s"], [["1", "0.1"], ["2", "0.2"]])]
