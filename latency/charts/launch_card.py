"""The launch check as a one-page PNG for a meeting: the verdict, the set-up, every figure with its
range, the four stages as a bar, the sentences under the figures and the link that reopens it.

Drawn with Pillow (installed with Streamlit, which depends on it: no new dependency) in the app's own
font, Pretendard (static/, SIL OFL 1.1, read by FreeType from its woff2 file), so Korean renders
without a system font; the colours are the charts' palette (latency/charts/style.py: text 7.6:1 or more
on white, each stage's colour 5:1 or more). Plain data in, PNG bytes out: text arrives in the page's
language, already formatted.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Sequence

from PIL import Image, ImageDraw, ImageFont

from latency.charts.style import BUDGET, HIGHLIGHT, INK, INK_MUTED, STAGE_COLORS

STATIC = Path(__file__).resolve().parents[2] / "static"
FONT_REGULAR = STATIC / "Pretendard-Regular.woff2"
FONT_BOLD = STATIC / "Pretendard-Bold.woff2"
WIDTH = 1240          # px: A4's width at 150 dpi, so the page prints on one sheet
MARGIN = 56
KIND_COLOURS = {"pass": BUDGET, "borderline": INK, "fail": HIGHLIGHT, "no_fit": HIGHLIGHT}  # the words say it too
STAGE_ORDER = ("network", "queue", "prefill", "decode")


NUMBERED = re.compile(r"\d+\. ")
"""A numbered line of the exports ('What to change': "1. ...")."""


def _font(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_BOLD if bold else FONT_REGULAR), size)


def wrap(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Lines of `text` no wider than `width` px, broken between words (Korean too: keep-all, as the
    app's stylesheet does); a single word wider than the line is broken by characters."""
    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if font.getlength(trial) <= width:
                line = trial
                continue
            if line:
                out.append(line)
            while font.getlength(word) > width:  # a URL: break it by characters
                cut = len(word)
                while cut > 1 and font.getlength(word[:cut]) > width:
                    cut -= 1
                out.append(word[:cut])
                word = word[cut:]
            line = word
        out.append(line)
    return out


MD_LINK = re.compile(r"\[([^\]]*)\]\((https?://[^)\s]+)\)")


def plain(text: str) -> str:
    """Markdown taken out, the card is not Markdown: a link "[site](url)" reads "site (url)", emphasis and
    escapes go, and the word joiners that keep a URL from becoming a link on screen too."""
    text = MD_LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", text)
    for mark in ("**", "\\", "\u2060"):
        text = text.replace(mark, "")
    return text


def png(title: str, kind: str, verdict: str, setup: str, rows: Sequence[tuple[str, str, str]],
        stages: Sequence[tuple[str, str, float]], lines: Sequence[str], link: str, footer: str) -> bytes:
    """The card. rows: (figure, value, range or small print); stages: (stage key, its name with its
    time as shown, seconds) in order; lines: the sentences under the figures."""
    h1, h2, body, small = _font(True, 40), _font(True, 26), _font(False, 22), _font(False, 18)
    inner = WIDTH - 2 * MARGIN
    ops: list[tuple] = []  # (kind, y, ...) drawn after the height is known
    y = MARGIN
    ops.append(("text", y, title, h1, INK))
    y += 58
    for line in wrap(plain(verdict), h2, inner - 24):
        ops.append(("verdict", y, line))
        y += 36
    y += 14
    for line in wrap(plain(setup), body, inner):
        ops.append(("text", y, line, body, INK))
        y += 30
    y += 16
    col = inner // 4
    for i in range(0, len(rows), 4):
        # every line of a label and of its small print is drawn: the row is as tall as its longest cell
        # (a small print cut to its first line hid the cost as entered)
        cells = [(MARGIN + j * col, wrap(plain(label), small, col - 16), plain(value),
                  wrap(plain(note), small, col - 16) if note else [])
                 for j, (label, value, note) in enumerate(rows[i:i + 4])]
        label_h = 22 * max(2, *(len(c[1]) for c in cells)) + 2
        notes_n = max(1, *(len(c[3]) for c in cells))
        for x, label_lines, value, note_lines in cells:
            ops.append(("cell", y, x, label_lines, value, note_lines, label_h))
        y += label_h + 40 + 22 * notes_n + 18
    total = sum(t for _, _, t in stages)
    if total > 0:
        ops.append(("bar", y, stages, total, inner))
        y += 44 + 30 * ((len(stages) + 1) // 2)
    for line in lines:
        # a numbered line ("1. ...") and a heading carry their own mark: no bullet before them ("• 1." read oddly)
        own_mark = line.startswith("**") or NUMBERED.match(plain(line)) is not None
        for k, part in enumerate(wrap(plain(line), small, inner - 20)):
            ops.append(("text", y, ("" if own_mark else "• " if k == 0 else "  ") + part, small, INK_MUTED))
            y += 26
        y += 4
    y += 12
    for part in wrap(plain(link), small, inner):
        ops.append(("text", y, part, small, INK))
        y += 26
    for part in wrap(plain(footer), small, inner):
        ops.append(("text", y, part, small, INK_MUTED))
        y += 26
    height = y + MARGIN

    img = Image.new("RGB", (WIDTH, height), "white")
    d = ImageDraw.Draw(img)
    colour = KIND_COLOURS.get(kind, INK)
    verdict_rows = [op for op in ops if op[0] == "verdict"]
    if verdict_rows:
        top, bottom = verdict_rows[0][1] - 8, verdict_rows[-1][1] + 36
        d.rectangle([MARGIN, top, MARGIN + 8, bottom], fill=colour)
    for op in ops:
        if op[0] == "text":
            _, y0, text, font, fill = op
            d.text((MARGIN, y0), text, font=font, fill=fill)
        elif op[0] == "verdict":
            d.text((MARGIN + 24, op[1]), op[2], font=h2, fill=colour)
        elif op[0] == "cell":
            _, y0, x, label_lines, value, note_lines, label_h = op
            for k, part in enumerate(label_lines):
                d.text((x, y0 + 22 * k), part, font=small, fill=INK_MUTED)
            d.text((x, y0 + label_h), value, font=_font(True, 30), fill=INK)
            for k, part in enumerate(note_lines):
                d.text((x, y0 + label_h + 40 + 22 * k), part, font=small, fill=INK_MUTED)
        elif op[0] == "bar":
            _, y0, parts, tot, w = op
            x = MARGIN
            for key, _, t in parts:
                seg = w * t / tot
                if seg >= 1:
                    d.rectangle([x, y0, x + seg, y0 + 24], fill=STAGE_COLORS.get(key, INK))
                x += seg
            for k, (key, name, _) in enumerate(parts):
                lx, ly = MARGIN + (k % 2) * (w // 2), y0 + 36 + 30 * (k // 2)
                d.rectangle([lx, ly + 4, lx + 16, ly + 20], fill=STAGE_COLORS.get(key, INK))
                d.text((lx + 26, ly), name, font=small, fill=INK)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()
