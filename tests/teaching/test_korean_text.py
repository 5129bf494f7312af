"""Korean on the learner's path reads like Korean (learner trial, item 3): a particle after a filled-in value
is chosen by the value ("초당 111토큰으로", never "토큰로"), one colon per sentence, one speech level in the
app's own words, no invisible characters inside a shown link."""

from __future__ import annotations

import re

import pytest

from latency.language import i18n

UI_TEXTS = [(area, key, text) for area in i18n.ui_areas()
            for key, texts in i18n.load_area(area).items() for lang, text in texts.items() if lang == "ko"]
# a placeholder followed straight by a particle that changes with the word before it, the particle ending there
HAND_PARTICLE = re.compile(r"\{[a-z_0-9]+\}(?:으로|로|을|를|은|는|이|가|과|와)(?![\uac00-\ud7a3])")


@pytest.mark.parametrize("area", i18n.ui_areas())
def test_a_particle_after_a_value_is_chosen_by_the_value(area):
    """"초당 111토큰로" (the calculator's chatbot example, {burst}로): the particle must come from the value."""
    bad = [f"{key}: {text}" for a, key, text in UI_TEXTS if a == area and HAND_PARTICLE.search(text)]
    assert not bad, "write it as a format spec, e.g. {value:으로}:\n" + "\n".join(bad)


STIFF = ("빠르기로 말하는 표현", "다시 볼 단계가 없습니다", "정답은 미리 적어 두지 않고", "샘플 답변", "계산 결과:")


def _all_ko_texts() -> list[tuple[str, str]]:
    from pathlib import Path

    import yaml

    out = []
    for file in sorted(Path("content").rglob("*.yaml")):
        def walk(v, path):
            if isinstance(v, dict):
                for k, x in v.items():
                    if k != "en":
                        walk(x, f"{path}.{k}")
            elif isinstance(v, list):
                for i, x in enumerate(v):
                    walk(x, f"{path}[{i}]")
            elif isinstance(v, str):
                out.append((f"{file}{path}", v))
        walk(yaml.safe_load(file.read_text(encoding="utf-8")), "")
    return out


def test_the_stiff_sentences_the_learner_quoted_are_gone():
    """Learner trial item 3 quoted these as machine-like; none is back in any content file."""
    bad = [(where, s) for where, text in _all_ko_texts() for s in STIFF if s in text and not where.endswith(".en.yaml")]
    assert not bad, bad


STAGE_WORDS = {"ko": ("대기열", "프리필", "디코드"), "en": ("queue", "prefill", "decode")}


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_link_to_an_entry_promises_only_what_that_entry_says(lang):
    """응답 속도's "다음에 읽을 것" promised the main entry splits the wait into network, queue, prefill and decode: the
    lesson does, the entry does not. A stage a link's text names is in the entry it links to."""
    from latency.teaching import content
    from tests.pages.test_learn_page import shown_strings

    terms = {t: content.load_term(t, lang) for t in content.term_ids()}
    for tid, term in terms.items():
        for link in (*term.related.items, *term.read_next.items):
            if link.term not in terms:
                continue
            target = " ".join(shown_strings(terms[link.term])).lower()
            missing = [w for w in STAGE_WORDS[lang] if w in link.text.lower() and w not in target]
            assert not missing, (tid, link.term, missing, link.text)


def test_app_written_entries_keep_one_speech_level():
    """Learner trial (issue 34): 배치 추론 opened with "버스를 떠올려 보자." (해라체) in an entry written in 합니다체.
    The app-written entries (every term but the seed's inference-latency, whose wording is kept as the source
    has it) end their sentences in 합니다체: no "~자." / "~하라." endings outside quoted speech."""
    import re
    from pathlib import Path

    terms = Path(__file__).resolve().parents[2] / "content" / "terms"
    plain_speech = re.compile(r"[가-힣]+(?:자|라)\.(?=\s|\"|$)")
    found = {}
    for path in sorted(terms.glob("*.ko.yaml")):
        if path.name.startswith("inference-latency"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("#") or "text:" not in line and "tip:" not in line:
                continue
            hits = [m for m in plain_speech.findall(line) if not m.endswith(("니라.",))]
            if hits:
                found.setdefault(path.name, []).extend(hits)
    assert not found, found
