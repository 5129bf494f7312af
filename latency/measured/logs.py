"""Read people's own request-latency logs and summarise them (never imports streamlit).

    from latency import read_latency_log, summarize_latency
    df = read_latency_log("requests.csv")          # a path or the file's bytes; format detected
    summarize_latency(df, budget_s=2.0)            # {"count": ..., "e2e_s_p95": ..., "within_budget": ...}

`read_latency_log` returns one row per request with the columns of `COLUMNS`:

    ttft_s         time to first token, seconds
    tpot_s         time per output token after the first, seconds
    e2e_s          end-to-end latency of the request, seconds
    output_tokens  tokens generated
    timestamp      when the request was sent (pandas datetime, UTC)

NaN (NaT for the timestamp) where a format does not carry a value. Formats (docs/logs-and-measure.md):

    csv       generic CSV: a header row with any of GENERIC_COLUMNS (units in the names)
    jsonl     the same fields, one JSON object a line
    vllm      the JSON that vLLM's serving benchmark writes with --save-result
              (per request: ttfts and itls in seconds, input_lens, output_lens)
    llamacpp  llama.cpp server responses, one JSON object a line, with their `timings` object
    list      a plain list of end-to-end latencies: one number a line (seconds, or a first line
              naming the unit: e2e_s / e2e_ms / ...) or a JSON array of numbers (seconds)

Every problem raises `LogError` (a ValueError) whose `code` names the reason and whose `line` and
`field` say where, so the app can say it in the reader's language.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

COLUMNS = ("ttft_s", "tpot_s", "e2e_s", "output_tokens", "timestamp")
LATENCY_COLUMNS = ("ttft_s", "tpot_s", "e2e_s")
FORMATS = ("csv", "jsonl", "vllm", "llamacpp", "list")
PERCENTILES = (50, 90, 95, 99)
MAX_BYTES = 5 * 1024 * 1024
"""The largest file read (5 MiB): tens of thousands of requests, small enough for one page run."""

# Generic CSV / JSONL columns: name -> (output column, factor to seconds or 1 for counts).
GENERIC_COLUMNS: dict[str, tuple[str, float]] = {
    "ttft_s": ("ttft_s", 1.0), "ttft_ms": ("ttft_s", 1e-3),
    "tpot_s": ("tpot_s", 1.0), "tpot_ms": ("tpot_s", 1e-3),
    "e2e_s": ("e2e_s", 1.0), "e2e_ms": ("e2e_s", 1e-3),
    "output_tokens": ("output_tokens", 1.0),
}
TIMESTAMP_COLUMN = "timestamp"
ALIASES: dict[str, str] = {
    **{f"{name}_{u}": f"ttft_{u}" for name in ("time_to_first_token", "first_token", "first_token_latency") for u in ("s", "ms")},
    **{f"{name}_{u}": f"tpot_{u}" for name in ("time_per_output_token", "itl", "inter_token_latency", "time_per_token")
       for u in ("s", "ms")},
    **{f"{name}_{u}": f"e2e_{u}" for name in ("total", "total_time", "latency", "e2e_latency", "end_to_end",
                                               "end_to_end_latency", "duration", "response_time", "elapsed")
       for u in ("s", "ms")},
    **{name: "output_tokens" for name in ("completion_tokens", "output_len", "output_length", "generated_tokens",
                                          "num_output_tokens")},
    **{name: TIMESTAMP_COLUMN for name in ("created_at", "start_time", "request_time", "sent_at", "datetime")},
}
"""Other names a log's columns (or JSON keys) commonly have, each read as the documented column it names (newcomer
trial 2026-12-05: a PM's own CSV had `time_to_first_token_ms` and `total_ms` and was refused). Each carries its unit
in the name as the documented ones do; a bare "time" or "latency" is not read (seconds or milliseconds?)."""
LIST_UNITS = {k: v for k, v in GENERIC_COLUMNS.items() if k != "output_tokens"}
"""A plain list may start with one of these names as its header (its unit); without one: e2e seconds."""


class LogError(ValueError):
    """A log file the app cannot read. code: the reason (see CODES); line: 1-based line in the file
    (or record number for vLLM's arrays); field: the column or JSON key; value: the offending text."""

    CODES = ("too_large", "binary", "empty", "unknown_format", "bad_fmt", "bad_json", "not_object",
             "missing_column", "missing_field", "not_number", "negative", "bad_timestamp", "no_rows",
             "length_mismatch", "bad_row")

    def __init__(self, code: str, detail: str, *, line: int | None = None, field: str | None = None,
                 value: Any = None, found: tuple[str, ...] = ()) -> None:
        self.code, self.detail, self.line, self.field = code, detail, line, field
        self.value = None if value is None else str(value)[:40]
        self.found = tuple(found)  # missing_column: every column name the file has, in full
        where = ", ".join(p for p in (f"line {line}" if line else "", f"field {field!r}" if field else "") if p)
        super().__init__(f"{code}: {detail}" + (f" ({where})" if where else ""))


# --------------------------------------------------------------------------------------------
# Bytes -> text -> format
# --------------------------------------------------------------------------------------------

def _read_bytes(source: Any) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif isinstance(source, (str, Path)):
        path = Path(source)
        if not path.is_file():
            raise LogError("empty", f"no file at {path}")
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise LogError("too_large", f"{size:,} bytes; the limit is {MAX_BYTES:,} bytes", value=size)
        data = path.read_bytes()
    else:
        raise TypeError(f"source must be a path or bytes, got {type(source).__name__}")
    if len(data) > MAX_BYTES:
        raise LogError("too_large", f"{len(data):,} bytes; the limit is {MAX_BYTES:,} bytes", value=len(data))
    return data


def _decode(data: bytes) -> str:
    if b"\x00" in data[:8192]:
        raise LogError("binary", "the file contains NUL bytes: not a text file", line=data[:data.index(b'\x00')].count(b"\n") + 1)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise LogError("binary", f"byte {err.start} is not UTF-8 text", line=line) from None
    if not text.strip():
        raise LogError("empty", "the file is empty")
    return text


def column_name(name: Any) -> str:
    """A column's name as the readers match it: lower case, every run of other characters than letters and digits
    one "_" ("Time to first token (ms)" -> "time_to_first_token_ms"), and an alias (ALIASES) as what it names."""
    key = "_".join(re.findall(r"[0-9a-z]+", str(name).lower()))
    return ALIASES.get(key, key)


def csv_delimiter(first_line: str) -> str:
    """The cells' separator of a CSV by its header line: a comma, else a semicolon (what spreadsheets save where a
    comma is the decimal mark) or a tab, whichever the header has."""
    if "," in first_line:
        return ","
    return max((";", "\t"), key=first_line.count) if (";" in first_line or "\t" in first_line) else ","


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def detect_format(text: str) -> str:
    """The format of a log's text (see the module docstring), or LogError("unknown_format")."""
    stripped = text.lstrip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if stripped.startswith("[") or (stripped.startswith("{") and len(lines) == 1):
        try:
            whole = json.loads(text)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict):
            if "ttfts" in whole or "itls" in whole:
                return "vllm"
            return "llamacpp" if "timings" in whole else "jsonl"
        if isinstance(whole, list):
            if all(isinstance(x, dict) for x in whole) and whole:
                return "llamacpp" if "timings" in whole[0] else "jsonl"
            return "list"
    if stripped.startswith("{"):
        try:
            first = json.loads(lines[0])
        except json.JSONDecodeError:
            first = None
        if isinstance(first, dict):
            if "ttfts" in first:
                return "vllm"
            return "llamacpp" if "timings" in first else "jsonl"
        return "vllm" if '"ttfts"' in text[:4096] else "jsonl"
    body = lines[1:] if lines and not _is_number(lines[0]) else lines
    delimiter = csv_delimiter(lines[0])
    if lines and delimiter not in lines[0] and all(_is_number(ln) for ln in body[:50]) and body:
        return "list"
    header = {column_name(c) for c in lines[0].split(delimiter)}
    if delimiter in lines[0] or header & (set(GENERIC_COLUMNS) | {TIMESTAMP_COLUMN}):
        return "csv"  # with or without the documented columns: the reader names what is missing
    raise LogError("unknown_format", "not CSV, JSONL, vLLM benchmark JSON, llama.cpp responses or a list of numbers",
                   line=1, value=lines[0][:40])


# --------------------------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------------------------

def _number(value: Any, line: int | None, field: str, *, allow_missing: bool = True) -> float:
    """A non-negative finite number, NaN for an empty cell, or LogError naming line and field."""
    if value is None or (isinstance(value, str) and not value.strip()):
        if allow_missing:
            return math.nan
        raise LogError("missing_field", "no value", line=line, field=field)
    if isinstance(value, bool):
        raise LogError("not_number", f"{value!r} is not a number", line=line, field=field, value=value)
    if isinstance(value, (int, float)):
        v = float(value)
    else:
        try:
            v = float(str(value).strip())
        except ValueError:
            raise LogError("not_number", f"{value!r} is not a number", line=line, field=field, value=value) from None
    if not math.isfinite(v):
        raise LogError("not_number", f"{value!r} is not a finite number", line=line, field=field, value=value)
    if v < 0:
        raise LogError("negative", f"{value!r} is negative", line=line, field=field, value=value)
    return v


def _timestamp(value: Any, line: int | None, field: str) -> pd.Timestamp:
    """ISO 8601 text or Unix seconds -> UTC timestamp; NaT for an empty cell."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return pd.NaT
    try:
        if isinstance(value, (int, float)) and not isinstance(value, bool) or _is_number(str(value)):
            ts = pd.Timestamp(float(value), unit="s", tz="UTC")
        else:
            ts = pd.Timestamp(str(value).strip())
            ts = ts.tz_localize("UTC") if ts.tzinfo is None else ts.tz_convert("UTC")
    except (ValueError, TypeError, OverflowError):
        raise LogError("bad_timestamp", f"{value!r} is not a date-time (ISO 8601) or Unix seconds",
                       line=line, field=field, value=value) from None
    if pd.isna(ts):
        raise LogError("bad_timestamp", f"{value!r} is not a date-time", line=line, field=field, value=value)
    return ts


def _frame(rows: list[dict], notes: dict | None = None) -> pd.DataFrame:
    """Rows -> the documented columns; fills TPOT or end-to-end from the others where possible:
    e2e = ttft + (output_tokens - 1) x tpot, tpot = (e2e - ttft) / (output_tokens - 1). `notes` become the frame's
    attrs, with the unreadable cells that are still empty after the filling counted per column
    (attrs[UNREADABLE_KEY]["columns"]: a whole answer that is "timeout" is a request that did not finish)."""
    if not rows:
        raise LogError("no_rows", "the file has no requests")
    df = pd.DataFrame(rows, columns=list(COLUMNS))
    bad_cells = [(i, r[BAD_CELLS]) for i, r in enumerate(rows) if BAD_CELLS in r]  # few: no set per row
    for col in LATENCY_COLUMNS + ("output_tokens",):
        df[col] = pd.to_numeric(df[col], errors="coerce").astype(float)
    df["timestamp"] = pd.to_datetime(df["timestamp"], utc=True)
    n = df["output_tokens"]
    steps = n - 1
    fill_e2e = df["e2e_s"].isna() & df["ttft_s"].notna() & df["tpot_s"].notna() & (steps >= 0)
    df.loc[fill_e2e, "e2e_s"] = df["ttft_s"] + steps * df["tpot_s"]
    fill_tpot = df["tpot_s"].isna() & df["ttft_s"].notna() & df["e2e_s"].notna() & (steps >= 1)
    df.loc[fill_tpot, "tpot_s"] = ((df["e2e_s"] - df["ttft_s"]) / steps).clip(lower=0.0)
    df.attrs.update(notes or {})
    if UNREADABLE_KEY in df.attrs:
        df.attrs[UNREADABLE_KEY] = dict(df.attrs[UNREADABLE_KEY], columns={
            col: int(sum(1 for i, cells in bad_cells if col in cells and pd.isna(df.at[i, col])))
            for col in LATENCY_COLUMNS + ("output_tokens",)})
    if int(fill_tpot.sum()):
        df.attrs[TPOT_WORKED_KEY] = int(fill_tpot.sum())
    return df


# --------------------------------------------------------------------------------------------
# Readers, one per format
# --------------------------------------------------------------------------------------------

UNREADABLE_KEY = "unreadable"
"""df.attrs key: cells of a latency or token column that are not numbers ("timeout", "error", "n/a"), left out of
their figure and counted: {"count", "line", "field", "value"} (the first one). Real logs have them (newcomer trial
2026-12-05: one "timeout" refused a whole file)."""
MS_SUSPECT_KEY = "seconds_like_ms"
"""df.attrs key: [(column, median)] for seconds columns whose every value is a whole number and whose median is at
least SECONDS_LIKE_MS_MEDIAN: most likely milliseconds under a seconds name (the page says so; nothing is changed)."""
SECONDS_LIKE_MS_MEDIAN = {"ttft_s": 100.0, "e2e_s": 100.0, "tpot_s": 10.0}
"""Medians, in seconds, that no interactive service's log has: a first token or a whole answer typically over 100 s,
10 s a token. Whole numbers that large are the same log in milliseconds (300 ms first tokens written as 300)."""
BAD_CELLS = "_bad"  # a row's key (not a column): the columns whose cell was not a number (`_frame` counts them)
TPOT_WORKED_KEY = "tpot_worked_out"
"""df.attrs key: how many times per token were worked out from the whole answer, the first token and the answer's
tokens (the log had none for them): the page says so."""
DECIMAL_COMMA = re.compile(r"\s*-?\d+,\d+\s*")


def _generic_row(record: dict, line: int, notes: dict, decimal_comma: bool = False) -> dict:
    """One CSV row or JSON object -> the documented columns. A cell that is not a number is left out and counted
    (notes[UNREADABLE_KEY]); a negative one is an error. decimal_comma: "0,61" is 0.61 (a semicolon CSV)."""
    row: dict[str, Any] = {}
    for key, value in record.items():
        name = column_name(key)
        if name in GENERIC_COLUMNS:
            col, factor = GENERIC_COLUMNS[name]
            if decimal_comma and isinstance(value, str) and DECIMAL_COMMA.fullmatch(value):
                value = value.replace(",", ".")
            try:
                v = _number(value, line, str(key))
            except LogError as err:
                if err.code != "not_number":
                    raise
                bad = notes.setdefault(UNREADABLE_KEY, dict(count=0, line=line, field=str(key), value=err.value))
                bad["count"] += 1
                row.setdefault(BAD_CELLS, set()).add(col)
                v = math.nan
            if not math.isnan(v) or col not in row:  # two names for one column: the first value given counts
                row[col] = v * factor
        elif name == TIMESTAMP_COLUMN:
            row["timestamp"] = _timestamp(value, line, str(key))
    return row


def _need_columns(names: list[str], line: int) -> None:
    known = [n for n in (column_name(x) for x in names) if n in GENERIC_COLUMNS and n != "output_tokens"]
    if not known:
        accepted = ", ".join(n for n in GENERIC_COLUMNS if n != "output_tokens")
        raise LogError("missing_column", f"no latency column; expected one of: {accepted}", line=line,
                       field=accepted, value=",".join(map(str, names))[:40], found=tuple(str(n) for n in names))


def _seconds_like_ms(rows: list[dict], names: list[str], notes: dict) -> None:
    """Note the seconds columns whose values look like milliseconds (MS_SUSPECT_KEY)."""
    for name in names:
        key = column_name(name)
        col = GENERIC_COLUMNS.get(key, ("", 0.0))[0]
        if col not in SECONDS_LIKE_MS_MEDIAN or not key.endswith("_s"):
            continue
        values = [r[col] for r in rows if col in r and math.isfinite(r[col])]
        if values and all(v == int(v) for v in values) and float(np.median(values)) >= SECONDS_LIKE_MS_MEDIAN[col]:
            notes.setdefault(MS_SUSPECT_KEY, []).append((str(name), float(np.median(values))))


def _read_csv(text: str, notes: dict) -> list[dict]:
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    delimiter = csv_delimiter(first)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows, header = [], None
    for i, cells in enumerate(reader, start=1):
        if not any(c.strip() for c in cells):
            continue
        if header is None:
            header = [c.strip() for c in cells]
            _need_columns(header, i)
            continue
        if len(cells) != len(header):
            raise LogError("bad_row", f"{len(cells)} cells where the header has {len(header)}", line=reader.line_num,
                           value=len(cells))
        rows.append(_generic_row(dict(zip(header, cells)), reader.line_num, notes, decimal_comma=delimiter == ";"))
    _seconds_like_ms(rows, header or [], notes)
    return rows


def _json_array(text: str) -> list | None:
    """The items of a text that is one JSON array (a lone JSON value counts as one item), or None
    when the text does not start with "["; a broken array is a named LogError with its line."""
    stripped = text.strip()
    if not stripped.startswith("["):
        return None
    try:
        items = json.loads(stripped)
    except json.JSONDecodeError as err:
        raise LogError("bad_json", err.msg, line=err.lineno) from None
    return items if isinstance(items, list) else [items]


def _json_lines(text: str) -> list[tuple[int, Any]]:
    """(line number, parsed value) for every non-empty line of a JSON Lines text (or the items of one
    JSON array of objects)."""
    items = _json_array(text)
    if items is not None:
        return list(enumerate(items, start=1))
    out = []
    for i, ln in enumerate(text.splitlines(), start=1):
        if not ln.strip():
            continue
        try:
            out.append((i, json.loads(ln)))
        except json.JSONDecodeError as err:
            raise LogError("bad_json", err.msg, line=i, value=ln.strip()[:40]) from None
    return out


def _read_jsonl(text: str, notes: dict) -> list[dict]:
    items = _json_lines(text)
    rows = []
    for i, obj in items:
        if not isinstance(obj, dict):
            raise LogError("not_object", "expected a JSON object", line=i, value=json.dumps(obj)[:40])
        rows.append(_generic_row(obj, i, notes))
    if items:
        keys = sorted({k for _, o in items for k in o})
        _need_columns(keys, items[0][0])
        _seconds_like_ms(rows, keys, notes)
    return rows


def _read_llamacpp(text: str, notes: dict) -> list[dict]:
    """llama.cpp server responses (/completion or /v1/chat/completions), one a line. TTFT is the
    server's prompt time (prompt_ms); TPOT predicted_per_token_ms (else predicted_ms / predicted_n);
    end-to-end prompt_ms + predicted_ms; timestamp `created` (Unix seconds) when present. All
    server-side: no network."""
    rows = []
    for i, obj in _json_lines(text):
        if not isinstance(obj, dict):
            raise LogError("not_object", "expected a JSON object", line=i, value=json.dumps(obj)[:40])
        t = obj.get("timings")
        if not isinstance(t, dict):
            raise LogError("missing_field", "no `timings` object", line=i, field="timings")
        prompt_ms = _number(t.get("prompt_ms"), i, "timings.prompt_ms", allow_missing=False)
        pred_ms = _number(t.get("predicted_ms"), i, "timings.predicted_ms", allow_missing=False)
        n = _number(t.get("predicted_n"), i, "timings.predicted_n", allow_missing=False)
        per_tok = _number(t.get("predicted_per_token_ms"), i, "timings.predicted_per_token_ms")
        if math.isnan(per_tok):
            per_tok = pred_ms / n if n > 0 else math.nan
        rows.append(dict(ttft_s=prompt_ms / 1e3, tpot_s=per_tok / 1e3, e2e_s=(prompt_ms + pred_ms) / 1e3,
                         output_tokens=n, timestamp=_timestamp(obj.get("created"), i, "created")))
    return rows


def _read_vllm(text: str, notes: dict) -> list[dict]:
    """vLLM serving benchmark result (--save-result): per-request arrays. Failed requests (an error
    text, or no output) are skipped, as vLLM's own summary does. TTFT = ttfts[i]; end-to-end =
    ttft + sum(itls[i]); TPOT = sum(itls[i]) / (output_lens[i] - 1)."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        raise LogError("bad_json", err.msg, line=err.lineno) from None
    if not isinstance(obj, dict):
        raise LogError("not_object", "expected one JSON object with ttfts, itls, output_lens", line=1)
    for key in ("ttfts", "itls", "output_lens"):
        if not isinstance(obj.get(key), list):
            raise LogError("missing_field", f"no `{key}` list", field=key)
    n = len(obj["ttfts"])
    for key in ("itls", "output_lens", "input_lens", "errors"):
        if isinstance(obj.get(key), list) and len(obj[key]) != n:
            raise LogError("length_mismatch", f"{len(obj[key])} entries where ttfts has {n}", field=key,
                           value=len(obj[key]))
    errors = obj.get("errors") if isinstance(obj.get("errors"), list) else [""] * n
    rows = []
    for i in range(n):
        out_len = _number(obj["output_lens"][i], i + 1, f"output_lens[{i}]", allow_missing=False)
        if errors[i] or out_len == 0:
            continue
        ttft = _number(obj["ttfts"][i], i + 1, f"ttfts[{i}]", allow_missing=False)
        itls = obj["itls"][i]
        if not isinstance(itls, list):
            raise LogError("not_number", "expected a list of seconds", line=i + 1, field=f"itls[{i}]", value=itls)
        gaps = [_number(x, i + 1, f"itls[{i}][{j}]", allow_missing=False) for j, x in enumerate(itls)]
        decode = float(sum(gaps))
        rows.append(dict(ttft_s=ttft, tpot_s=decode / (out_len - 1) if out_len > 1 else math.nan,
                         e2e_s=ttft + decode, output_tokens=out_len, timestamp=pd.NaT))
    return rows


def _read_list(text: str, notes: dict) -> list[dict]:
    items = _json_array(text)
    if items is not None:
        return [dict(e2e_s=_number(x, i, "e2e_s", allow_missing=False)) for i, x in enumerate(items, start=1)]
    col, factor, rows = "e2e_s", 1.0, []
    for i, ln in enumerate(text.splitlines(), start=1):
        cell = ln.strip()
        if not cell:
            continue
        if not rows and not _is_number(cell) and cell.lower() in LIST_UNITS and col == "e2e_s" and factor == 1.0:
            col, factor = LIST_UNITS[cell.lower()]
            continue
        try:
            rows.append({col: _number(cell, i, col, allow_missing=False) * factor})
        except LogError as err:  # "timeout" in a list: left out and counted, as in a CSV
            if err.code != "not_number":
                raise
            bad = notes.setdefault(UNREADABLE_KEY, dict(count=0, line=i, field=col, value=err.value))
            bad["count"] += 1
            rows.append({col: math.nan, BAD_CELLS: {col}})  # a request with no time: counted, as in a CSV
    return rows


_READERS = {"csv": _read_csv, "jsonl": _read_jsonl, "vllm": _read_vllm, "llamacpp": _read_llamacpp, "list": _read_list}


def read_latency_log(source: Any, fmt: str | None = None) -> pd.DataFrame:
    """A request log (path or bytes) -> DataFrame with COLUMNS, one row per request.

    fmt: one of FORMATS, or None to detect it. Raises LogError (a ValueError) naming the reason
    and, where there is one, the line and field.
    """
    return read_latency_log_with_format(source, fmt)[0]


def read_latency_log_with_format(source: Any, fmt: str | None = None) -> tuple[pd.DataFrame, str]:
    """Like read_latency_log, also returning the format read (for the page to say which it saw)."""
    if fmt is not None and fmt not in FORMATS:
        raise LogError("bad_fmt", f"fmt must be one of {', '.join(FORMATS)} or None", value=fmt)
    text = _decode(_read_bytes(source))
    fmt = fmt or detect_format(text)
    notes: dict = {}
    rows = _READERS[fmt](text, notes)
    return _frame(rows, notes), fmt  # what was left out or looks wrong (attrs: UNREADABLE_KEY, MS_SUSPECT_KEY ...)


# --------------------------------------------------------------------------------------------
# Summary
# --------------------------------------------------------------------------------------------

def summarize_latency(df: pd.DataFrame, budget_s: float | None = None) -> dict[str, float]:
    """count (rows); for each of ttft_s, tpot_s, e2e_s: `<col>_n` (rows with a value) and
    `<col>_p50/_p90/_p95/_p99` (numpy's default linear-interpolation percentiles, NaN when the
    column has no values); within_budget: the share of e2e_s values at or under budget_s (NaN when
    there are none; None without a budget), within_count their number and within_total what they are out of (with a
    budget): a whole-answer cell that was not a number ("timeout", e2e_s_unreadable) counts as not within, and
    tpot_s_worked_out how many times per token the reader worked out from the other columns."""
    missing = [c for c in LATENCY_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"missing columns: {', '.join(missing)}")
    out: dict[str, Any] = {"count": int(len(df)), "tpot_s_worked_out": int(df.attrs.get(TPOT_WORKED_KEY, 0)),
                           "e2e_s_unreadable": int(df.attrs.get(UNREADABLE_KEY, {}).get("columns", {}).get("e2e_s", 0))}
    for col in LATENCY_COLUMNS:
        values = pd.to_numeric(df[col], errors="coerce").to_numpy(dtype=float)
        values = values[np.isfinite(values)]
        out[f"{col}_n"] = int(values.size)
        qs = np.percentile(values, PERCENTILES) if values.size else [math.nan] * len(PERCENTILES)
        for p, q in zip(PERCENTILES, qs):
            out[f"{col}_p{p}"] = float(q)
    if budget_s is None:
        out["within_budget"] = None
    else:
        if isinstance(budget_s, bool) or not isinstance(budget_s, (int, float)) or not math.isfinite(budget_s) or budget_s < 0:
            raise ValueError(f"budget_s must be a non-negative finite number, got {budget_s!r}")
        e2e = pd.to_numeric(df["e2e_s"], errors="coerce").to_numpy(dtype=float)
        e2e = e2e[np.isfinite(e2e)]
        total = e2e.size + out["e2e_s_unreadable"]  # a "timeout" did not finish within any budget
        out["within_count"] = int(np.sum(e2e <= budget_s))
        out["within_total"] = int(total)
        out["within_budget"] = out["within_count"] / total if total else math.nan
    return out
