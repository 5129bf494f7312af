"""Chart text a reader can see: contrast and size of every SVG text in the page's charts (issue 23).

`chart_texts(page)` measures each visible SVG text (plotly's and Vega-Lite's: ticks, titles, legends,
labels, cell marks) against what is drawn under it, with WCAG 2.x's relative-luminance formula:
white, or the bar it sits in (plotly draws a bar's label in the bar's own group). A white backing
drawn under a label of the same text at the same place (the Vega-Lite halo) is decoration and is
left out; the label on top is measured. `chart_text_problems(texts)` lists every text under 4.5:1
(3:1 for large text: 24 px, or 18.66 px bold; WCAG 1.4.3) or smaller than MIN_FONT_PX.
"""

from __future__ import annotations

from latency.charts.style import MIN_FONT_PX

_MEASURE = r"""
() => {
  // Every visible SVG text of the page's charts with its contrast against what is drawn under it
  // (WCAG 2.x relative luminance). A white "halo" drawn under a label of the same text at the same
  // place (Vega-Lite backing) is decoration and is left out; the label on top is measured.
  function parse(c) { const m = (c || '').match(/rgba?\(([^)]+)\)/); if (!m) return null; const p = m[1].split(',').map(s => parseFloat(s)); return {r:p[0],g:p[1],b:p[2],a:p.length>3?p[3]:1}; }
  function lum(c) { const f = v => { v/=255; return v <= 0.03928 ? v/12.92 : Math.pow((v+0.055)/1.055, 2.4); }; return 0.2126*f(c.r)+0.7152*f(c.g)+0.0722*f(c.b); }
  function over(top, a, under) { return {r: top.r*a + under.r*(1-a), g: top.g*a + under.g*(1-a), b: top.b*a + under.b*(1-a)}; }
  function alpha(el) { let op = 1; let e = el; while (e && e.tagName && e.tagName.toLowerCase() !== 'svg') { const cs = getComputedStyle(e); op *= parseFloat(cs.opacity || '1'); e = e.parentElement; } return op; }
  const texts = [...document.querySelectorAll('svg text')].filter(t => {
    const cs = getComputedStyle(t); const r = t.getBoundingClientRect();
    return (t.textContent || '').trim() && cs.visibility !== 'hidden' && cs.display !== 'none' && r.width > 0 && r.height > 0;
  });
  const key = t => { const r = t.getBoundingClientRect(); return (t.textContent || '').trim() + '@' + Math.round(r.x) + ',' + Math.round(r.y); };
  const seen = new Map(); texts.forEach((t, i) => seen.set(key(t), i));  // the last drawn at a place is on top
  const white = {r: 255, g: 255, b: 255};
  const out = [];
  texts.forEach((t, i) => {
    if (seen.get(key(t)) !== i) return;  // a backing drawn under the same text
    const cs = getComputedStyle(t);
    const fill = parse(cs.fill) || parse(cs.color); if (!fill) return;
    const a = fill.a * parseFloat(cs.fillOpacity || '1') * alpha(t);
    if (a === 0) return;
    const r = t.getBoundingClientRect();
    let bg = white;
    // What is under the text: the last shape drawn before it, in the same chart, whose box holds
    // the text's centre and whose fill is opaque (a bar, a band); otherwise the chart's white.
    // (A plotly heatmap's cells are one raster image: its cell marks are measured against white;
    // RATIO_SCALE in latency/charts/style.py keeps every cell light, checked in test_palette.py.)
    const svg = t.closest('svg');
    const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
    const shapes = svg ? [...svg.querySelectorAll('path, rect')] : [];
    for (let k = shapes.length - 1; k >= 0; k--) {
      const el = shapes[k];
      if (!(el.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;  // drawn after the text
      const b = el.getBoundingClientRect();
      if (b.width === 0 || b.height === 0 || cx < b.left || cx > b.right || cy < b.top || cy > b.bottom) continue;
      const ecs = getComputedStyle(el);
      if (ecs.display === 'none' || ecs.visibility === 'hidden') continue;
      // a path with no fill of its own (a plotly annotation's arrow, a line) paints no area: its computed
      // fill is SVG's default black, which is not drawn under anything
      if (el.tagName.toLowerCase() === 'path' && !el.getAttribute('fill') && !el.style.fill) continue;
      const f = parse(ecs.fill); const fa = f ? f.a * parseFloat(ecs.fillOpacity || '1') * alpha(el) : 0;
      if (f && fa > 0.5) { bg = over(f, fa, white); break; }
    }
    const c = over(fill, a, bg);
    const L1 = lum(c), L2 = lum(bg);
    const ratio = (Math.max(L1, L2) + 0.05) / (Math.min(L1, L2) + 0.05);
    out.push({text: (t.textContent || '').trim().slice(0, 40), ratio: Math.round(ratio * 100) / 100, size: parseFloat(cs.fontSize),
              color: cs.fill, bg: `rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)})`});
  });
  return out;
}
"""


def chart_texts(page) -> list[dict]:
    return page.evaluate(_MEASURE)


def required_ratio(size_px: float, bold: bool = False) -> float:
    """WCAG 1.4.3: 4.5:1, or 3:1 for large text (18 pt = 24 px, or 14 pt = 18.66 px bold)."""
    return 3.0 if size_px >= 24 or (bold and size_px >= 18.66) else 4.5


def chart_text_problems(texts: list[dict]) -> list[str]:
    out = []
    for t in texts:
        if t["ratio"] < required_ratio(t["size"]):
            out.append(f"chart text {t['text']!r} is {t['ratio']}:1 ({t['color']} on {t['bg']}), needs {required_ratio(t['size'])}:1")
        if t["size"] < MIN_FONT_PX:
            out.append(f"chart text {t['text']!r} is {t['size']:g} px, under {MIN_FONT_PX} px")
    return out
