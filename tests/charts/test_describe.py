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
    assert describe(spec, EN) == "3 of 5 cells meet the time budget (✓); the others miss it (✕)."


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
