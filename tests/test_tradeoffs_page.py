"""The trade-off page in AppTest: every control changes the charts and the URL, bad input is named,
the CSV served is the export checked against latency.estimate, and both languages stay clean."""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pytest

from latency import content, estimate, inputs
from latency import tradeoffs as T
from latency.catalog import load_catalog
from latency.i18n import LANGS
from tests.conftest import all_text, run_page

CAT = load_catalog()
STOPS = inputs.load_stops()
CASES = content.use_case_budgets("ko")
HW_ORDER = inputs.ordered_hardware(CAT)
CHARTS = ("map_hw", "map_dist", "concurrency", "pareto", "memory", "tornado")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def figure(at, name: str) -> dict:
    for el in at.get("plotly_chart"):
        if el.proto.id.endswith(f"tr_chart_{name}"):
            return json.loads(el.proto.spec)
    raise AssertionError(f"no chart tr_chart_{name}")


def chart_text(fig: dict) -> str:
    """Every human-readable string inside a figure (titles, names, text, hover)."""
    out = []

    def walk(node, key=""):
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, str) and key in ("text", "name", "customdata", "hovertemplate", "ticktext"):
            out.append(node)

    walk(fig)
    return "\n".join(out)


def arr(value) -> np.ndarray:
    """A plotly array from the figure JSON: plain lists or plotly's base64 typed arrays."""
    if isinstance(value, dict) and "bdata" in value:
        shape = tuple(int(x) for x in str(value.get("shape", "-1")).split(","))
        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"])).reshape(shape)
    return np.asarray(value, dtype=float)


def heat(fig: dict) -> np.ndarray:
    """z of the budget heatmap trace (the one with a colour bar): log2(latency / budget), nan = no fit."""
    return arr(next(t["z"] for t in fig["data"] if t["type"] == "heatmap" and "colorbar" in t))


def qp(at, key: str) -> str | None:
    """The URL value of `key` after the run (AppTest keeps plain strings or lists)."""
    v = at.query_params.get(key)
    return v[-1] if isinstance(v, list) else v


def no_errors(at) -> None:
    assert not at.exception, [e.value for e in at.exception]


# --------------------------------------------------------------------------------------------
# Languages
# --------------------------------------------------------------------------------------------

def test_page_and_charts_in_each_language(lang):
    at = run_page("tradeoffs", lang)
    no_errors(at)
    text = all_text(at)
    charts = "\n".join(chart_text(figure(at, name)) for name in CHARTS)
    if lang == "en":
        assert not HANGUL.search(text), HANGUL.findall(text)[:10]
        assert not HANGUL.search(charts), [line for line in charts.splitlines() if HANGUL.search(line)][:5]
    else:
        assert HANGUL.search(at.title[0].value)
        assert HANGUL.search(figure(at, "map_hw")["layout"]["xaxis"]["title"]["text"])
        assert HANGUL.search(figure(at, "tornado")["layout"]["xaxis"]["title"]["text"])
    # Every section is there: summary metrics, the cheapest option, the tornado sentence, the export.
    assert len(at.metric) >= 9
    assert at.info and at.get("download_button")
    for name in CHARTS:
        assert figure(at, name)["data"]


def shown_text(at) -> str:
    """What a reader sees: text elements, widget labels and option labels, table cells (links
    and raw widget values, which the browser never shows, left out)."""
    parts = []
    for kind in ("title", "subheader", "markdown", "caption", "info", "warning", "error", "success"):
        parts += [str(el.value) for el in getattr(at, kind)]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    for kind in ("selectbox", "number_input", "select_slider", "segmented_control"):
        for w in getattr(at, kind):
            parts.append(str(w.label))
            parts += [str(o) for o in getattr(w, "options", [])]
    for df in at.dataframe:
        parts.append(" ".join(map(str, df.value.columns)) + " " + df.value.to_string(index=False))
    return re.sub(r"https?://\S+", " ", "\n".join(parts))


def test_no_english_ui_words_on_the_korean_page():
    """Words of this page's English strings must not leak onto the Korean page (proper names and
    units that the Korean strings or the catalogs use too are allowed)."""
    import yaml

    from latency.i18n import UI_DIR

    table = yaml.safe_load((UI_DIR / "tradeoffs.yaml").read_text(encoding="utf-8"))
    words = lambda text: {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}  # noqa: E731
    english = set().union(*(words(v["en"]) for v in table.values()))
    allowed = set().union(*(words(v["ko"]) for v in table.values()))
    allowed |= set().union(*(words(e.label(lang)) for e in CAT.hardware.values() for lang in LANGS))
    allowed |= set().union(*(words(p.label("ko")) for p in CAT.precisions.values()))
    at = run_page("tradeoffs", "ko")
    no_errors(at)
    shown = words(shown_text(at)) | words("\n".join(chart_text(figure(at, name)) for name in CHARTS))
    assert not (shown & (english - allowed)), sorted(shown & (english - allowed))


# --------------------------------------------------------------------------------------------
# Use cases and budget
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_use_case_in_the_url_sets_budget_and_measure(case):
    at = run_page("tradeoffs", "en", {"use_case": case.id})
    no_errors(at)
    assert at.selectbox(key="tr_use_case").value == case.id
    assert at.number_input(key="budget_s").value == case.budget_s
    assert at.session_state["measure"] == case.measure
    assert qp(at, "budget_s") == inputs.url_value("budget_s", case.budget_s)
    assert qp(at, "use_case") == case.id
    en_case = next(u for u in content.use_case_budgets("en") if u.id == case.id)
    budget_text = f"{inputs.fmt_number(case.budget_s)} s"
    verdict = [a.value for a in list(at.error) + list(at.success)]
    assert any(budget_text in v for v in verdict), verdict
    assert any(en_case.label in o for o in at.selectbox(key="tr_use_case").options)


def test_verdict_says_when_the_range_straddles_the_budget():
    at = run_page("tradeoffs", "en", {"use_case": "sla_2s", "concurrency": "10"})
    no_errors(at)
    sc = T.Scenario(concurrency=10, budget_s=2.0, measure="total")  # the page's defaults
    grid = T.size_hardware_grid(sc, CAT, T.catalog_prices(CAT), ["h100-sxm"], sizes=[sc.model_size_b])
    plan = T.summarize(grid, 0, 0)
    e = estimate(T.scenario_model(sc, CAT), CAT.hardware["h100-sxm"].hardware, sc.prompt_tokens, sc.output_tokens,
                 batch=plan.batch, distance_km=sc.distance_km, concurrent_users=plan.batch)
    lo, hi = e.ranges["total_s"]
    verdict = (list(at.error) + list(at.success))[0].value
    assert ("straddles the budget" in verdict) == (lo <= 2.0 < hi), (lo, hi, verdict)
    at.number_input(key="budget_s").set_value(600.0).run()
    assert "straddles" not in at.success[0].value


def test_choosing_a_use_case_sets_the_budget_and_typing_one_makes_it_custom():
    at = run_page("tradeoffs", "en")
    at.selectbox(key="tr_use_case").set_value("code_autocomplete").run()
    no_errors(at)
    assert at.number_input(key="budget_s").value == 0.2 and at.session_state["measure"] == "ttft"
    at.number_input(key="budget_s").set_value(0.3).run()
    assert at.selectbox(key="tr_use_case").value == "custom"
    assert "use_case" not in at.query_params and qp(at, "budget_s") == "0.3"


def test_changing_budget_changes_the_charts_and_the_url():
    at = run_page("tradeoffs", "en")
    before = {name: figure(at, name) for name in ("map_hw", "map_dist", "concurrency", "pareto")}
    at.number_input(key="budget_s").set_value(8.0).run()
    no_errors(at)
    after = {name: figure(at, name) for name in before}
    assert not np.array_equal(heat(after["map_hw"]), heat(before["map_hw"]), equal_nan=True)
    assert not np.array_equal(heat(after["map_dist"]), heat(before["map_dist"]), equal_nan=True)
    budget_y = lambda fig: next(arr(t["y"]) for t in fig["data"]  # noqa: E731
                                if t.get("line", {}).get("dash") in ("dot", "dash") and t.get("mode") == "lines"
                                and len(set(arr(t["y"]).tolist())) == 1)
    assert budget_y(after["concurrency"])[0] == 8.0 and budget_y(before["concurrency"])[0] == 2.0
    assert budget_y(after["pareto"])[0] == 8.0
    assert qp(at, "budget_s") == "8"
    # A looser budget lets more cells meet it.
    meets = lambda fig: int(np.sum(heat(fig) <= 0))  # noqa: E731
    assert meets(after["map_hw"]) > meets(before["map_hw"])


def test_measure_switch_changes_what_is_judged():
    at = run_page("tradeoffs", "en")
    total = heat(figure(at, "map_hw"))
    at.segmented_control(key="measure").set_value("ttft").run()
    no_errors(at)
    assert not np.array_equal(heat(figure(at, "map_hw")), total, equal_nan=True)
    assert qp(at, "measure") == "ttft"
    assert "first response" in figure(at, "tornado")["layout"]["xaxis"]["title"]["text"].lower()


def test_changing_concurrency_changes_the_charts_and_the_url():
    at = run_page("tradeoffs", "en", {"use_case": "support_chatbot"})
    before = {name: figure(at, name) for name in ("map_hw", "concurrency", "tornado")}
    at.number_input(key="concurrency").set_value(400).run()
    no_errors(at)
    after = {name: figure(at, name) for name in before}
    current = lambda fig: next(t for t in fig["data"] if t.get("mode") == "markers")  # noqa: E731
    assert arr(current(before["concurrency"])["x"]).tolist() == [10]
    assert arr(current(after["concurrency"])["x"]).tolist() == [400]
    hover = lambda fig: next(t["customdata"] for t in fig["data"] if "colorbar" in t)  # noqa: E731
    assert hover(after["map_hw"]) != hover(before["map_hw"])
    assert after["tornado"] != before["tornado"]
    assert qp(at, "concurrency") == "400"
    assert "400 users" in all_text(at)


def test_each_scenario_input_reaches_the_url_and_the_maps():
    at = run_page("tradeoffs", "en")
    base = figure(at, "map_hw")["data"]
    steps = [("select_slider", "model_size_b", 70.6, "70.6"), ("selectbox", "hardware", "l40s", "l40s"),
             ("select_slider", "distance_km", 9029.0, "9029"), ("selectbox", "precision", "q4_k_m", "q4_k_m"),
             ("number_input", "output_tokens", 1024, "1024"), ("number_input", "prompt_tokens", 4096, "4096"),
             ("segmented_control", "arch", "moe", "moe")]
    for kind, key, value, url in steps:
        getattr(at, kind)(key=key).set_value(value).run()
        no_errors(at)
        assert qp(at, key) == url, key
        now = figure(at, "map_hw")["data"]  # colours, or at least the marked cells, move
        assert now != base, key
        base = now
    at.segmented_control(key="device_scope").set_value("all").run()
    ys = next(t["y"] for t in figure(at, "map_hw")["data"] if "colorbar" in t)
    assert len(ys) == len(HW_ORDER) and qp(at, "device_scope") == "all"


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------

def test_bad_url_values_are_named_and_replaced(lang):
    query = {"budget_s": "abc", "concurrency": "-5", "hardware": "nope", "model_size_b": "7.7", "measure": "speed",
             "distance_km": "1e9", "use_case": "<b>x</b>", "precision": "fp3"}
    at = run_page("tradeoffs", lang, query)
    no_errors(at)
    notices = "\n".join(w.value for w in at.warning)
    for key in query:
        assert key in notices, key
    assert "<b>" not in notices  # URL text is escaped, never markup
    assert at.number_input(key="concurrency").value == 10
    assert at.selectbox(key="hardware").value == "h100-sxm"
    assert at.select_slider(key="model_size_b").value == 8.03
    assert qp(at, "concurrency") == "10"
    for name in CHARTS:
        assert figure(at, name)["data"]


def test_a_model_that_fits_nowhere_is_said_plainly():
    at = run_page("tradeoffs", "en", {"model_size_b": "2000", "hardware": "apple-a17-pro", "device_scope": "all"})
    no_errors(at)
    assert any("does not fit" in e.value for e in at.error)
    assert any("does not fit" in w.value for w in at.warning)  # concurrency tab says why it has no curve
    assert figure(at, "map_hw")["data"]


def _price_row(hid: str) -> int:
    return HW_ORDER.index(hid)


def _price_col(lang: str) -> str:
    """The editable price column is named by its label in the page's language."""
    from latency.i18n import strings

    return strings("tradeoffs", lang)("col_price")


def test_bad_price_edits_are_named_and_fall_back(lang):
    at = run_page("tradeoffs", lang)
    cost_before = at.metric[3].value
    col = _price_col(lang)
    edits = {_price_row("h100-sxm"): {col: "-3"}, _price_row("l4"): {col: "cheap"}, _price_row("b200"): {col: None}}
    at.session_state["tr_prices"] = {"edited_rows": edits, "added_rows": [], "deleted_rows": []}
    at.run()
    no_errors(at)
    notices = [w.value for w in at.warning]
    for hid in ("h100-sxm", "l4", "b200"):
        name = CAT.hardware[hid].label(lang)
        assert any(name in n and T.fmt_usd(CAT.hardware[hid].price_usd_per_hour) in n for n in notices), hid
    assert at.metric[3].value == cost_before  # the catalog prices are still in force


def test_prices_without_a_link_are_named_under_the_price_table(lang):
    from latency.i18n import strings

    at = run_page("tradeoffs", lang)
    no_errors(at)
    s = strings("tradeoffs", lang)
    lead = s("prices_no_link", names="").rstrip(".").strip()
    captions = [c.value for c in at.caption if c.value.startswith(lead)]
    unlinked = [h for h in HW_ORDER if not (CAT.hardware[h].price_source or "").startswith("http")]
    assert unlinked, "the catalog has an unlinked estimate; otherwise this test checks nothing"
    assert len(captions) == 1
    for hid in HW_ORDER:
        assert (CAT.hardware[hid].label(lang) in captions[0]) == (hid in unlinked), hid


def test_a_valid_price_edit_changes_the_cost():
    at = run_page("tradeoffs", "en")
    cost_before = at.metric[3].value
    at.session_state["tr_prices"] = {"edited_rows": {_price_row("h100-sxm"): {_price_col("en"): "0.299"}},
                                     "added_rows": [], "deleted_rows": []}
    at.run()
    no_errors(at)
    assert not at.warning
    assert at.metric[3].value != cost_before
    prices, _ = T.resolve_prices(CAT, {"h100-sxm": "0.299"})
    sc = T.Scenario(concurrency=10, budget_s=2.0, measure="total")  # the page's defaults
    grid = T.size_hardware_grid(sc, CAT, prices, ["h100-sxm"], sizes=[sc.model_size_b])
    want = T.fmt_usd(T.summarize(grid, 0, 0).cost_per_1k_answers)
    assert at.metric[3].value == want and want in chart_text(figure(at, "pareto"))


# --------------------------------------------------------------------------------------------
# CSV export
# --------------------------------------------------------------------------------------------

def test_the_csv_served_is_the_export_of_the_map_and_estimate():
    from streamlit.runtime.memory_media_file_storage import _calculate_file_id

    at = run_page("tradeoffs", "en", {"concurrency": "20", "use_case": "code_autocomplete"})
    no_errors(at)
    button = at.get("download_button")[0].proto
    s = T.Scenario(model_size_b=8.03, hardware_id="h100-sxm", distance_km=1149.0, precision_id="fp16", arch="dense",
                   prompt_tokens=512, output_tokens=256, concurrency=20, budget_s=0.2, measure="ttft")
    prices = T.catalog_prices(CAT)
    cloud = [h for h in HW_ORDER if CAT.hardware[h].price_basis == "cloud_on_demand"]
    rows = T.export_rows(s, CAT, prices, T.size_hardware_grid(s, CAT, prices, cloud))
    expected = T.export_csv(rows)
    assert button.url.endswith(_calculate_file_id(expected, "text/csv", "tradeoffs.csv") + ".csv")
