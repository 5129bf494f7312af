"""What the launch check's exports (Markdown and PNG) add to set-up A (PM trial item 16): set-up B and the
difference in words when a B is set, and "What to change" when A does not pass. Computed when a PM
downloads, from the same launch checks and lever search the page's tabs use."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from latency.estimation import scenario
from latency.exploring import levers
from latency.exploring.launch import Check
from ui import launch_compare, launch_levers, launch_view


def sections(w: launch_view.Words, c: Check, values: Mapping[str, Any], b_values: Mapping[str, Any] | None,
             evaluate: Callable[..., Check], places: Sequence[Any]) -> list[tuple[str, list[str]]]:
    """(heading, lines) for the exports: B and the difference (when `b_values`), what to change (when A fails)."""
    b = evaluate(b_values) if b_values is not None else None
    change = None
    if not c.passes:
        choices = [d for d in w.data.device_choices if d != scenario.DEVICES_AUTO]
        found, _ = levers.suggest(w.data.catalog, values, w.data.sizes, places, choices,
                                  evaluate=lambda v: evaluate(v, search_users=False))
        change = launch_levers.export_lines(w, c, found)
    diff = launch_compare.difference_text(w, c, b) if b is not None else None
    return launch_view.extra_sections(w, c, b, diff, change)
