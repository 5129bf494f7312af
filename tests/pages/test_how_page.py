"""The "How the estimate works" page: AppTest in every language, and the pure helpers behind it
(latency.teaching.explain): constants, calibration report, the comparison-table verdicts."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from types import SimpleNamespace

import pytest

from latency.estimation import calibrate, estimator
from latency.teaching import content, explain
from latency.language import i18n
from latency.estimation.catalog import load_catalog
from latency.language.errors import ContentError
from latency.estimation.estimator import calibration_dir
from tests.conftest import all_text, in_order, run_page

HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")
SECTIONS = ("typical_heading", "stages_heading", "calib_heading", "ruc_heading", "claims_heading", "limits_heading")
STAGE_HEADINGS = ("network_heading", "queue_heading", "prefill_heading", "decode_heading")


def strings(lang: str) -> i18n.Strings:
    return i18n.strings("how", lang)


def unescape(text: str) -> str:
    return re.sub(r"\\([\\`*_{}\[\]<>#|~$])", r"\1", text)


def page_text(at) -> str:
    """Everything the page shows: text elements, tab/expander labels, tables, charts, links."""
    parts = [all_text(at)]
    parts += [t.label for t in at.tabs] + [e.label for e in at.expander] + [p.value for p in at.page_link]
    for frame in [*at.dataframe, *at.table]:
        df = frame.value
        parts += [str(v) for v in [*df.columns, *df.to_numpy().ravel()]]
    parts += [str(c.proto.spec) for c in at.get("plotly_chart")]
    return unescape("\n".join(parts))


def frame_with_column(at, column: str):
    frames = [f.value for f in [*at.dataframe, *at.table] if column in list(f.value.columns)]
    assert frames, f"no table with a column {column!r}"
    return frames


BADGE = re.compile(r"^:[a-z]+-badge\[(?::material/[a-z_]+: )?(?P<label>.*)\]$")


def shown_verdicts(at, lang: str) -> list[str]:
    """The verdict badges on the page, in order, as verdict ids (st.badge is a Markdown element
    ":color-badge[:material/icon: label]")."""
    by_text = {strings(lang)(f"verdict_badge_{v}"): v for v in explain.VERDICTS}
    labels = [m["label"] for node in at.main.get("markdown") if (m := BADGE.match(str(node.value)))]
    return [by_text[label] for label in labels]


# --------------------------------------------------------------------------------------------
# The page in AppTest
# --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pages():
    """One run per language (each run is ~1 s; the module's page tests share them)."""
    return {}


def page_in(lang: str, cache: dict):
    if lang not in cache:
        cache[lang] = run_page("how-it-works", lang)
    return cache[lang]


def test_page_renders_every_section_in_every_language(lang, pages):
    at = page_in(lang, pages)
    assert not at.exception, at.exception
    assert not at.error and not at.warning, [e.value for e in [*at.error, *at.warning]]
    s = strings(lang)
    assert at.title[0].value == s("title")
    assert [h.value for h in at.header] == [s(k) for k in SECTIONS]
    subheaders = [unescape(h.value) for h in at.subheader]
    for key in STAGE_HEADINGS:
        assert any(h.endswith(s(key)) for h in subheaders), key
    for cls in content.comparison_classes(lang):
        assert cls.name in subheaders
    assert [t.label for t in at.tabs] == [s(f"tab_{k}") for k in explain.STAGES]
    assert len(at.get("plotly_chart")) == 2
    shown = [node.value.strip("$\n") for node in at.latex]
    assert shown == [f for stage in ("total", *explain.STAGES) for f in explain.formulas()[stage]]


def test_text_is_in_the_page_language(lang, pages):
    text = page_text(page_in(lang, pages))
    if lang == "ko":
        assert HANGUL.search(text)
    else:
        assert not HANGUL.findall(text), sorted(set(HANGUL.findall(text)))


def test_calibration_table_has_one_row_per_measurement(lang, pages):
    at = page_in(lang, pages)
    report = explain.load_report()
    meta = estimator.load_params()["meta"]["rows"]
    s = strings(lang)
    (rows,) = frame_with_column(at, s("col_measure"))
    assert len(rows) == len(report["compute_rows"]) == meta["compute"]
    (routes,) = frame_with_column(at, s("col_route"))
    assert len(routes) == len(report["rtt_routes"]) == meta["rtt_routes"]
    # the medians shown are recomputed from those rows
    (medians,) = frame_with_column(at, s("col_in_sample"))
    computed = explain.median_errors(report)
    assert list(medians[s("col_in_sample")]) == [s("pct", v=f"{computed['in_sample'][g]:.1f}") for g in explain.ERROR_GROUPS]


def test_constants_table_values_come_from_the_code(pages):
    at = page_in("en", pages)
    s = strings("en")
    shown = {}
    for frame in frame_with_column(at, s("col_constant")):
        shown.update(dict(zip(frame[s("col_constant")], frame[s("col_value")])))
    fixed = estimator.load_params()["network"]["fixed_ms"]
    assert shown[s("const_fixed_ms")] == f"{explain.fmt(fixed)} ms"
    assert shown[s("const_fibre_speed")] == f"{explain.fmt(explain.network.FIBRE_KM_PER_MS)} km/ms"
    # the queue stage's one constant (a burst's front end): 4 bytes a token at 1.74 MB/s on one thread
    assert shown[s("const_front_end_token")] == "2.3 µs"
    n = sum(len(v) for v in explain.stage_constants().values())
    assert len(shown) == n


def test_verdicts_on_the_page_are_the_computed_ones(lang, pages):
    at = page_in(lang, pages)
    classes = content.comparison_classes(lang)
    expected = [c.verdict for c in explain.check_classes(classes, load_catalog())]
    assert shown_verdicts(at, lang) == expected
    s = strings(lang)
    markdown = unescape("\n".join(str(m.value) for m in at.markdown))
    for check in explain.check_classes(classes, load_catalog()):
        lo, hi = check.span("total")
        assert f"{explain.fmt_s(lo)}" in markdown and f"{explain.fmt_s(hi)}" in markdown
        assert s(f"verdict_{check.verdict}").split("{")[0].strip() in markdown


def _scaled(e: estimator.Estimate, k: float) -> estimator.Estimate:
    return dataclasses.replace(
        e, ttft_s=e.ttft_s * k, tpot_s=e.tpot_s * k, total_s=e.total_s * k,
        decode_tokens_per_s=e.decode_tokens_per_s / k, prefill_tokens_per_s=e.prefill_tokens_per_s / k,
        breakdown={name: v * k for name, v in e.breakdown.items()},
        ranges={name: (lo * k, hi * k) if name in ("ttft_s", "tpot_s", "total_s") else (hi / k, lo / k)
                for name, (lo, hi) in e.ranges.items()})


def test_page_verdicts_follow_the_estimate(monkeypatch):
    """Ten times faster hardware everywhere: the page's verdicts must change with it."""
    real = estimator.estimate
    before = [c.verdict for c in explain.check_classes(content.comparison_classes("en"), load_catalog())]
    monkeypatch.setattr(estimator, "estimate", lambda *a, **k: _scaled(real(*a, **k), 0.1))
    after = [c.verdict for c in explain.check_classes(content.comparison_classes("en"), load_catalog())]
    assert after != before
    at = run_page("how-it-works", "en")
    assert not at.exception, at.exception
    assert shown_verdicts(at, "en") == after


def test_missing_calibration_report_is_named_and_the_rest_still_works(monkeypatch, tmp_path):
    monkeypatch.setattr(explain, "REPORT_PATH", tmp_path / "calibration_report.json")
    at = run_page("how-it-works", "en")
    assert not at.exception, at.exception
    errors = [unescape(e.value) for e in at.error]
    assert len(errors) == 1 and "calibration_report.json" in errors[0] and "latency.calibrate" in errors[0]
    s = strings("en")
    assert [h.value for h in at.header] == [s(k) for k in SECTIONS]
    assert shown_verdicts(at, "en")  # the claims section does not need the report


# --------------------------------------------------------------------------------------------
# The verdict rule and the claim check (pure)
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ttfts,totals,expected", [
    ([0.1, 0.2], [3.0, 4.0], "holds"),            # whole answers inside
    ([0.1, 5.0], [3.0, 70.0], "holds"),           # half of them: majority reached
    ([3.0, 4.0], [70.0, 80.0], "first_token"),    # only the first token inside
    ([0.1, 0.2], [70.0, 80.0], "no"),             # first token faster than the range: not inside
    ([0.1, 0.2, 3.0], [1.0, 70.0, 80.0], "no"),   # one of three: no majority
])
def test_verdict_rule(ttfts, totals, expected):
    assert explain.verdict((2.0, 60.0), ttfts, totals) == expected


def test_verdict_rule_rejects_mismatched_inputs():
    with pytest.raises(ValueError):
        explain.verdict((0.0, 1.0), [], [])
    with pytest.raises(ValueError):
        explain.verdict((0.0, 1.0), [0.5], [0.5, 0.6])


def _fake_estimate(ttft: float, tpot: float):
    def fn(model, hardware, prompt_tokens, output_tokens, params=None, **kwargs):
        total = ttft + (output_tokens - 1) * tpot
        return SimpleNamespace(ttft_s=ttft, tpot_s=tpot, total_s=total, ranges={"ttft_s": (ttft, ttft), "total_s": (total, total)},
                               decode_tokens_per_s=1 / tpot, devices_needed=1, fits=True, calibrated=True)
    return fn


@pytest.mark.parametrize("ttft,tpot,expected", [
    (0.5, 0.004, {"large": "no", "lightweight": "first_token", "loop": "holds"}),
    (0.5, 0.02, {"large": "holds", "lightweight": "first_token", "loop": "no"}),
    (3.0, 0.1, {"large": "holds", "lightweight": "no", "loop": "no"}),
    (0.1, 0.002, {"large": "no", "lightweight": "holds", "loop": "no"}),
])
def test_class_verdicts_change_with_the_estimate(ttft, tpot, expected):
    checks = explain.check_classes(content.comparison_classes("en"), load_catalog(), estimate_fn=_fake_estimate(ttft, tpot))
    assert {c.class_id: c.verdict for c in checks} == expected
    total = ttft + (explain.OUTPUT_TOKENS - 1) * tpot
    for c in checks:
        assert c.n == len([s for s in explain.SCENARIOS if s.class_id == c.class_id])
        assert c.total_in == (c.n if c.stated[0] <= total <= c.stated[1] else 0)
        assert c.span("total") == (total, total)


def test_tokens_within_the_stated_maximum():
    checks = explain.check_classes(content.comparison_classes("en"), load_catalog(), estimate_fn=_fake_estimate(0.5, 0.01))
    loop = next(c for c in checks if c.class_id == "loop")  # stated 1-2 s
    assert {r.tokens_within_max for r in loop.results} == {1 + math.floor((2.0 - 0.5) / 0.01 + 1e-9)}
    slow = explain.check_classes(content.comparison_classes("en"), load_catalog(), estimate_fn=_fake_estimate(3.0, 0.01))
    assert {r.tokens_within_max for r in next(c for c in slow if c.class_id == "loop").results} == {0}


def test_every_class_has_set_ups_on_real_catalog_entries():
    cat = load_catalog()
    ids = {c.id for c in content.comparison_classes("ko")}
    assert {s.class_id for s in explain.SCENARIOS} == ids
    for s in (*explain.SCENARIOS, explain.TYPICAL):
        assert s.model in cat.models and s.precision in cat.precisions and s.hardware in cat.hardware
    with pytest.raises(ValueError, match="no representative set-up"):
        explain.check_classes(content.comparison_classes("en"), cat, scenarios=explain.SCENARIOS[:1])


def test_the_committed_verdicts_match_docs_estimator_md():
    """docs/estimator.md states the verdicts in words; the page computes them. They must agree."""
    checks = {c.class_id: c.verdict for c in explain.check_classes(content.comparison_classes("en"), load_catalog())}
    assert checks == {"large": "holds", "lightweight": "first_token", "loop": "no"}


# --------------------------------------------------------------------------------------------
# Constants, formulas, strings
# --------------------------------------------------------------------------------------------

def test_every_constant_has_a_name_a_source_and_a_unit_in_both_languages():
    table = i18n.load_area("how")
    for stage, consts in explain.stage_constants().items():
        assert stage in explain.STAGES
        for c in consts:
            assert c.origin in explain.ORIGINS
            for key in (f"const_{c.id}", f"src_{c.id}", f"unit_{c.unit}", f"origin_{c.origin}"):
                assert key in table, key
            assert math.isfinite(c.value) and c.value > 0, c


def test_fitted_constants_are_read_from_the_parameters():
    params = json.loads(json.dumps(estimator.load_params()))
    params["network"]["route_inflation"] = 9.99
    params["engines"]["llama.cpp"]["pass_overhead_s"] = 0.5
    consts = {c.id: c for cs in explain.stage_constants(params).values() for c in cs}
    assert consts["route_inflation"].value == 9.99
    assert consts["pass_overhead_llama"].value == pytest.approx(500.0)
    assert consts["route_inflation"].origin == "fitted"


def test_formulas_follow_the_fitted_combination():
    params = dict(estimator.load_params())
    params["combine"] = "sum"
    assert "T_c + T_m" in explain.formulas(params)["prefill"][0]
    params["combine"] = "max"
    assert r"\max" in explain.formulas(params)["prefill"][0] and r"\max" in explain.formulas(params)["decode"][0]


def test_fractions_flag_priors_and_uncalibrated_kinds():
    fr = {(f.engine, f.kind): f for f in explain.fitted_fractions()}
    # concurrency.csv brought decode rows for a serving engine: its bandwidth share is fitted now.
    assert fr[("optimized", "datacenter_gpu")].bw_fitted
    assert fr[("llama.cpp", "desktop_gpu")].bw_fitted and fr[("llama.cpp", "desktop_gpu")].calibrated
    assert not fr[("llama.cpp", "default")].calibrated


def test_queue_multipliers_are_the_mm1_wait():
    for u, mult in explain.queue_multipliers((0.5, 0.8, 0.9)):
        assert mult == pytest.approx(u / (1 - u))


def test_network_example_matches_estimate():
    cat = load_catalog()
    e = estimator.estimate(explain.scenario_model(explain.TYPICAL, cat), cat.hardware["h100-sxm"].hardware,
                           distance_km=explain.CLOUD_KM)
    assert explain.network_example(explain.CLOUD_KM)["warm"] == pytest.approx(e.breakdown["network"])


# --------------------------------------------------------------------------------------------
# The calibration report the page reads
# --------------------------------------------------------------------------------------------

def test_report_medians_match_the_fitted_parameters():
    report = explain.load_report()
    meta = estimator.load_params()["meta"]
    computed = explain.median_errors(report)
    for kind in ("in_sample", "leave_one_device_out"):
        for group in explain.ERROR_GROUPS:
            assert computed[kind][group] == pytest.approx(meta["median_abs_error_pct"][kind][group], rel=1e-3)
    assert report["data_sha256"] == meta["data_sha256"]
    assert len(report["compute_rows"]) == meta["rows"]["compute"]
    assert len(report["rtt_routes"]) == meta["rows"]["rtt_routes"]


@pytest.mark.parametrize("edit,path", [
    (lambda d: d["compute_rows"][0].pop("measured"), "compute_rows[0].measured"),
    (lambda d: d["compute_rows"][3].update(target="latency"), "compute_rows[3].target"),
    (lambda d: d["rtt_routes"][1].update(measured_ms=-1), "rtt_routes[1].measured_ms"),
    (lambda d: d.update(rtt_routes=[]), "rtt_routes"),
])
def test_broken_report_is_named(tmp_path, edit, path):
    data = json.loads(explain.REPORT_PATH.read_text(encoding="utf-8"))
    edit(data)
    file = tmp_path / "calibration_report.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        explain.load_report(file)
    assert err.value.path == path and err.value.file == str(file)


def test_report_that_is_not_json_is_named(tmp_path):
    file = tmp_path / "calibration_report.json"
    file.write_text("{not json", encoding="utf-8")
    with pytest.raises(ContentError, match="not valid JSON"):
        explain.load_report(file)


@pytest.mark.skipif(not (calibration_dir() / "measurements.csv").exists(),
                    reason=f"calibration data not found at {calibration_dir()}")
@pytest.mark.timeout(1200)  # the full fit (~3 CPU-minutes), or the wait for the worker running it
def test_calibration_reproduces_the_committed_report(calibration_fit):
    """What `python -m latency.calibrate --check` also checks (shares the fit with test_calibration)."""
    _, _, text = calibration_fit
    assert text == explain.REPORT_PATH.read_text(encoding="utf-8")
    report = json.loads(text)
    rows, _, _ = calibrate.load_rows(calibration_dir())
    assert len(report["compute_rows"]) + len(report["serving_rows"]) == len(rows)


def test_page_needs_no_calibration_data(monkeypatch, tmp_path):
    """A fresh install without ../shared/calibration/ still shows the whole page (committed JSON only)."""
    monkeypatch.setenv("LATENCY_CALIBRATION_DIR", str(tmp_path / "nowhere"))
    at = run_page("how-it-works", "ko")
    assert not at.exception and not at.error, [*at.exception, *at.error]
    (rows,) = frame_with_column(at, strings("ko")("col_measure"))
    assert len(rows) == len(explain.load_report()["compute_rows"])


def test_developer_details_are_folded_away(pages):
    """A non-developer reads plain words first: every formula, file name and command line on the
    page sits inside a 'for developers' expander (or the calibration tables' expanders)."""
    at = page_in("en", pages)
    assert at.latex, "the page still shows its formulas, folded"
    assert len(at.latex) == sum(len(e.latex) for e in at.expander), "a formula outside an expander"
    folded = {str(x.value) for e in at.expander for x in [*e.markdown, *e.caption]}
    outside = [str(x.value) for x in [*at.markdown, *at.caption] if str(x.value) not in folded]
    for text in outside:
        for dev_word in ("fitted_params", "fitted\\_params", "python -m", ".json", ".py"):
            assert dev_word not in text, text[:120]


def test_ranges_users_and_long_context_are_explained_with_their_checks(lang):
    """Issue 12: the coverage each range aims at and reaches, from the calibration report, and the
    per-series errors, in a folded developer section below a plain-words explanation."""
    from pathlib import Path

    report = json.loads((estimator.PARAMS_PATH.with_name("calibration_report.json")).read_text(encoding="utf-8"))
    at = run_page("how-it-works", lang)
    assert not at.exception
    text = " ".join(str(t.value.to_dict()) for t in at.table) + " ".join(str(d.value.to_dict()) for d in at.dataframe)
    for group in ("decode_calibrated", "prefill_uncalibrated"):
        assert f"{report['coverage_pct'][group]['coverage_pct']:.1f}" in text, group
    assert report["series_errors"][0]["series"] in text
    # the note under the table gives the stricter check's lowest and highest share as the report has them
    # (it said "47 to 90%" in words while the per-user decode row read 31%)
    refits = [v["coverage_loo_pct"] for v in report["coverage_pct"].values() if isinstance(v, dict) and "coverage_loo_pct" in v]
    lo, hi = round(min(refits)), round(max(refits))
    said = [m for c in at.caption if (m := re.search(r"80%.*?(\d+)(?: to |\\?~)(\d+)%", c.value, re.S))]
    assert len(said) == 1 and (int(said[0][1]), int(said[0][2])) == (lo, hi), [m[0] for m in said]


# Marks of the model's own notation a non-developer cannot read: Greek symbols, queueing-theory names,
# a symbol standing for a quantity (S, B, N, t0), tensor parallel and all-reduces (issue 26, item 4)
NOTATION = re.compile(r"[ραβηΠΣλμ]|M/M/1|\$|\b[SBN]\b|\bt0\b|÷|텐서 병렬|tensor parallel|all-reduce|Kleinrock|Kaplan")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_stage_opens_in_plain_words_with_its_formulas_folded_below(lang, pages):
    """Under each stage's heading the first thing a reader meets is a sentence, not a formula, and nothing
    outside the 'for developers' expander uses the model's notation; the formulas are still there, folded."""
    at = page_in(lang, pages)
    anchors = {sub.proto.anchor for sub in at.subheader}
    assert set(explain.STAGES) <= anchors
    for tab in at.tabs:
        elements = list(in_order(tab))
        (i, heading), = [(i, e) for i, (e, _) in enumerate(elements) if getattr(e, "type", "") == "subheader"]
        assert heading.proto.anchor in explain.STAGES
        first, folded = elements[i + 1]
        assert getattr(first, "type", "") == "markdown" and not folded, (heading.proto.anchor, first)
        assert len(str(first.value)) > 80 and not NOTATION.search(str(first.value)), str(first.value)[:160]
        shown = [str(e.value) for e, f in elements if not f and getattr(e, "type", "") in ("markdown", "caption", "alert", "info")]
        marked = [t for t in shown if NOTATION.search(t)]
        assert not marked, (heading.proto.anchor, marked[0][:160])
        assert any(getattr(e, "type", "") == "latex" and f for e, f in elements), heading.proto.anchor


def test_every_chip_the_page_names_carries_its_plain_class(lang, pages):
    """Issue 26 item 4: the worked examples and the set-ups tables name a device with its class
    ("laptop chip", "gaming GPU", "data-centre GPU"), never its catalog name alone."""
    from latency.estimation.catalog import load_catalog

    catalog = load_catalog()
    at = page_in(lang, pages)
    # the worked examples' texts and the set-ups tables (the calibration data table, behind "for
    # developers", names each measured device as its source does, and is left as it is)
    setups = [f.value for f in at.dataframe if strings(lang)("col_hardware") in list(f.value.columns)]
    assert setups
    text = unescape("\n".join([all_text(at)] + [str(v) for df in setups for v in df.to_numpy().ravel()])).replace("\\", "")
    common = i18n.strings("common", lang)
    named = 0
    for hid, entry in catalog.hardware.items():
        name = entry.label(lang)
        whole = re.escape(name) + r"(?![A-Za-z0-9])"  # "A100 80GB SXM", not "A100 80GB SXM4"
        bare = len(re.findall(whole, text))
        if not bare:
            continue
        named += 1
        where = i18n.strings("scenario", lang)(f"class_{entry.device_class}")  # the catalog's device class
        with_class = text.count(common("hardware_option", name=name, kind=where))
        assert with_class == bare, (name, bare, with_class)
    assert named >= 3  # the typical request and the comparison table's set-ups name several chips


def test_every_value_left_out_of_the_fit_is_listed_with_its_reason(lang, pages):
    """Nothing is dropped silently: each value calibrate leaves out (SUSPECT notes, a source's own scheduling
    artefact, start-up time in a batched-bench prefill) is named on the page with its file, line and reason."""
    at = page_in(lang, pages)
    s = strings(lang)
    report = explain.load_report()
    reasons = {x["reason"] for x in report["excluded"]}
    assert reasons == {"suspect", "source_artefact", "start_up"}
    text = unescape(page_text(at))
    for x in report["excluded"]:
        assert f"{x['file']} {x['line']}" in text or f"{x['file']} line {x['line']}" in text, x
    for reason in reasons:
        assert s(f"excluded_reason_{reason}") in text, reason
