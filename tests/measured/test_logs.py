"""Reading request logs (latency.measured.logs): every sample file, every format by hand, percentiles against
numpy on generated data, and every bad-file case with the reason and place it names."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from latency import LogError, read_latency_log, summarize_latency
from latency.measured import log_samples as S
from latency.measured import logs as L

REQUESTS = S.requests()


# ================================================================================================
# Sample files
# ================================================================================================

@pytest.mark.parametrize("fmt", list(S.SAMPLES))
def test_sample_file_is_what_the_script_writes(fmt):
    """The committed samples are the generator's output (rerun `python -m latency.log_samples`)."""
    assert (S.SAMPLES_DIR / S.SAMPLES[fmt]).read_text(encoding="utf-8") == S.render(fmt, REQUESTS)


@pytest.mark.parametrize("fmt", list(S.SAMPLES))
def test_sample_file_parses_to_the_generated_requests(fmt):
    path = S.SAMPLES_DIR / S.SAMPLES[fmt]
    df, detected = L.read_latency_log_with_format(path)
    assert detected == fmt
    assert list(df.columns) == list(L.COLUMNS)
    rows = REQUESTS[:len(df)]
    assert len(df) == (60 if fmt == "vllm" else S.N)
    e2e = np.array([r["e2e_s"] for r in rows])
    # the end-to-end time of every request, as the generator made it (files round to 0.1 ms / 0.1 ms steps)
    tol = 0.002 + (0.2 * 1e-3 if fmt != "llamacpp" else 0.0)
    if fmt == "llamacpp":  # llama.cpp's predicted_ms counts every generated token: one more step
        e2e = e2e + np.array([r["tpot_s"] for r in rows])
    np.testing.assert_allclose(df["e2e_s"], e2e, atol=tol)
    if fmt != "list":
        np.testing.assert_allclose(df["ttft_s"], [r["ttft_s"] for r in rows], atol=1e-3)
        np.testing.assert_allclose(df["output_tokens"], [r["output_tokens"] for r in rows])
        np.testing.assert_allclose(df["tpot_s"], [r["tpot_s"] for r in rows], rtol=0.02)
    else:
        assert df[["ttft_s", "tpot_s", "output_tokens"]].isna().all().all()
    has_time = fmt in ("csv", "jsonl", "llamacpp")
    assert df["timestamp"].notna().all() == has_time
    if has_time:
        assert df["timestamp"].iloc[0] == pd.Timestamp(int(rows[0]["start"]), unit="s", tz="UTC").floor("s") \
            or abs((df["timestamp"].iloc[0] - pd.Timestamp(rows[0]["start"], unit="s", tz="UTC")).total_seconds()) < 1


def test_import_from_the_package_root():
    import latency

    assert {"read_latency_log", "summarize_latency"} <= set(latency.__all__)
    df = latency.read_latency_log(S.SAMPLES_DIR / S.SAMPLES["csv"])
    assert latency.summarize_latency(df)["count"] == S.N


# ================================================================================================
# Each format by hand
# ================================================================================================

def test_csv_units_in_names_and_derived_values():
    text = b"ttft_ms,tpot_ms,output_tokens,timestamp\n200,20,11,2026-01-01T00:00:00Z\n100,,5,1767225600\n"
    df = read_latency_log(text)
    assert df["ttft_s"].tolist() == [0.2, 0.1]
    assert df["tpot_s"].iloc[0] == pytest.approx(0.02) and math.isnan(df["tpot_s"].iloc[1])
    assert df["e2e_s"].iloc[0] == pytest.approx(0.2 + 10 * 0.02)  # filled: ttft + (n - 1) x tpot
    assert math.isnan(df["e2e_s"].iloc[1])                        # nothing to fill it from
    assert df["timestamp"].tolist() == [pd.Timestamp("2026-01-01", tz="UTC")] * 2


def test_tpot_filled_from_end_to_end():
    df = read_latency_log(b"e2e_s,ttft_s,output_tokens\n2.5,0.5,101\n")
    assert df["tpot_s"].iloc[0] == pytest.approx(2.0 / 100)


def test_jsonl_generic():
    text = b'{"ttft_s": 0.3, "e2e_ms": 1500, "extra": "ignored"}\n\n{"ttft_s": 0.4, "e2e_ms": 2500}\n'
    df, fmt = L.read_latency_log_with_format(text)
    assert fmt == "jsonl" and df["e2e_s"].tolist() == [1.5, 2.5] and df["ttft_s"].tolist() == [0.3, 0.4]


def test_vllm_result_skips_failed_requests():
    result = {"ttfts": [0.1, 0.0, 0.2], "itls": [[0.01, 0.03], [], [0.02]], "input_lens": [5, 5, 5],
              "output_lens": [3, 0, 2], "errors": ["", "timeout", ""]}
    df, fmt = L.read_latency_log_with_format(json.dumps(result).encode())
    assert fmt == "vllm" and len(df) == 2
    assert df["e2e_s"].tolist() == pytest.approx([0.14, 0.22])
    assert df["tpot_s"].tolist() == pytest.approx([0.02, 0.02])
    assert df["output_tokens"].tolist() == [3, 2]


def test_llamacpp_timings():
    lines = [{"content": "hi", "timings": {"prompt_n": 10, "prompt_ms": 120.0, "predicted_n": 50, "predicted_ms": 1000.0,
                                           "predicted_per_token_ms": 20.0}, "created": 1767225600},
             {"timings": {"prompt_ms": 80, "predicted_ms": 400, "predicted_n": 20}}]
    df, fmt = L.read_latency_log_with_format("\n".join(map(json.dumps, lines)).encode())
    assert fmt == "llamacpp"
    assert df["ttft_s"].tolist() == [0.12, 0.08]
    assert df["tpot_s"].tolist() == pytest.approx([0.02, 0.02])  # the second from predicted_ms / predicted_n
    assert df["e2e_s"].tolist() == pytest.approx([1.12, 0.48])
    assert df["timestamp"].iloc[0] == pd.Timestamp("2026-01-01", tz="UTC") and pd.isna(df["timestamp"].iloc[1])


@pytest.mark.parametrize("text, expected", [
    (b"1.5\n2\n0.25\n", [1.5, 2.0, 0.25]),
    (b"e2e_ms\n1500\n250\n", [1.5, 0.25]),
    (b"[1.5, 2, 0.25]", [1.5, 2.0, 0.25]),
])
def test_plain_list(text, expected):
    df, fmt = L.read_latency_log_with_format(text)
    assert fmt == "list" and df["e2e_s"].tolist() == pytest.approx(expected)


def test_a_list_with_a_ttft_header_fills_ttft():
    df = read_latency_log(b"ttft_ms\n100\n300\n", fmt="list")
    assert df["ttft_s"].tolist() == [0.1, 0.3] and df["e2e_s"].isna().all()


def test_bom_and_windows_line_ends():
    df = read_latency_log("\ufeffe2e_s,ttft_s\r\n1.0,0.2\r\n".encode("utf-8"))
    assert df["e2e_s"].tolist() == [1.0]


# ================================================================================================
# Summary: percentiles against numpy on generated data
# ================================================================================================

latencies = st.lists(st.floats(min_value=0.0, max_value=1e4, allow_nan=False, allow_infinity=False), min_size=1, max_size=300)


@settings(max_examples=60, deadline=None)
@given(e2e=latencies, budget=st.floats(min_value=0.0, max_value=1e4))
def test_percentiles_and_budget_share_match_numpy(e2e, budget):
    text = ("e2e_s\n" + "".join(f"{v!r}\n" for v in e2e)).encode()
    summ = summarize_latency(read_latency_log(text, fmt="csv"), budget_s=budget)
    assert summ["count"] == len(e2e)
    for p in (50, 90, 95, 99):
        assert summ[f"e2e_s_p{p}"] == pytest.approx(float(np.percentile(e2e, p)), rel=1e-12, abs=1e-12)
        assert math.isnan(summ[f"ttft_s_p{p}"])
    assert summ["within_budget"] == pytest.approx(sum(v <= budget for v in e2e) / len(e2e))


@settings(max_examples=30, deadline=None)
@given(ttft=latencies)
def test_percentiles_of_every_column_ignore_missing_values(ttft):
    df = pd.DataFrame({"ttft_s": ttft + [math.nan], "tpot_s": math.nan, "e2e_s": math.nan})
    summ = summarize_latency(df)
    assert summ["ttft_s_n"] == len(ttft) and summ["within_budget"] is None
    assert summ["ttft_s_p95"] == pytest.approx(float(np.percentile(ttft, 95)))


def test_hand_computed_percentiles():
    df = read_latency_log(b"1\n2\n3\n4\n5\n")
    summ = summarize_latency(df, budget_s=2)
    # numpy's linear rule on 1..5: p50 = 3, p90 = 1 + 0.9 x 4 = 4.6
    assert summ["e2e_s_p50"] == 3 and summ["e2e_s_p90"] == pytest.approx(4.6) and summ["within_budget"] == 0.4


@pytest.mark.parametrize("budget", [-1, math.nan, "2", True])
def test_bad_budget(budget):
    with pytest.raises(ValueError, match="budget_s"):
        summarize_latency(read_latency_log(b"1\n"), budget_s=budget)


# ================================================================================================
# Bad files: each names the reason and where
# ================================================================================================

ACCEPTED = "ttft_s, ttft_ms, tpot_s, tpot_ms, e2e_s, e2e_ms"  # the documented latency columns (docs/logs-and-measure.md)
BAD = [
    # (id, bytes, fmt, code, line, field)
    ("empty", b"", None, "empty", None, None),
    ("blank", b"  \n\n ", None, "empty", None, None),
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", None, "binary", 3, None),
    ("not utf-8", b"e2e_s\n1.0\n\xff\xfe\n", None, "binary", 3, None),
    ("unknown", b"hello world\nthis is prose\n", None, "unknown_format", 1, None),
    ("no latency column", b"user,model\nann,x\n", None, "missing_column", 1, ACCEPTED),
    ("negative", b"ttft_s\n0.1\n-0.2\n", "csv", "negative", 3, "ttft_s"),
    ("bad timestamp", b"timestamp,e2e_s\nyesterday,1.0\n", None, "bad_timestamp", 2, "timestamp"),
    ("short row", b"ttft_s,e2e_s\n0.1,1.0\n0.2\n", None, "bad_row", 3, None),
    ("header only", b"ttft_s,e2e_s\n", None, "no_rows", None, None),
    ("jsonl broken line", b'{"e2e_s": 1}\n{"e2e_s": 2}\n{"e2e_s": \n', None, "bad_json", 3, None),
    ("jsonl not object", b'{"e2e_s": 1}\n[1, 2]\n', "jsonl", "not_object", 2, None),
    ("jsonl no latency key", b'{"user": "a"}\n', None, "missing_column", 1, ACCEPTED),
    ("jsonl negative", b'{"e2e_s": 1}\n{"e2e_s": -3}\n', None, "negative", 2, "e2e_s"),
    ("list negative", b"1.0\n-2.0\n", None, "negative", 2, "e2e_s"),
    ("vllm missing itls", b'{"ttfts": [0.1], "output_lens": [3]}', None, "missing_field", None, "itls"),
    ("vllm lengths", b'{"ttfts": [0.1, 0.2], "itls": [[0.1]], "output_lens": [2, 2]}', None, "length_mismatch", None, "itls"),
    ("vllm text ttft", b'{"ttfts": ["x"], "itls": [[0.1]], "output_lens": [2]}', None, "not_number", 1, "ttfts[0]"),
    ("vllm negative gap", b'{"ttfts": [0.1], "itls": [[0.1, -0.1]], "output_lens": [3]}', None, "negative", 1, "itls[0][1]"),
    ("vllm all failed", b'{"ttfts": [0], "itls": [[]], "output_lens": [0], "errors": ["boom"]}', None, "no_rows", None, None),
    ("vllm broken json", b'{"ttfts": [0.1], "itls": [[0.1]]', "vllm", "bad_json", 1, None),
    ("llamacpp no timings", b'{"timings": {"prompt_ms": 1, "predicted_ms": 2, "predicted_n": 1}}\n{"content": "x"}\n', None,
     "missing_field", 2, "timings"),
    ("llamacpp missing prompt_ms", b'{"timings": {"predicted_ms": 2, "predicted_n": 1}}\n', None, "missing_field", 1,
     "timings.prompt_ms"),
    ("llamacpp text", b'{"timings": {"prompt_ms": "slow", "predicted_ms": 2, "predicted_n": 1}}\n', None, "not_number", 1,
     "timings.prompt_ms"),
    ("wrong fmt given", b"e2e_s\n1\n", "vllm", "bad_json", 1, None),
    ("unknown fmt", b"e2e_s\n1\n", "xml", "bad_fmt", None, None),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_file_names_reason_and_place(case):
    _, data, fmt, code, line, field = case
    with pytest.raises(LogError) as info:
        read_latency_log(data, fmt=fmt)
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.code, err.line, err.field) == (code, line, field), str(err)
    assert code in str(err)


def test_too_large_bytes_and_path(tmp_path):
    big = b"1\n" * (L.MAX_BYTES // 2 + 1)
    with pytest.raises(LogError) as info:
        read_latency_log(big)
    assert info.value.code == "too_large"
    path = tmp_path / "big.txt"
    path.write_bytes(big)
    with pytest.raises(LogError) as info:
        read_latency_log(path)
    assert info.value.code == "too_large"
    assert len(read_latency_log(big[:L.MAX_BYTES])) == L.MAX_BYTES // 2  # at the limit it reads


def test_a_path_and_its_bytes_read_the_same(tmp_path):
    path = tmp_path / "x.csv"
    path.write_bytes(b"e2e_s,ttft_s\n1,0.5\n")
    pd.testing.assert_frame_equal(read_latency_log(path), read_latency_log(path.read_bytes()))
    pd.testing.assert_frame_equal(read_latency_log(str(path)), read_latency_log(path.read_bytes()))


def test_missing_path_and_wrong_type(tmp_path):
    with pytest.raises(LogError):
        read_latency_log(tmp_path / "nope.csv")
    with pytest.raises(TypeError):
        read_latency_log(123)


def test_every_error_code_has_words_in_both_languages():
    from latency.language import i18n

    table = i18n.load_area("logs")
    for code in LogError.CODES:
        assert f"err_{code}" in table, code


# ================================================================================================
# Real logs as people have them (newcomer trial 2026-12-05): other column names, other separators,
# a cell that is not a number, milliseconds under a seconds name
# ================================================================================================

@pytest.mark.parametrize("data", [b"ttft_ms,e2e_ms\n100,200\n120,fast\n130,timeout\n",
                                  b'{"ttft_ms": 100, "e2e_ms": 200}\n{"ttft_ms": 120, "e2e_ms": "fast"}\n'
                                  b'{"ttft_ms": 130, "e2e_ms": "timeout"}\n'])
def test_cells_that_are_not_numbers_are_left_out_and_counted(data):
    """One "timeout" no longer refuses the file: the value is left out of its figure, counted, and the first one named."""
    df = read_latency_log(data)
    assert len(df) == 3
    assert df["ttft_s"].tolist() == pytest.approx([0.1, 0.12, 0.13])
    assert df["e2e_s"].iloc[0] == pytest.approx(0.2) and df["e2e_s"].iloc[1:].isna().all()
    bad = df.attrs[L.UNREADABLE_KEY]
    assert (bad["count"], bad["line"], bad["field"], bad["value"]) == (2, 2 if data.startswith(b"{") else 3, "e2e_ms", "fast")
    summary = summarize_latency(df, budget_s=1.0)
    assert (summary["count"], summary["e2e_s_n"], summary["ttft_s_n"], summary["within_count"]) == (3, 1, 3, 1)
    # the two whole answers that are not numbers did not finish: within the budget is 1 of 3, not 1 of 1
    assert (summary["within_total"], summary["e2e_s_unreadable"]) == (3, 2) and summary["within_budget"] == pytest.approx(1 / 3)


def test_a_list_with_a_word_in_it_leaves_the_word_out():
    df = read_latency_log(b"1.0\n2.0\nabc\n", fmt="list")
    assert df["e2e_s"].tolist()[:2] == [1.0, 2.0] and len(df) == 3 and math.isnan(df["e2e_s"].iloc[2])
    assert summarize_latency(df, budget_s=5.0)["within_budget"] == pytest.approx(2 / 3)
    assert (df.attrs[L.UNREADABLE_KEY]["count"], df.attrs[L.UNREADABLE_KEY]["line"]) == (1, 3)


def test_a_clean_file_has_nothing_to_say():
    df = read_latency_log(b"ttft_s,e2e_s\n0.3,8.2\n0.5,9.1\n")
    assert L.UNREADABLE_KEY not in df.attrs and L.MS_SUSPECT_KEY not in df.attrs


@pytest.mark.parametrize("header", ["timestamp,time_to_first_token_ms,total_ms,completion_tokens",
                                    "created_at,Time to first token (ms),Latency (ms),output_len",
                                    "start_time,first_token_ms,e2e_latency_ms,generated_tokens"])
def test_common_column_names_with_a_unit_are_read(header):
    df = read_latency_log(f"{header}\n2026-01-01T09:00:00Z,500,3000,101\n".encode())
    row = df.iloc[0]
    assert (row["ttft_s"], row["e2e_s"], row["output_tokens"]) == pytest.approx((0.5, 3.0, 101))
    assert row["tpot_s"] == pytest.approx((3.0 - 0.5) / 100)  # filled from the others, as for the documented names
    assert row["timestamp"] == pd.Timestamp("2026-01-01T09:00:00Z")


def test_a_name_without_its_unit_is_not_guessed():
    with pytest.raises(LogError) as info:
        read_latency_log(b"time,latency\n3,4\n")
    assert info.value.code == "missing_column" and info.value.found == ("time", "latency")


def test_the_missing_column_error_names_every_column_in_full():
    header = "timestamp,time_to_first_tokens,total_milliseconds,user_id,model"
    with pytest.raises(LogError) as info:
        read_latency_log(f"{header}\n1,2,3,4,5\n".encode())
    assert info.value.found == tuple(header.split(","))


@pytest.mark.parametrize("data", [b"ttft_s;e2e_s\n0,61;8,2\n0,5;7\n", b"ttft_s\te2e_s\n0.61\t8.2\n0.5\t7\n",
                                  b"ttft_ms;e2e_ms\n610;8200\n500;7000\n"])
def test_semicolon_and_tab_separated_csv_is_read(data):
    """What a spreadsheet saves where the comma is the decimal mark: cells split by ";" and "0,61" for 0.61."""
    df = read_latency_log(data)
    assert df["ttft_s"].tolist() == pytest.approx([0.61, 0.5]) and df["e2e_s"].tolist() == pytest.approx([8.2, 7.0])


@pytest.mark.parametrize("data, said", [
    (b"ttft_s,e2e_s\n300,8000\n500,9000\n", [("ttft_s", 400.0), ("e2e_s", 8500.0)]),
    (b"ttft_s,e2e_s\n0.3,8\n1,9\n", []),                    # whole seconds, ordinary sizes
    (b"ttft_s,e2e_s\n120.5,300.2\n130.1,310.7\n", []),      # long waits, but with fractions: seconds as written
    (b"ttft_ms,e2e_ms\n300,8000\n500,9000\n", []),          # milliseconds named as such
])
def test_seconds_that_look_like_milliseconds_are_named_and_kept(data, said):
    """Whole numbers with a median of 100 s or more under a seconds name are said to look like milliseconds; the
    values are read as the name says (nothing changed behind the reader's back)."""
    df = read_latency_log(data)
    assert df.attrs.get(L.MS_SUSPECT_KEY, []) == said
    if said:
        assert df["ttft_s"].tolist() == [300.0, 500.0]


def test_a_whole_answer_filled_from_its_parts_is_not_counted_as_unfinished():
    """A "timeout" whole answer with a time per token beside it is worked out (ttft + (n - 1) x tpot), so it is a
    finished request; only the ones left empty count as not finished."""
    df = read_latency_log(b"ttft_s,tpot_s,e2e_s,output_tokens\n0.5,0.01,timeout,101\n0.5,,timeout,101\n")
    assert df["e2e_s"].iloc[0] == pytest.approx(0.5 + 100 * 0.01) and math.isnan(df["e2e_s"].iloc[1])
    assert df.attrs[L.UNREADABLE_KEY]["columns"]["e2e_s"] == 1


def test_times_per_token_worked_out_are_counted():
    df = read_latency_log(b"ttft_ms,e2e_ms,output_tokens\n500,1500,101\n400,,50\n")
    assert df.attrs[L.TPOT_WORKED_KEY] == 1 and summarize_latency(df)["tpot_s_worked_out"] == 1
