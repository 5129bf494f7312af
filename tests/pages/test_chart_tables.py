"""Issue 23 item 3: every plotly chart's numbers as a small table behind a "Show as a table" control
(ui/charts.py show_table), in both languages. Expected values come from the figure the page drew, read
here out of the AppTest element's own JSON (never through latency.charts.describe, the helper the page
calls): every number a legend-named trace plots, formatted as the page formats numbers
(latency.language.formats.number), is in the table; every budget-map cell's hover text is in it. A
closed control builds no table."""

from __future__ import annotations

import json
import math
import re

import pytest

from latency.language import formats
from latency.language.i18n import strings
from latency.measured import log_samples as S
from tests.conftest import run_page
from tests.helpers import plotly_array

HANGUL = re.compile(r"[\uac00-\ud7a3]")

# (page, tab key and tab name to open or None, chart keys drawn there)
CASES = [
    ("estimator", ("est_tab", "estimator", "tab_devices"), ["est_chart_devices"]),
    ("estimator", ("est_tab", "estimator", "tab_distance"), ["est_chart_distance"]),
    ("estimator", ("est_tab", "estimator", "tab_context"), ["est_chart_context"]),
    ("estimator", ("est_tab", "estimator", "tab_presets_compare"), ["est_chart_presets"]),
    ("tradeoffs", ("tr_tab", "tradeoffs", "tab_map"), ["tr_chart_map_hw", "tr_chart_map_dist"]),
    ("tradeoffs", ("tr_tab", "tradeoffs", "tab_concurrency"), ["tr_chart_concurrency"]),
    ("tradeoffs", ("tr_tab", "tradeoffs", "tab_cost"), ["tr_chart_pareto"]),
    ("tradeoffs", ("tr_tab", "tradeoffs", "tab_memory"), ["tr_chart_memory"]),
    ("tradeoffs", ("tr_tab", "tradeoffs", "tab_tornado"), ["tr_chart_tornado"]),
    ("how-it-works", None, ["how_chart_breakdown", "how_chart_claims"]),
    # the lesson's stage charts write their own table, in the page's rounding (tests/pages/test_lesson_page.py)
    ("logs", "sample", ["lg_time_chart", "lg_ecdf_e2e_s"]),  # the page's own key numbers: no table (test below)
]
LOG_CASE = CASES.pop()


def _open(page: str, where, lang: str, keys: list[str], opened: bool):
    at = run_page(page, lang)
    if where == "sample":
        fmt = next(iter(S.SAMPLES))
        at.selectbox(key="lg_sample_fmt").set_value(fmt)
        at.button(key="lg_sample_button").click().run()
    elif where:
        state_key, strings_name, tab = where
        at.session_state[state_key] = strings(strings_name, lang)(tab)
        at.run()
    if opened:
        for k in keys:
            at.session_state[f"{k}_table"] = True
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _figure(at, key: str) -> dict:
    drawn = [el for el in at.get("plotly_chart") if el.proto.id.endswith(f"-{key}")]
    assert drawn, key
    return json.loads(drawn[0].proto.spec)


def _panel(at, key: str):
    found = [e for e in at.expander if str(getattr(e.proto, "id", "")).endswith(f"-{key}_table")]
    assert found, f"no table control under chart {key}"
    return found[0]


def _expected_numbers(fig: dict) -> set[str]:
    """Every number a legend-named bar or line of `fig` plots, as the page formats it, or the tick's
    own text where the axis names that tick; positions on an axis without tick labels (a row whose
    name the chart writes beside the bar) are not numbers a reader sees."""
    out = set()
    layout = fig["layout"]
    for trace in fig["data"]:
        kind = trace.get("type", "scatter")
        if kind not in ("bar", "scatter") or not str(trace.get("name") or "").strip():
            continue
        if trace.get("showlegend") is False or trace.get("hoverinfo") == "skip":
            continue
        for axis in ("x", "y"):
            raw = trace.get(axis)
            ax = layout.get(f"{axis}axis" + str(trace.get(f"{axis}axis") or axis)[1:]) or {}
            if raw is None or (isinstance(raw, list) and raw and isinstance(raw[0], str)) or ax.get("showticklabels") is False:
                continue  # category names or hidden positions, not numbers
            ticks = dict(zip(ax.get("tickvals") or [], ax.get("ticktext") or [])) if ax.get("type") != "log" else {}
            values = plotly_array(raw).ravel()
            value_axis = "x" if trace.get("orientation") == "h" else "y"
            if kind == "bar" and axis == value_axis and trace.get("base") is not None:
                values = values + plotly_array(trace["base"]).ravel()  # a bar from its base: the axis value it reaches
            for v in values:
                if math.isfinite(v):
                    named = str(ticks.get(float(v), ticks.get(int(v), "")) if v == int(v) else ticks.get(float(v), "")).strip()
                    out.add(named.replace("<br>", " ") or formats.number(float(v)))
    return out


def _expected_cells(fig: dict) -> set[str]:
    """The first line of every budget-map cell's hover text."""
    out = set()
    for trace in fig["data"]:
        if trace.get("type") == "heatmap" and trace.get("customdata") is not None and trace.get("hoverinfo") != "skip":
            for row in trace["customdata"]:
                out.update(str(c).split("<br>")[0].strip() for c in row if str(c).strip())
    return out


@pytest.mark.parametrize("page,where,keys", CASES, ids=[f"{c[0]}-{c[2][0]}" for c in CASES])
def test_each_chart_has_its_numbers_in_a_table_behind_a_control(page, where, keys, lang):
    at = _open(page, where, lang, keys, opened=True)
    c = strings("common", lang)
    for key in keys:
        fig = _figure(at, key)
        panel = _panel(at, key)
        assert panel.label.startswith(c("chart_table_open")), panel.label
        assert panel.table, f"{key}: the open control shows no table"
        cells, headers = set(), []
        for t in panel.table:
            df = t.value
            headers += [str(df.index.name)] + [str(h) for h in df.columns]
            cells.update(str(v) for v in df.index)
            cells.update(str(v) for v in df.to_numpy().ravel())
        text = " ".join(cells)
        missing = sorted(n for n in _expected_numbers(fig) if n not in cells)
        assert not missing, (key, missing[:10])
        missing = sorted(h for h in _expected_cells(fig) if h not in text)
        assert not missing, (key, missing[:5])
        if lang == "en":
            assert not HANGUL.search(" ".join(headers) + text), (key, headers)
        else:
            assert any(HANGUL.search(h) for h in headers), (key, headers)  # columns named in Korean


# Pages (and tabs) that draw two or more charts at once, with the static heading each chart's control
# must carry (content/ui/*.yaml, read here by key: the page passes the same string through ui/charts.py).
NAMED = [
    ("estimator", None, {"est_chart_size": ("estimator", "size_heading"), "est_chart_timeline": ("estimator", "timeline_heading")}),
    ("tradeoffs", ("tr_tab", "tradeoffs", "tab_map"), {"tr_chart_map_hw": ("tradeoffs", "table_map_hw"),
                                                       "tr_chart_map_dist": ("tradeoffs", "table_map_dist")}),
    ("tradeoffs", ("tr_tab", "tradeoffs", "tab_cost"), {"tr_chart_pareto": ("tradeoffs", "table_pareto")}),
    ("how-it-works", None, {"how_chart_breakdown": ("how", "typical_heading"), "how_chart_claims": ("how", "claims_heading")}),
]


@pytest.mark.parametrize("page,where,named", NAMED, ids=[f"{n[0]}-{next(iter(n[2]))}" for n in NAMED])
def test_each_table_control_names_its_chart(page, where, named, lang):
    """A screen-reader user who lists a page's controls hears which chart each table belongs to: every
    control is "Show as a table: <the chart's heading>", and no two on the page share a name."""
    at = _open(page, where, lang, list(named), opened=False)
    c = strings("common", lang)
    for key, (file, heading) in named.items():
        assert _panel(at, key).label == c("chart_table_open_named", name=strings(file, lang)(heading))
    labels = [e.label for e in at.expander if str(getattr(e.proto, "id", "")).endswith("_table")]
    assert len(labels) == len(set(labels)), labels


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_timeline_has_its_stages_in_a_table(lang):
    """The estimator's timeline (Vega-Lite) lists each stage with where it starts, how long it takes and
    where it ends; the durations are latency.estimate's own breakdown, the first token its ttft_s; one
    decimal rule for the whole table (issue 26: "0.03 s / 0.079 s" in one list read as a different rule)."""
    from latency.estimation import scenario
    from tests.pages.test_estimator_page import CATALOG, DEFAULTS

    at = run_page("estimator", lang)
    assert not _panel(at, "est_chart_timeline").table
    at.session_state["est_chart_timeline_table"] = True
    at.run()
    assert not at.exception
    (table,) = _panel(at, "est_chart_timeline").table
    df = table.value
    e, f = strings("estimator", lang), formats.get(lang)
    _, _, est = scenario.evaluate(CATALOG, DEFAULTS)  # the page's defaults through latency.estimate
    stages = ["network", "queue", "prefill", "decode"]
    assert list(df.index) == [e(f"stage_{k}") for k in stages] + [e("first_token")]
    split = dict(est.breakdown)
    if getattr(est, "overhead_s", None) is None:  # decision 2: one user waits for no one; an older estimator
        split["prefill"] += split["queue"]           # counts the engine's own handling as queue
        split["queue"] = 0.0
    numbers, start = [], 0.0
    for k in stages:
        t = split[k]
        numbers += [start, t, start + t]
        start += t
    expected = iter([f.seconds(x) for x in numbers + [est.ttft_s]])  # the numbers from latency.estimate, one rule each
    for k in stages:
        row = df.loc[e(f"stage_{k}")].tolist()
        assert row == [next(expected) for _ in range(3)], (k, row)
    assert df.loc[e("first_token")].tolist()[-1] == next(expected)


@pytest.mark.parametrize("page,where,keys", CASES[:1] + CASES[4:5], ids=["estimator", "tradeoffs"])
def test_a_closed_control_builds_no_table(page, where, keys):
    at = _open(page, where, "ko", keys, opened=False)
    for key in keys:
        assert not _panel(at, key).table


def test_the_log_charts_carry_no_table_their_numbers_are_on_the_page():
    """The logs page's charts draw the reader's own file point by point (hundreds of rows, not a small
    table); their key numbers, p50/p95/p99 and the estimate, are the page's percentile table."""
    page, where, keys = LOG_CASE
    at = _open(page, where, "en", keys, opened=False)
    assert at.get("plotly_chart")
    assert not [e for e in at.expander if str(getattr(e.proto, "id", "")).endswith("_table")]
    assert at.dataframe  # the percentile table


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_live_size_chart_has_its_curve_in_a_table(lang):
    """The estimator's size chart (Vega-Lite, its curve drawn nowhere else) has a table behind the same
    control: every row is a point the chart plots, read off the chart's own rows (their hover text, as
    the page formats it), the current setting among them; closed, it builds none."""
    from tests.pages.test_estimator_page import size_chart_of

    at = run_page("estimator", lang)
    assert not _panel(at, "est_chart_size").table
    at.session_state["est_chart_size_table"] = True
    at.run()
    assert not at.exception
    panel = _panel(at, "est_chart_size")
    (table,) = panel.table
    df = table.value
    e = strings("estimator", lang)
    assert [str(df.index.name), *map(str, df.columns)] == [e("size_x"), e("series_ttft"), e("series_total")]
    _, rows = size_chart_of(at, lang)
    tips = {r["tip"] for r in rows if r["kind"] in ("curve", "nofit")}
    current = [r for r in rows if r["kind"] == "current"]
    assert len(df) >= 8, df  # round sizes from 1B to 2,000B, and the current one
    for size, ttft, total in zip(df.index, df[e("series_ttft")], df[e("series_total")]):
        label = str(size).split(" (")[0]
        if e("series_current") in str(size):
            assert {r["tip"].split(" (")[0] for r in current} == {f"{e('series_total')} {total}", f"{e('series_ttft')} {ttft}"}
            continue
        for series, value in ((e("series_ttft"), ttft), (e("series_total"), total)):
            tip = f"{e('size_hover')} {label} · {series} {value}"
            assert any(t == tip or t.startswith(tip + " (") for t in tips), (tip, sorted(tips)[:3])
