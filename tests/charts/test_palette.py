"""The one palette (latency/charts/style.py, issue 23 item 2): every colour a chart or the stylesheet
draws text or meaning in reaches WCAG 2.2 AA contrast, computed here with WCAG's own formula, and no
chart module or UI section writes a colour of its own."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

import pytest

from latency.charts import style
from latency.charts import tradeoffs as CT

ROOT = Path(__file__).resolve().parents[2]
WHITE = "#ffffff"


def _rgb(hex_color: str) -> tuple[float, float, float]:
    h = hex_color.lstrip("#")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))


def luminance(hex_color: str) -> float:
    """WCAG 2.x relative luminance (https://www.w3.org/TR/WCAG22/#dfn-relative-luminance)."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in _rgb(hex_color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_formula_on_known_pairs():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic just-fails grey
    assert contrast("#808495", "#ffffff") == pytest.approx(3.72, abs=0.01)  # Streamlit's chart-axis grey


TEXT_COLOURS = {"INK": style.INK, "INK_MUTED": style.INK_MUTED, "LINE_MUTED": style.LINE_MUTED,
                "HIGHLIGHT": style.HIGHLIGHT, "BUDGET": style.BUDGET, "NOFIT": style.NOFIT, "TOTAL": style.TOTAL,
                **{f"stage {k}": v for k, v in style.STAGE_COLORS.items()}}


@pytest.mark.parametrize("name", sorted(TEXT_COLOURS))
def test_text_colours_read_on_white(name):
    """Each of these colours labels something in text (budget labels, stage names, the current point's label)."""
    assert contrast(TEXT_COLOURS[name], WHITE) >= 4.5, (name, round(contrast(TEXT_COLOURS[name], WHITE), 2))


@pytest.mark.parametrize("stage", sorted(style.STAGE_COLORS))
def test_white_text_inside_a_stage_bar_reads(stage):
    assert contrast(WHITE, style.STAGE_COLORS[stage]) >= 4.5


@pytest.mark.parametrize("colour", style.PRECISION_COLORS)
def test_marks_that_carry_meaning_stand_out(colour):
    """WCAG 1.4.11: 3:1 for graphical objects needed to understand the chart."""
    assert contrast(colour, WHITE) >= 3.0


@pytest.mark.parametrize("stop", [c for _, c in style.RATIO_SCALE])
def test_budget_map_cell_marks_read_on_every_cell(stop):
    assert contrast(style.INK, stop) >= 4.5, stop
    assert contrast(style.INK, style.NOFIT_FILL) >= 4.5


def test_budget_map_says_pass_or_fail_in_text():
    import numpy as np

    ratio = np.array([[0.5, 2.0], [np.nan, 1.0]])
    spec = CT.budget_heatmap_spec(ratio, x_labels=["a", "b"], y_labels=["r1", "r2"], hover=[["", ""], ["", ""]],
                                  marks=[], names={"x_title": "x", "colorbar": "c", "nofit": "n"})
    cells = next(t for t in spec["data"] if t.get("texttemplate"))["text"]
    assert cells == [["✓", "✕"], ["", "✓"]]


def test_caption_and_theme_colours():
    assert contrast(style.INK_MUTED, WHITE) >= 4.5  # ui/style.py captions
    theme = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))["theme"]
    assert contrast(theme["primaryColor"], WHITE) >= 4.5
    # Streamlit draws a selected segmented control / pill in the primary colour on a ~10 % tint of it
    tint = "#" + "".join(f"{round(255 - (255 - int(c * 255)) * 0.12):02x}" for c in _rgb(theme["primaryColor"]))
    assert contrast(theme["primaryColor"], tint) >= 4.5, tint


HEX = re.compile(r"#[0-9a-fA-F]{6}\b")


def colour_literals(path: Path) -> list[str]:
    """Hex colours written as string values in the code (docstrings and comments left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [f"{path.relative_to(ROOT)}:{n.lineno}: {n.value!r}" for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs and HEX.search(n.value)]


def test_no_colour_is_written_outside_the_palette():
    """A new chart takes its colours from latency/charts/style.py, so the checks above cover it."""
    found = [hit for folder in ("latency", "ui", "pages") for path in sorted((ROOT / folder).rglob("*.py"))
             if path != ROOT / "latency" / "charts" / "style.py" for hit in colour_literals(path)]
    assert found == []


def test_the_scan_finds_a_written_colour(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    f = tmp_path / "chart.py"
    f.write_text('"""Doc #123456."""\nLINE = "#94a3b8"  # grey #abcdef\n', encoding="utf-8")
    assert colour_literals(f) == ["chart.py:2: '#94a3b8'"]
