"""Estimator figure builders: valid plotly, the shared look, only the text they are given, honest marks."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import plotly.graph_objects as go
import pytest

from latency.charts import estimator as charts
from tests.helpers import plotly_array
from latency.charts.style import FONT_FAMILY, HIGHLIGHT, TRACE_TYPES, base_layout

KO = dict(x_title="모델 크기", y_title="시간 (초)", ttft="첫 토큰까지", total="답변 완료까지", current="현재 설정",
          no_fit="싣지 못함", size_hover="크기", network="그중 네트워크", places="지점", estimate="추정",
          stated="용어 설명이 말하는 범위")
EN = dict(x_title="Model size", y_title="Time (s)", ttft="To first token", total="Full answer", current="Current setting",
          no_fit="Does not fit", size_hover="Size", network="Of which network", places="Places", estimate="Estimate",
          stated="Range the entry states")


def fmt_ko(x: float) -> str:
    return f"{x:.2g}초"


def fmt_en(x: float) -> str:
    return f"{x:.2g} s"


def validated(fig: go.Figure) -> dict:
    """The figure re-read through plotly's validators (the builders skip them for speed)."""
    return go.Figure(fig.to_dict()).to_dict()


def visible_text(fig: go.Figure) -> list[str]:
    """Every string a reader can see: axis titles, tick labels, trace names/text/hover, annotations."""
    d = fig.to_dict()
    out = []
    lay = d["layout"]
    for ax in ("xaxis", "yaxis"):
        a = lay.get(ax, {})
        out.append(a.get("title", {}).get("text", ""))
        out += [str(t) for t in a.get("ticktext", [])]
    out += [a.get("text", "") for a in lay.get("annotations", [])]
    for tr in d["data"]:
        out.append(tr.get("name", ""))
        for key in ("text", "hovertemplate", "customdata"):
            v = tr.get(key)
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, (list, tuple, np.ndarray)):
                out += [json.dumps(x, ensure_ascii=False) if not isinstance(x, str) else x for x in np.asarray(v, dtype=object).ravel().tolist()]
    cleaned = []
    for text in out:
        text = re.sub(r"%\{[^}]*\}", "", text or "")
        text = re.sub(r"</?(extra|br|b)>", " ", text)
        cleaned.append(text)
    return cleaned


def latin_words(texts: list[str]) -> set[str]:
    allowed = {"km", "B", "s"}  # units
    return {w for t in texts for w in re.findall(r"[A-Za-z]+", t)} - allowed


def devices_fig(names=KO, fmt=fmt_ko):
    rows = [charts.DeviceRow("H100", 0.05, 2.0, True, current=True), charts.DeviceRow("L4", 0.2, 9.0, True),
            charts.DeviceRow("B200", 0.04, 1.2, True), charts.DeviceRow("스마트폰", 0, 0, False)]
    return charts.devices_figure(rows, names=names, fmt_s=fmt)


def distance_fig(names=KO, fmt=fmt_ko):
    d = np.linspace(0, 20000, 41)
    net = 0.01 + d * 1.7e-5
    stops = [charts.Stop("같은 건물", 0, 0.03), charts.Stop("같은 도시", 22, 0.031), charts.Stop("도쿄", 1149, 0.05),
             charts.Stop("유럽", 8857, 0.18), charts.Stop("미국 서부", 9029, 0.182)]
    return charts.distance_figure(d, net + 0.02, net, stops=stops, current_km=1149, current_ttft=0.05, names=names, fmt_s=fmt)


def presets_fig(names=KO, fmt=fmt_ko):
    rows = [charts.PresetRow("대형 · 첫 토큰", 0.2, 0.15, 0.25, 2, 60, "diamond"),
            charts.PresetRow("경량 · 답변 완료", 4.0, 3.4, 4.8, 0, 1),
            charts.PresetRow("시험 채점 · 답변 완료", 7.0, 6.0, 9.0, None, None)]
    return charts.presets_figure(rows, names=names, fmt_s=fmt)


# The plotly builders; the live charts (size, timeline) are Vega-Lite: tests/charts/test_charts_live.py.
BUILDERS = {"devices": devices_fig, "distance": distance_fig, "presets": presets_fig}


@pytest.mark.parametrize("name", list(BUILDERS))
def test_every_figure_passes_plotly_validation_and_uses_the_shared_font(name):
    fig = BUILDERS[name]()
    d = validated(fig)
    assert d["layout"]["font"]["family"] == FONT_FAMILY
    assert d["layout"]["hoverlabel"]["font"]["family"] == FONT_FAMILY
    assert d["layout"]["template"]["layout"], "base_layout's template must come along"
    json.dumps(fig.to_dict(), default=str)  # serialisable as st.plotly_chart sends it


@pytest.mark.parametrize("name", list(BUILDERS))
def test_korean_figures_carry_no_english(name):
    assert latin_words(visible_text(BUILDERS[name]())) <= {"H", "L"}, "only given text (device names H100, L4) may appear"


def test_english_figures_carry_no_korean():
    figs = [devices_fig(EN, fmt_en), distance_fig(EN, fmt_en), presets_fig(EN, fmt_en)]
    for fig in figs:
        for name, tr in zip(range(99), fig.to_dict()["data"]):
            assert not re.search("[\uac00-\ud7a3]", tr.get("name") or ""), tr.get("name")
        assert not re.search("[\uac00-\ud7a3]", fig.layout.xaxis.title.text)


def test_building_figures_never_changes_the_shared_look():
    before = json.dumps(charts._style(), sort_keys=True, default=str)
    for build in BUILDERS.values():
        build()
    assert json.dumps(charts._style(), sort_keys=True, default=str) == before
    fresh = base_layout(go.Figure()).layout.to_plotly_json()
    fresh.pop("template")  # every figure takes the default template as it is built
    assert json.dumps(fresh, sort_keys=True, default=str) == before
    for build in BUILDERS.values():
        assert build().to_dict()["layout"]["template"] == base_layout(go.Figure()).to_dict()["layout"]["template"]


def test_devices_fastest_first_non_fitting_last_without_a_bar():
    d = devices_fig().to_dict()
    bar = next(t for t in d["data"] if t["type"] == "bar")
    assert bar["x"] == [1.2, 2.0, 9.0]
    assert bar["marker"]["color"][1] == HIGHLIGHT  # H100, the current device
    labels = next(t for t in d["data"] if t.get("mode") == "text")
    assert labels["text"][0] == "B200" and labels["text"][1].startswith("▶ H100")
    assert labels["text"][-1] == f"스마트폰  ✕ {KO['no_fit']}"
    assert len(labels["text"]) == 4 and len(bar["x"]) == 3


def test_distance_labels_merge_neighbours_and_stay_on_the_chart():
    d = distance_fig().to_dict()
    texts = [a["text"] for a in d["layout"]["annotations"]]
    assert texts == ["같은 건물 · 같은 도시", "도쿄", "유럽 · 미국 서부"]
    xs = [a["x"] for a in d["layout"]["annotations"]]
    lo, hi = d["layout"]["xaxis"]["range"]
    assert all(lo <= x <= hi for x in xs)


def test_presets_chart_has_no_range_bar_where_the_entry_states_none():
    d = presets_fig().to_dict()
    bars = d["data"][0]
    assert "시험 채점 · 답변 완료" not in [y for y in bars["y"] if y]
    lo = 10 ** d["layout"]["xaxis"]["range"][0]
    assert bars["x"][3] == pytest.approx(lo), "a stated 0 s ('under 1 s') starts at the left edge"
    est = d["data"][1]
    assert est["marker"]["symbol"] == ["diamond", "circle", "circle"]


@pytest.mark.parametrize("lo,hi", [(-2.0, 0.5), (-1.3, 3.4), (0.1, 0.4)])
def test_log_ticks_stay_in_range_and_read_as_numbers(lo, hi):
    ticks = charts._log_ticks([lo, hi])
    assert ticks["tickvals"], "at least one tick"
    assert all(lo <= math.log10(v) <= hi for v in ticks["tickvals"])
    assert all(re.fullmatch(r"[0-9.,]+", t) for t in ticks["ticktext"])


def test_every_trace_type_drawn_has_its_template_defaults():
    """The app's template keeps plotly_white's defaults only for TRACE_TYPES (chart_style.lean_white):
    a chart module that starts drawing another trace type must add it there, or it loses the look."""
    from pathlib import Path

    import plotly.io as pio

    used = set()
    for path in Path(charts.__file__).parents[1].rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= {m.lower() for m in re.findall(r"\bgo\.(Bar|Scatter\w*|Heatmap|Histogram\w*|Box|Violin|Pie|Contour\w*|Table|Indicator|Funnel\w*|Waterfall|Sunburst|Treemap)\(", text)}
        used |= set(re.findall(r'dict\(\s*type="(\w+)",\s*(?:x|y|z|values|labels|base)=', text))
    assert used and used <= set(TRACE_TYPES), used - set(TRACE_TYPES)
    template = pio.templates[pio.templates.default]
    assert {t for t in TRACE_TYPES if getattr(template.data, t)} == set(TRACE_TYPES)
    white = pio.templates["plotly_white"]
    for t in TRACE_TYPES:
        assert getattr(template.data, t) == getattr(white.data, t)
    lean, full = template.layout.to_plotly_json(), white.layout.to_plotly_json()
    assert {k: v for k, v in full.items() if k in lean} == lean and set(full) - set(lean) <= {"geo", "mapbox", "map", "polar", "scene", "smith", "ternary"}


def _plain(node):
    """A figure's JSON with every array as a plain list (plotly writes numpy arrays either as
    lists or as base64 typed arrays, depending on the path): for comparing two paths."""
    if isinstance(node, dict):
        if "bdata" in node and "dtype" in node:
            return _plain(plotly_array(node).tolist())
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return None if isinstance(node, float) and math.isnan(node) else node


def test_a_spec_shown_as_it_is_gives_the_json_of_its_plotly_figure():
    """ui/charts.show_spec hands st.plotly_chart the spec itself (ui.charts.Prebuilt): the JSON
    Streamlit writes from it must be what it writes for the go.Figure of the same spec (template
    included), and the spec must pass plotly's own validation. The spec: a budget map with cells
    that do not fit (NaN) and marks, as the trade-off page draws it on every input change."""
    import plotly.io as pio
    import plotly.tools

    from latency.charts import tradeoffs as CT
    from ui.charts import Prebuilt

    ratio = np.array([[0.5, np.nan, 2.0], [1.2, 8.0, np.nan]])
    spec = CT.budget_heatmap_spec(ratio, x_labels=["8B", "70B", "405B"], y_labels=["H100", "L4"],
                                  hover=[["a", "b", "c"], ["d", "e", "f"]],
                                  marks=[CT.Mark(0, 1, "circle-open", "현재", HIGHLIGHT)],
                                  names=dict(x_title="모델 크기", colorbar="지연 ÷ 예산", nofit="싣지 못함"))
    # the same two calls st.plotly_chart makes (streamlit/elements/plotly_chart.py)
    shown = json.loads(pio.to_json(plotly.tools.return_figure_from_figure_or_data(Prebuilt(spec), validate_figure=True),
                                   validate=False))
    figure = charts.figure_of(spec)
    assert _plain(shown) == _plain(json.loads(pio.to_json(figure.to_dict(), validate=False)))
    go.Figure(figure.to_dict())  # plotly's validators accept it (raises otherwise)


@pytest.mark.parametrize("label", ["Automatic grading of online exams · to whole answer", "온라인 시험 자동 채점 · 전체 답변까지",
                                   "Large LLM · to first token", "대형 LLM · 첫 토큰까지", "Customer support chatbot · to first token"])
def test_preset_labels_wrap_to_a_phones_width_and_keep_every_word(label):
    """The browser layout check at 390 px found 'Automatic grading of online exams · to whole answer' outside its
    chart once the pills took the entry's titles. Tick labels wrap at spaces to lines of LABEL_LINE_CHARS (a word
    longer than that keeps its own line), the measure after ' · ' on its own line; no word is lost or changed."""
    from latency.charts.estimator import LABEL_LINE_CHARS, wrap_label

    for split in (False, True):
        shown = wrap_label(label, split=split)
        lines = shown.split("<br>")
        assert all(len(line) <= LABEL_LINE_CHARS or " " not in line for line in lines), lines
        assert " ".join(lines).replace(" · ", " ").split() == label.replace(" · ", " ").split()
        if split or len(label) > LABEL_LINE_CHARS:
            assert lines[-1] == label.split(" · ")[-1]


def test_the_presets_chart_shows_wrapped_ticks_for_its_own_categories():
    rows = [charts.PresetRow("Automatic grading of online exams · to whole answer", 1.0, 0.5, 2.0, None, None),
            charts.PresetRow("Large LLM · to first token", 0.3, 0.2, 0.4, 0.0, 1.0)]
    fig = charts.presets_figure(rows, names={"x_title": "s", "estimate": "e", "stated": "r"}, fmt_s=lambda v: f"{v}")
    y = fig.layout.yaxis
    assert list(y.tickvals) == [r.label for r in rows]  # hover and data keep the whole name
    assert all("<br>" in text for text in y.ticktext)
