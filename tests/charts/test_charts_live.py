"""The estimator's live charts (latency/charts/live.py): valid Vega-Lite, a spec that does not move
with the numbers, the rows a reader's eye needs, only the text they are given, budget labels that
never collide. Expected values are hand-computable from the inputs."""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache

import jsonschema
import numpy as np
import pytest

from latency.charts import estimator as charts
from latency.charts.live import SIZE_PLOT_H, size_chart, timeline_chart

KO = dict(x_title="모델 크기", y_title="시간 (초)", ttft="첫 토큰까지", total="답변 완료까지", current="현재 설정",
          no_fit="싣지 못함", size_hover="크기")
EN = dict(x_title="Model size", y_title="Time (s)", ttft="To first token", total="Full answer", current="Current setting",
          no_fit="Does not fit", size_hover="Size")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
SIZES = np.geomspace(0.5, 2000, 40)


def fmt_ko(x: float) -> str:
    return f"{x:.2g}초"


def fmt_en(x: float) -> str:
    return f"{x:.2g} s"


def size(names=KO, fmt=fmt_ko, fits=None, slope=1e-2, current=8.0, budgets=None, steps=()):
    ttft = 0.02 + SIZES * 1e-3
    total = ttft + SIZES * slope
    fits = np.ones_like(SIZES, dtype=bool) if fits is None else fits
    budgets = budgets or [charts.Budget("자동완성 0.2초", 0.2), charts.Budget("챗봇 1초", 1.0, True), charts.Budget("자막 1초", 1.0)]
    return size_chart(SIZES, ttft, total, fits, current_size=current, current_ttft=0.02 + current * 1e-3,
                      current_total=0.02 + current * (1e-3 + slope), ttft_range=(0.02, 0.04), total_range=(0.09, 0.14),
                      budgets=budgets, steps=steps, names=names, fmt_s=fmt)


STAGES = [("network", "네트워크", 0.03), ("queue", "대기열", 0.0), ("prefill", "프리필", 0.05), ("decode", "디코드", 2.0)]


def timeline(stages=STAGES, ttft=0.08, label="첫 토큰", fmt=fmt_ko, axis="시간 (초)"):
    return timeline_chart(stages, ttft_s=ttft, ttft_label=label, axis_title=axis, fmt_s=fmt)


def of(rows, kind):
    return [r for r in rows if r["kind"] == kind]


@lru_cache(maxsize=1)
def vega_lite_schema() -> dict:
    """Vega-Lite's JSON schema, as altair (a Streamlit dependency) ships it."""
    import altair

    return altair.vegalite.v6.schema.core.load_schema()


BUILDS = {"size": size, "timeline": timeline}


@pytest.mark.parametrize("name", list(BUILDS))
def test_every_live_chart_is_valid_vega_lite(name):
    spec, rows = BUILDS[name]()
    chart = json.loads(json.dumps(dict(spec, data={"values": rows})))
    errors = list(jsonschema.Draft7Validator(vega_lite_schema()).iter_errors(chart))
    assert not errors, [e.message[:160] for e in errors[:3]]


def test_the_schema_check_catches_a_misspelt_property():
    spec, rows = timeline()
    spec = json.loads(json.dumps(spec))
    spec["layer"][1]["mark"]["strokeWidht"] = 2
    assert list(jsonschema.Draft7Validator(vega_lite_schema()).iter_errors(dict(spec, data={"values": rows})))


@pytest.mark.parametrize("name", list(BUILDS))
def test_the_spec_does_not_move_with_the_numbers(name):
    """The browser keeps a Vega-Lite chart whose spec is unchanged and only swaps its rows: that is
    why these two charts are Vega-Lite (issue 8). Other numbers, same spec."""
    if name == "size":
        a, b = size(current=8.0), size(current=405.0, slope=5e-2, fits=np.arange(40) < 25, steps=(30.0, 70.0))
    else:
        a, b = timeline(), timeline([(k, n, t * 7) for k, n, t in STAGES], ttft=1.9)
    assert json.dumps(a[0], sort_keys=True) == json.dumps(b[0], sort_keys=True)
    assert a[1] != b[1]


def visible_text(spec, rows) -> list[str]:
    """Every string a reader can see: titles, legend names, label, note and hover texts."""
    out = []
    for layer in spec["layer"]:
        for ch in layer["encoding"].values():
            if isinstance(ch, dict):
                out += [str(ch.get("axis", {}).get("title", "")), str(ch.get("title") or "")]
                out += [str(v) for v in (ch.get("scale") or {}).get("domain", []) if isinstance(v, str)]
    out += [str(r[k]) for r in rows for k in ("text", "tip", "series", "stage") if isinstance(r.get(k), str)]
    return out


def test_english_charts_carry_no_korean():
    stages = [("network", "Network", 0.03), ("decode", "Decode", 2.0)]
    for spec, rows in (size(EN, fmt_en, budgets=[charts.Budget("Chatbot 1 s", 1.0, True)]),
                       timeline(stages, label="First token", fmt=fmt_en, axis="Time (s)")):
        text = visible_text(spec, rows)
        assert not [t for t in text if HANGUL.search(t)]


def test_korean_size_chart_carries_only_the_names_it_is_given():
    spec, rows = size()
    words = {w for t in visible_text(spec, rows) for w in re.findall(r"[A-Za-z]+", t)}
    assert words <= {"B"}, words


def test_timeline_stages_are_contiguous_and_the_first_token_is_marked():
    spec, rows = timeline()
    stages = of(rows, "stage")
    assert [r["stage"] for r in stages] == ["네트워크", "대기열", "프리필", "디코드"]
    assert [r["x"] for r in stages[1:]] == pytest.approx([r["x2"] for r in stages[:-1]])
    assert stages[-1]["x2"] == pytest.approx(2.08)
    # a stage over 12% of the whole names itself inside its bar; the thin ones do not
    assert [r["text"] for r in stages] == ["", "", "", "디코드 2초"]
    assert of(rows, "ttft")[0]["x"] == pytest.approx(0.08)
    label = of(rows, "ttft_left")  # early in the request: the label reads to the right of the line
    assert len(label) == 1 and label[0]["text"] == "첫 토큰 0.08초"
    assert max(r["x"] for r in of(rows, "pad")) == pytest.approx(2.08 * 1.02)
    late = timeline(ttft=2.0)[1]
    assert of(late, "ttft_right") and not of(late, "ttft_left")


def test_size_chart_greys_the_sizes_that_do_not_fit_and_marks_the_chosen_budget():
    fits = np.arange(40) < 30
    _, rows = size(fits=fits)
    curve = of(rows, "curve")
    assert {r["x"] for r in curve} == set(SIZES[:30].tolist()), "the coloured curves stop where the model no longer fits"
    grey = of(rows, "nofit")
    assert {r["x"] for r in grey} == set(SIZES[29:].tolist()), "grey from the last size that fits on, so the two join"
    assert len({r["line"] for r in grey}) == 2, "one grey line per curve"
    assert [r["y"] for r in of(rows, "budget_sel")] == [1.0]
    assert sorted(r["y"] for r in of(rows, "budget")) == [0.2, 1.0]
    labels = sorted(r["text"] for r in of(rows, "budget_value"))
    assert labels == ["0.2초", "1초"], "one value per level, as the page formats it"
    current = of(rows, "current")
    assert [r["x"] for r in current] == [8.0, 8.0]
    assert sorted((r["y2"], r["y3"]) for r in current) == [(0.02, 0.04), (0.09, 0.14)]


def test_size_chart_all_fitting_has_no_grey_line_and_marks_each_device_step():
    _, rows = size(steps=(30.0, 70.0))
    assert not of(rows, "nofit")
    assert [r["x"] for r in of(rows, "step")] == [30.0, 70.0]


def test_size_chart_range_shows_every_point():
    """The axis range comes from the two `pad` rows (scales have nice: false): every curve point,
    range end and budget lies inside it."""
    _, rows = size(fits=np.arange(40) < 30, slope=5e-2)
    (x0, y0), (x1, y1) = sorted((r["x"], r["y"]) for r in of(rows, "pad"))
    for r in rows:
        if r["kind"] in ("curve", "nofit", "current"):
            assert x0 < r["x"] < x1 and y0 < r["y"] < y1
        if r["kind"] in ("budget", "budget_sel"):
            assert y0 < r["y"] < y1


def value_boxes(rows) -> list[tuple[float, float, float]]:
    """(line px, label bottom px, label top px) of each budget value, in px above the chart's bottom: a
    value's text is centred on its row's y on a log axis of SIZE_PLOT_H px over the pad rows' range."""
    lo, hi = sorted(math.log10(r["y"]) for r in of(rows, "pad"))
    per_decade = SIZE_PLOT_H / (hi - lo)
    out = []
    for r in of(rows, "budget_value"):
        value = float(r["text"].rstrip("초").rstrip(" s"))
        mid = (math.log10(r["y"]) - lo) * per_decade
        out.append(((math.log10(value) - lo) * per_decade, mid - 7, mid + 7))
    return sorted(out)


@pytest.mark.parametrize("current_size", [0.5, 8.0, 70.0, 405.0, 2000.0])
def test_budget_values_never_overlap_and_stay_beside_their_line(current_size):
    """The issue's case: 2 s and two 1 s budgets, curves reaching 100 s, so 1 s and 2 s lie a few px
    apart; 0.5 s and 0.2 s as well. One value per level; no two boxes of 14 px overlap; each stays
    within two lines of its own line."""
    budgets = [charts.Budget("고객사 SLA", 2.0), charts.Budget("화상 회의 자동 자막", 1.0, True),
               charts.Budget("상담 챗봇", 1.0), charts.Budget("GitHub Copilot", 0.5), charts.Budget("코드 자동완성", 0.2)]
    _, rows = size(slope=0.05, current=current_size, budgets=budgets)
    boxes = value_boxes(rows)
    assert len(boxes) == 4, "one value per budget level"
    for (_, b1, t1), (_, b2, t2) in zip(boxes, boxes[1:]):
        assert t1 <= b2 + 1e-6, boxes
    for line, bottom, top in boxes:
        assert bottom - 28 <= line <= top, (line, bottom, top)


def test_budget_values_stand_in_the_margin_beside_the_plot():
    """Written inside the plot, the names lay on curves, step lines and other budgets' lines (issue 23
    item 6): the values stand right of the plot's edge, in a margin the spec keeps for them."""
    spec, rows = size()
    (layer,) = [lay for lay in spec["layer"] if lay["transform"][0]["filter"].endswith("'budget_value'")]
    assert layer["encoding"]["x"] == {"value": "width"} and layer["mark"]["align"] == "left" and layer["mark"]["dx"] > 0
    assert spec["padding"]["right"] >= 40
    assert not [lay for lay in spec["layer"] if lay["mark"]["type"] == "text" and lay["encoding"]["x"].get("value") == 0]


def test_size_table_lists_the_nearest_sweep_point_to_each_round_size_and_the_current_one():
    """By hand: sizes 1, 2, 4, ..., 1024 B; picks 3 and 70 land on 4 and 64 (nearest in log), 5000 lies
    outside; the current 10B goes between them; a size that does not fit says so."""
    from latency.charts.live import size_table

    sizes = [2.0 ** k for k in range(11)]
    ttft = [0.1 * (k + 1) for k in range(11)]
    total = [1.0 * (k + 1) for k in range(11)]
    fits = [k < 6 for k in range(11)]
    cols, rows = size_table(sizes, ttft, total, fits, current_size=10.0, current_ttft=0.25, current_total=2.5,
                            names=EN, fmt_s=lambda x: f"{x:.2f} s", picks=(3, 70, 5000))
    assert cols == [EN["x_title"], EN["ttft"], EN["total"]]
    assert rows == [["4B", "0.30 s", "3.00 s"], ["10B (Current setting)", "0.25 s", "2.50 s"],
                    ["64B (Does not fit)", "0.70 s", "7.00 s"]]
