"""Overlapping and clipped text on a rendered page, as a browser sees it.

`text_boxes(page)` collects the box of every visible piece of text in the main area: each line of
each HTML text node (headings, paragraphs, captions, metric labels and values, buttons, widget
labels...) and each chart's SVG text, plotly's and Vega-Lite's (legend items, annotations, axis ticks
and titles, point and bar labels; hover boxes excluded). `problems(boxes)` lists every pair of boxes that overlap by more
than `TOLERANCE_PX` in both directions, and every text that is clipped: a metric whose text is
wider than its box, any text cut with an ellipsis (a select box's value), or a chart text that
sticks out of its chart.
"""

from __future__ import annotations

from dataclasses import dataclass

TOLERANCE_PX = 3.0

_COLLECT = r"""
() => {
  const main = document.querySelector('[data-testid=stMain]');
  const out = [];
  const visible = (el) => {
    for (let e = el; e && e !== main; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || parseFloat(cs.opacity) === 0) return false;
    }
    return true;
  };
  // Hidden by a closed expander or scrolled under the header: not on screen, not checked.
  const headerEl = document.querySelector('[data-testid=stHeader]');
  const headerBottom = headerEl ? headerEl.getBoundingClientRect().bottom : 0;
  // A layer drawn over the page on purpose (position sticky or fixed: the calculator's pinned line on a phone) covers
  // what scrolls under it; neither its text nor what it covers is a collision.
  const layered = (el) => {
    for (let e = el; e && e !== main; e = e.parentElement) {
      const p = getComputedStyle(e).position;
      if (p === 'sticky' || p === 'fixed') return true;
    }
    return false;
  };
  const shown = (el, r) => {
    if (el.closest('details:not([open])') || el.closest('.st-key-app_lang_top') || layered(el)) return false;
    if (r.bottom <= headerBottom + 1) return false;
    for (let e = el.parentElement; e && e !== main; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.overflow === 'visible' && cs.overflowY === 'visible' && cs.overflowX === 'visible') continue;
      const c = e.getBoundingClientRect();
      if (r.right <= c.left || r.left >= c.right || r.bottom <= c.top || r.top >= c.bottom) return false;
    }
    return true;
  };
  // 1. HTML text, line by line
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('svg') || el.closest('[data-testid=stTooltipContent]')) continue;
    if (el.closest('[data-testid=stTooltipIcon]') || !visible(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1 || !shown(el, r)) continue;
      out.push({kind: 'html', text: text.slice(0, 60), x: r.left, y: r.top, w: r.width, h: r.height, owner: -1});
    }
  }
  // 2. chart text (plotly and Vega-Lite SVG), each text element whole, with the chart it belongs to
  const svgs = Array.from(main.querySelectorAll('[data-testid=stPlotlyChart], [data-testid=stVegaLiteChart]'));
  svgs.forEach((plot, i) => {
    const frame = plot.getBoundingClientRect();
    if (frame.width < 1 || !shown(plot, frame)) return;
    out.push({kind: 'chart', text: 'chart ' + i, x: frame.left, y: frame.top, w: frame.width, h: frame.height, owner: i});
    for (const t of plot.querySelectorAll('svg.main-svg text, svg.marks text')) {
      const text = (t.textContent || '').trim();
      if (!text || t.closest('.hoverlayer') || !visible(t)) continue;
      const r = t.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      out.push({kind: 'svg', text: text.slice(0, 60), x: r.left, y: r.top, w: r.width, h: r.height, owner: i});
    }
  });
  // 3. text cut short: metrics wider than their box, and anything cut with an ellipsis (select values...)
  const metrics = '[data-testid=stMetricValue], [data-testid=stMetricLabel], [data-testid=stMetricDelta], [data-testid=stMetricValue] *, [data-testid=stMetricLabel] *, [data-testid=stMetricDelta] *';
  for (const el of main.querySelectorAll('*')) {
    if (!el.matches(metrics) && getComputedStyle(el).textOverflow !== 'ellipsis') continue;
    if (!el.textContent.trim() || !visible(el) || el.clientWidth === 0 || !shown(el, el.getBoundingClientRect())) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      const r = el.getBoundingClientRect();
      out.push({kind: 'clipped', text: el.textContent.trim().slice(0, 60), x: r.left, y: r.top, w: r.width, h: r.height, owner: -1});
    }
  }
  return out;
}
"""


@dataclass(frozen=True)
class Box:
    kind: str   # html | svg | chart | clipped
    text: str
    x: float
    y: float
    w: float
    h: float
    owner: int  # chart index for svg/chart boxes

    def overlap(self, other: "Box") -> tuple[float, float]:
        dx = min(self.x + self.w, other.x + other.w) - max(self.x, other.x)
        dy = min(self.y + self.h, other.y + other.h) - max(self.y, other.y)
        return dx, dy


def text_boxes(page) -> list[Box]:
    return [Box(**b) for b in page.evaluate(_COLLECT)]


def problems(boxes: list[Box], tolerance: float = TOLERANCE_PX) -> list[str]:
    """Human-readable problems: overlapping texts, clipped metrics, chart texts outside their chart."""
    out = [f"clipped: {b.text!r}" for b in boxes if b.kind == "clipped"]
    frames = {b.owner: b for b in boxes if b.kind == "chart"}
    texts = [b for b in boxes if b.kind in ("html", "svg")]
    for b in texts:
        if b.kind == "svg":
            f = frames[b.owner]
            if b.x < f.x - tolerance or b.y < f.y - tolerance or b.x + b.w > f.x + f.w + tolerance \
                    or b.y + b.h > f.y + f.h + tolerance:
                out.append(f"outside its chart: {b.text!r}")
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            dx, dy = a.overlap(b)
            if a.text == b.text and dx >= 0.9 * min(a.w, b.w) and dy >= 0.9 * min(a.h, b.h):
                continue  # one text drawn twice in place (a widget's measuring copy): nothing collides
            if dx > tolerance and dy > tolerance:
                out.append(f"overlap {dx:.0f}x{dy:.0f} px: {a.text!r} / {b.text!r}")
    return out


def main_text(page) -> str:
    """The main area's visible text without the header language button, which names the other
    language in that language ("한국어" on an English screen, like the sidebar switch)."""
    return page.evaluate("""() => {
        const main = document.querySelector('[data-testid=stMain]').cloneNode(true);
        main.querySelectorAll('.st-key-app_lang_top').forEach(e => e.remove());
        document.body.appendChild(main);
        const text = main.innerText;
        main.remove();
        return text; }""")


# Chart labels drawn over a line or curve (issue 23 item 6: "the p50/p95/p99 labels sit on the log
# chart's curve", "the 1 s budget line runs through its own label"). Every stroked line of every chart
# in view (plotly's line traces and line shapes: budget and marker lines; Vega-Lite's line and rule marks)
# is walked every 2 px along its length, in screen coordinates; a point inside a label's box, shrunk by
# LINE_MARGIN_PX (a label placed beside its line may touch it), is a label on a line. Labels: plotly's
# annotations and point texts, Vega-Lite's text marks; not axis ticks, titles or legends, which sit
# outside the plot; nor grid lines. A label inside a bar (the timeline's stage names) is on a fill, not a line.
LINE_MARGIN_PX = 2.0

_LABELS_ON_LINES = r"""
(margin) => {
  const out = [];
  const charts = document.querySelectorAll('[data-testid=stMain] [data-testid=stPlotlyChart], [data-testid=stMain] [data-testid=stVegaLiteChart]');
  for (const chart of charts) {
    if (!chart.offsetParent || chart.closest('details:not([open])')) continue;
    const labels = [...chart.querySelectorAll('g.annotation text, g.textpoint text, g.mark-text text')]
      .filter(t => t.textContent.trim() && getComputedStyle(t).opacity !== '0')
      .map(t => [t.textContent.trim().slice(0, 40), t.getBoundingClientRect()])
      .filter(([, r]) => r.width > 0 && r.height > 0);
    if (!labels.length) continue;
    const strokes = [...chart.querySelectorAll('g.scatterlayer path.js-line, g.shapelayer path, g.mark-line path, g.mark-rule line')]
      .filter(p => !p.closest('.role-axis'))  // axis grid lines and domains: the background, not a line drawn with meaning
      .filter(p => { const cs = getComputedStyle(p);
        const filled = cs.fill && cs.fill !== 'none' && parseFloat(cs.fillOpacity) > 0 && !/rgba\(.*,\s*0\)$/.test(cs.fill);
        return !filled && cs.stroke && cs.stroke !== 'none' && parseFloat(cs.strokeWidth) > 0 && parseFloat(cs.strokeOpacity) > 0 && cs.opacity !== '0'; });
    for (const p of strokes) {
      const ctm = p.getScreenCTM();
      if (!ctm) continue;
      let pts = [];
      if (p.tagName === 'line') {
        const a = new DOMPoint(p.x1.baseVal.value, p.y1.baseVal.value).matrixTransform(ctm);
        const b = new DOMPoint(p.x2.baseVal.value, p.y2.baseVal.value).matrixTransform(ctm);
        const n = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / 2));
        for (let i = 0; i <= n; i++) pts.push([a.x + (b.x - a.x) * i / n, a.y + (b.y - a.y) * i / n]);
      } else {
        const len = p.getTotalLength();
        if (!isFinite(len) || len <= 0) continue;
        for (let l = 0; l <= len; l += 2) { const q = p.getPointAtLength(l); const s = new DOMPoint(q.x, q.y).matrixTransform(ctm); pts.push([s.x, s.y]); }
      }
      for (const [text, r] of labels) {
        const hit = pts.find(([x, y]) => x > r.left + margin && x < r.right - margin && y > r.top + margin && y < r.bottom - margin);
        if (hit) out.push(`${chart.getAttribute('data-testid')}: label ${JSON.stringify(text)} [${Math.round(r.left)}-${Math.round(r.right)} x ${Math.round(r.top)}-${Math.round(r.bottom)}] lies on a line (${(p.closest('g[class]') || p).getAttribute('class')}) at (${Math.round(hit[0])}, ${Math.round(hit[1])})`);
      }
    }
  }
  return [...new Set(out)];
}
"""


def labels_on_lines(page) -> list[str]:
    """Each chart label in view that a drawn line or curve runs through (see `_LABELS_ON_LINES`)."""
    return page.evaluate(_LABELS_ON_LINES, LINE_MARGIN_PX)
