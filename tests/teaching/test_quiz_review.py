"""Each quiz question's review link points to the lesson step that shows its set-up (learner trial, issue 34)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml


# --- each question's "review" link goes to the step that shows its set-up ---------------------------------
_SETUP_FIELDS = ("model", "hardware", "distance", "users")
_LESSON_RAW = yaml.safe_load((Path(__file__).resolve().parents[2] / "content" / "lesson.yaml").read_text(encoding="utf-8"))


def _shows(step: dict, sc: dict, field: str) -> bool:
    """A step shows a set-up input when its own scenario has that value, or its one interaction varies that input
    and offers the value (read from content/lesson.yaml by hand, not through latency.teaching.lesson)."""
    own = (step.get("scenario") or {}).get(field, 1 if field == "users" else None)
    value = sc.get(field, 1 if field == "users" else None)
    return value == own or (step["widget"] == field and value in (step.get("options") or []))


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parents[2] / "content" / "quiz").glob("*.yaml")),
                         ids=lambda p: p.stem)
def test_every_questions_review_link_goes_to_the_step_that_shows_its_set_up(path):
    """Learner trial: a wrong answer to Q12 (an L4) pointed back to step 1, where an H100 runs; step 5 shows the
    L4. A one-set-up question reviews a step that shows its model, chip, place and users; a two-set-up question
    reviews the step whose interaction varies an input the two differ in, offering both values."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    step = next(s for s in _LESSON_RAW["steps"] if s["id"] == raw["review_step"])
    sides = [raw["scenario"]] if "scenario" in raw else [o["scenario"] for o in raw["options"] if o.get("scenario")]
    if len(sides) == 1:
        assert all(_shows(step, sides[0], f) for f in _SETUP_FIELDS), (path.stem, step["id"], sides[0])
    else:
        differ = [f for f in _SETUP_FIELDS if len({str(sc.get(f)) for sc in sides}) > 1]
        assert step["widget"] in differ and all(sc.get(step["widget"]) in step["options"] for sc in sides), (
            path.stem, step["id"], differ)
