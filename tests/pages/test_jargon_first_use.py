"""Jargon explained where it is first met (issue 26, item 4): on the pages a non-developer reaches, every
word of the issue's list that the screen shows has its plain-words line (content/ui/plain_words.yaml,
"**word**: ...") on that screen, at or before the first text that uses it. The words and their forms are
written here from the issue, not read from the page's own list."""

from __future__ import annotations

import re

import pytest

from latency.teaching import lesson
from tests.conftest import run_page
from tests.pages.test_hostile_urls import rendered_strings

# word as the screens write it -> the head its plain-words line starts with
JARGON = {
    "ko": {"토큰": "**토큰**", "가중치": "**가중치**", "메모리 대역폭": "**메모리 대역폭", "연산 성능": "**연산 성능**",
           "배치": "**배치", "리전": "**리전**", "INT8": "**INT8", "INT4": "**INT4"},
    "en": {"token": "**token**", "weights": "**weights**", "memory bandwidth": "**memory bandwidth", "compute": "**compute",
           "batch": "**batch", "region": "**region**", "INT8": "**int8", "INT4": "**int4"},
}


def _uses(text: str, word: str, lang: str) -> bool:
    if lang == "ko" and not word.isascii():
        return word in text
    return re.search(rf"(?<![A-Za-z0-9_-]){re.escape(word)}(s|es)?(?![A-Za-z0-9_-])", text, re.IGNORECASE) is not None


def _shown(at) -> list[str]:
    """The texts a reader sees, in page order (no JSON configs, icons, URLs or widget ids)."""
    return [t for t in rendered_strings(at)
            if not t.startswith(("{", ":material/", "<script")) and not ("=" in t and " " not in t) and len(t) > 1]


def undefined_at_first_use(at, lang: str, skip_first: int = 0) -> list[str]:
    texts = _shown(at)[skip_first:]
    out = []
    for word, head in JARGON[lang].items():
        first = next((i for i, t in enumerate(texts) if _uses(t, word, lang)), None)
        if first is None:
            continue
        defined = next((i for i, t in enumerate(texts) if head.lower() in t.lower()), None)
        if defined is None or defined > first:
            out.append(f"{word}: first used in {texts[first][:90]!r}, defined {'nowhere' if defined is None else 'later'}")
    return out




@pytest.mark.parametrize("step", range(1, 9))
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_lesson_step_defines_its_jargon_before_it_is_met(lang, step):
    at = run_page("lesson", lang, {"step": str(step)})
    assert not at.exception
    assert undefined_at_first_use(at, lang) == []


@pytest.mark.parametrize("page, query", [("", {}), ("learn", {}), ("learn", {"term": "batch-inference"}),
                                         ("learn", {"term": "model-compression"}), ("estimator", {}), ("tradeoffs", {})])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_glossary_entries_and_explorer_define_their_jargon_before_it_is_met(lang, page, query):
    at = run_page(page, lang, query)
    assert not at.exception
    title = 1 if page == "learn" else 0  # a term entry's own title is its subject, explained by the page itself
    texts = _shown(at)
    skip = texts.index(at.title[0].value) + title if title else 0
    assert undefined_at_first_use(at, lang, skip) == []


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_lessons_chips_carry_a_plain_class(lang):
    """'Apple M4 Max' or 'B200' means nothing to a newcomer: on the hardware step every chip says what kind it
    is (the classes written here from the issue)."""
    at = run_page("lesson", lang, {"step": "5"})
    assert not at.exception
    choices = at.segmented_control(key="lesson_w_hardware")  # buttons, each named (issue 34 item 4: no slider)
    # the catalog's device classes (issue 31 item 4: where the device runs, with a source)
    classes = {"ko": ("노트북", "데스크톱", "데이터센터"), "en": ("laptop", "desktop", "data centre")}[lang]
    assert all(any(c in o for c in classes) for o in choices.options), choices.options
    assert all(any(c in o for o in choices.options) for c in classes)


@pytest.mark.parametrize("page", ["estimator", "tradeoffs"])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_explorer_word_list_holds_every_word_its_page_shows(lang, page):
    """The explorer pages list their words up front (ui/plain_words.py); every plain-words entry whose word
    the opened page shows (latency/language/jargon.py over the rendered texts) is on that list."""
    from latency.language import i18n
    from ui import plain_words

    at = run_page(page, lang)
    assert not at.exception
    listed = {"estimator": plain_words.ESTIMATOR_TERMS, "tradeoffs": plain_words.TRADEOFF_TERMS}[page]
    used = plain_words.met(i18n.strings("plain_words", lang), _shown(at))
    assert [t for t in used if t not in listed] == []


# --- issue 34 item 6: the words a newcomer still met undefined, on the start page, every lesson step, the quiz
# (marked, its explanations open) and every term entry, in both languages. Written here from the issue.
NEWCOMER = {
    "ko": {"트레이드오프": "**트레이드오프**", "목표 시간": "**목표 시간**", "GPU": "**GPU**", "스트리밍": "**스트리밍**",
           "SLA": "**SLA**", "파라미터": "**파라미터**", "양자화": "**양자화**", "llama.cpp": "**llama.cpp**", "LLM": "**LLM**",
           "프리필": "**프리필**", "디코드": "**디코드**", "토큰": "**토큰**", "가중치": "**가중치**", "배치": "**배치",
           "핸드셰이크": "**핸드셰이크**", "KV 캐시": "**KV 캐시**", "IDE": "**IDE**", "TPU": "**TPU**", "엣지": "**엣지**",
           # the learner trial's item 4 (a Korean non-developer on a phone, after issue 34)
           "Transformer": "**Transformer", "배포 방식": "**배포 방식", "UI": "**UI", "IQuest-Coder": "**IQuest-Coder",
           "Phi-4": "**Phi-4", "GPT-4": "**GPT-4", "Q4_K_M": "Q4_K_M**", "MoE": "**MoE", "서빙 엔진": "**서빙 엔진",
           "TTFT": "**TTFT", "INP": "**INP", "vLLM": "**vLLM", "오픈소스": "**오픈소스", "메타 분석": "**메타 분석",
           "서버 로그": "**서버 로그", "광케이블": "**광케이블", "자동완성": "**자동완성", "처리량": "**처리량",
           "메모리 대역폭": "**메모리 대역폭", "연산 성능": "**연산 성능", "비트": "**비트",
           # the second learner trial (issue 34): 한눈에 보기's "로컬", the fold's "NVIDIA L4", 배치 추론's APIs and Orca
           "로컬": "**로컬", "L4": "**NVIDIA L4", "배치 API": "**배치 API", "Batch API": "**배치 API", "Orca": "**Orca"},
    "en": {"trade-off": "**trade-off**", "target time": "**target time**", "GPU": "**GPU**", "streaming": "**streaming**",
           "SLA": "**SLA**", "parameters": "**parameters**", "quantization": "**quantization**", "llama.cpp": "**llama.cpp**",
           "LLM": "**LLM**", "prefill": "**prefill**", "decode": "**decode**", "token": "**token**", "weights": "**weights**",
           "batch": "**batch", "handshake": "**handshake**", "KV cache": "**KV cache**", "IDE": "**IDE**", "TPU": "**TPU**",
           "edge": "**edge**",
           "Transformer": "**Transformer", "deployment": "**deployment", "UI": "**UI", "IQuest-Coder": "**IQuest-Coder",
           "Phi-4": "**Phi-4", "GPT-4": "**GPT-4", "Q4_K_M": "Q4_K_M**", "MoE": "**MoE", "serving engine": "**serving engine",
           "TTFT": "**TTFT", "INP": "**INP", "vLLM": "**vLLM", "open-source": "**open-source", "meta-analysis": "**meta-analysis",
           "server log": "**server log", "fibre": "**fibre", "autocomplet": "**autocomplet", "throughput": "**throughput",
           "memory bandwidth": "**memory bandwidth", "compute": "**compute", "bit": "**bit",
           "local": "**local", "L4": "**NVIDIA L4", "Batch API": "**Batch API", "Orca": "**Orca"},
}
# words the issue found undefined that the screens now say in plain words instead: they must not come back
REPLACED = {"ko": ("접속망", "온프레미스", "프롬프트", "맥락", "연결을 재사용", "부동소수점", "추정기의 답", "추정기", "원문"),
            "en": ("access network", "on-premises", "prompt", "context", "reuse connections", "floating point",
                   "estimator's answer", "the source")}


def newcomer_problems(at, lang: str, skip_first: int = 0) -> list[str]:
    texts = _shown(at)[skip_first:]
    out = []
    for word, head in NEWCOMER[lang].items():
        first = next((i for i, t in enumerate(texts) if _uses(t, word, lang)), None)
        if first is None:
            continue
        defined = next((i for i, t in enumerate(texts) if head.lower() in t.lower()), None)
        if defined is None or defined > first:
            out.append(f"{word}: first used in {texts[first][:90]!r}, defined {'nowhere' if defined is None else 'later'}")
    return out


def replaced_words(at, lang: str, allowed: tuple[str, ...] = ()) -> list[str]:
    texts = [t for t in _shown(at) if not any(a in t for a in allowed)]
    return sorted({w for w in REPLACED[lang] for t in texts if _uses(t, w, lang)})


NEWCOMER_SCREENS = ([("", {})] + [("lesson", {"step": str(k)}) for k in range(1, len(lesson.load_lesson(
    __import__("latency.estimation.catalog", fromlist=["load_catalog"]).load_catalog(),
    __import__("latency.estimation.places", fromlist=["load_stops"]).load_stops()).steps) + 1)]
    + [("lesson", {"step": "done"})] + [("learn", {"term": t}) for t in __import__("latency.teaching.content", fromlist=["term_ids"]).term_ids()])


@pytest.mark.parametrize("page,query", NEWCOMER_SCREENS, ids=[f"{p or 'start'}-{'-'.join(q.values())}" for p, q in NEWCOMER_SCREENS])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_newcomers_screens_define_every_word_before_it_is_met(lang, page, query):
    at = run_page(page, lang, query)
    assert not at.exception, at.exception
    texts = _shown(at)
    skip = texts.index(at.title[0].value) + 1 if page == "learn" else 0  # the entry's own title is its subject
    assert newcomer_problems(at, lang, skip) == []
    # the source entry keeps its own wording (its texts are exempt); the app's own texts use the plain words
    source = __import__("latency.teaching.content", fromlist=["load_term"]).load_term("inference-latency", lang)
    allowed = tuple(jargon_strings(source)) if query.get("term") == "inference-latency" else ()
    assert replaced_words(at, lang, allowed) == []


def jargon_strings(term):
    from latency.language import jargon

    return [x for x in jargon.strings_of(term) if len(x) > 20]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_quiz_marked_defines_every_word_before_it_is_met(lang):
    at = run_page("lesson", lang, {"step": "quiz"})
    assert not at.exception
    from latency.estimation.catalog import load_catalog
    from latency.estimation.places import load_stops
    from latency.teaching import quiz

    catalog, stops = load_catalog(), load_stops()
    for q in quiz.load_quiz(catalog, stops, lesson.load_lesson(catalog, stops)):
        at.radio(key=f"lesson_q_{q.id}").set_value(q.options[0].id)
    next(b for b in at.button if b.proto.is_form_submitter).click().run()
    assert not at.exception
    assert newcomer_problems(at, lang) == []
    assert replaced_words(at, lang) == []


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_plain_words_lines_use_no_jargon_themselves(lang):
    """The popover explained 16-bit as "부동소수점", Q4_K_M as "llama.cpp의 양자화 형식", INT8 as "W8A8": every
    line now says what it is in words a newcomer has, or names another line's word (listed before it)."""
    from latency.language import i18n

    pw = i18n.strings("plain_words", lang)
    lines = {k: pw(k) for k in pw.table if k.startswith("term_")}
    banned = {"ko": ("부동소수점", "TCP", "TLS", "로컬 실행기", "보정", "양자화 형식"),
              "en": ("floating point", "TCP", "TLS", "local runner", "calibrat", "quantization format")}[lang]
    assert not {k: b for k, line in lines.items() for b in banned if b in line}


# --- the estimator at 390 px (newcomer try, Korean non-developer): words it had to look up, now said in plain words
ESTIMATOR_REPLACED = {"ko": ("원문", "대권", "부동소수점", "프롬프트", "그룹 128", "들어가는 최소"),
                      "en": ("great-circle", "floating point", "float", "group 128", "the table's 40B")}


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_estimator_says_in_plain_words_what_a_newcomer_had_to_look_up(lang):
    """The precision box, the distance help, the devices box, the example pills' lines and the comparison with the
    glossary entry: none of the words the newcomer looked up is back, on the opened page or after any example pill
    (each pill's change line and comparison are shown then); NVFP4 and SXM are on the page's word list."""
    from latency.language import i18n
    from ui import plain_words

    at = run_page("estimator", lang)
    assert not at.exception
    found = {w for t in _shown(at) for w in ESTIMATOR_REPLACED[lang] if _uses(t, w, lang)}
    for pill in at.pills(key="est_preset").options:
        at.pills(key="est_preset").set_value(next(p for p in _preset_ids() if _preset_label(p, lang) == pill)).run()
        assert not at.exception
        found |= {w for t in _shown(at) for w in ESTIMATOR_REPLACED[lang] if _uses(t, w, lang)}
    assert found == set()
    pw = i18n.strings("plain_words", lang)
    assert {"nvfp4", "sxm"} <= set(plain_words.ESTIMATOR_TERMS)
    assert "NVFP4" in pw("term_nvfp4") and "SXM" in pw("term_sxm")


def _preset_ids():
    from latency.exploring import explorer  # noqa: F401  (the page's own preset list)
    from tests.pages.test_estimator_page import PRESETS

    return [p.id for p in PRESETS]


def _preset_label(pid, lang):
    from tests.pages.test_estimator_page import PRESETS

    return next(p.label[lang] for p in PRESETS if p.id == pid)


# --- the launch check (PM newcomer try, stop 42): "밀집", "추측 디코딩", "초안 합격률", "같은 부분 캐싱", "외삽" and the
# words above had to be looked up; the page had no word list. Its states: the default, a set-up that fails (its
# "what to change" open), the side-by-side tab, a device without measurements, caching and speculative decoding on,
# a consumer GPU with an MoE model.
FIFTY = dict(model_size_b="70.6", devices="2", precision="fp8", concurrency="50", prompt_tokens="5000")
LAUNCH_STATES = [{}, FIFTY, {**FIFTY, "view": "compare"}, {"hardware": "mi300x"},
                 {"prefix_share": "0.5", "prefix_cache": "on", "spec_tokens": "4", "spec_accept": "0.7"},
                 {"hardware": "rtx4090", "arch": "moe"}]


@pytest.mark.parametrize("query", LAUNCH_STATES, ids=["default", "fails", "compare", "extrapolated", "caching", "moe-4090"])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_launch_check_defines_every_word_before_it_is_met(lang, query):
    from latency.language import i18n
    from ui import plain_words

    at = run_page("launch", lang, query)
    assert not at.exception, at.exception
    assert undefined_at_first_use(at, lang) == []
    assert newcomer_problems(at, lang) == []
    used = plain_words.met(i18n.strings("plain_words", lang), _shown(at))
    assert [t for t in used if t not in plain_words.LAUNCH_TERMS] == []
    # the words the PM looked up, each with its own line (written here from the try, not read from the list)
    looked_up = {"ko": ("**밀집(Dense)**", "**추측 디코딩**", "**초안 합격률**", "**같은 부분 캐싱**", "**외삽**"),
                 "en": ("**Dense**", "**Speculative decoding**", "**Draft acceptance rate**", "**Cache the shared part**",
                        "**Extrapolated**")}[lang]
    words = {"ko": ("밀집", "추측 디코딩", "초안 합격률", "같은 부분 캐싱", "외삽"),
             "en": ("Dense", "Speculative decoding", "Draft acceptance rate", "Cache the shared part", "Extrapolated")}[lang]
    texts = _shown(at)
    # "보정 자료", "보정용 측정값": the newcomer try of stop 43 had to look it up; the page says "published measurements"
    calibration = {"ko": "보정", "en": "calibrat"}[lang]
    assert [t[:90] for t in texts if calibration in t.lower()] == []
    for word, head in zip(words, looked_up):
        first = next((i for i, t in enumerate(texts) if word.lower() in t.lower() and head.lower() not in t.lower()), None)
        if first is not None:
            defined = next((i for i, t in enumerate(texts) if head.lower() in t.lower()), None)
            assert defined is not None and defined < first, (word, texts[first][:90])


def _logs_with_sample(lang, fmt):
    at = run_page("logs", lang)
    at.selectbox(key="lg_sample_fmt").set_value(fmt)
    at.button(key="lg_sample_button").click().run()
    return at


def _measured(lang):
    at = run_page("measure", lang)
    at.number_input(key="ms_prompt").set_value(8)
    at.number_input(key="ms_output").set_value(2)
    at.button(key="ms_start").click().run(timeout=90)
    return at


def _other_pages():
    from latency.measured import log_samples

    yield "how", lambda lang: run_page("how-it-works", lang), "HOW_TERMS"
    yield "measure", lambda lang: run_page("measure", lang), "MEASURE_TERMS"
    yield "measure-run", _measured, "MEASURE_TERMS"
    yield "logs", lambda lang: run_page("logs", lang), "LOGS_TERMS"
    for fmt in log_samples.SAMPLES:
        yield f"logs-{fmt}", lambda lang, fmt=fmt: _logs_with_sample(lang, fmt), "LOGS_TERMS"


OTHER_PAGES = list(_other_pages())


@pytest.mark.parametrize("opened, listed", [(o, t) for _, o, t in OTHER_PAGES], ids=[i for i, _, _ in OTHER_PAGES])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_how_it_works_measuring_and_logs_define_every_word_before_it_is_met(lang, opened, listed):
    """These pages had no word list either ("디코드", "가중치", "vLLM" on the measuring page; "SLA", "TTFT" on the logs
    page): each now lists every word it shows, above them."""
    from latency.language import i18n
    from ui import plain_words

    at = opened(lang)
    assert not at.exception, at.exception
    assert undefined_at_first_use(at, lang) == []
    assert newcomer_problems(at, lang) == []
    used = plain_words.met(i18n.strings("plain_words", lang), _shown(at))
    assert [t for t in used if t not in getattr(plain_words, listed)] == []
    if listed == "MEASURE_TERMS":  # "디코더 트랜스포머가 프롬프트를 ..." (newcomer try, stop 43): the app's plain words instead
        assert replaced_words(at, lang) == []
