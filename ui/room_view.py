"""The onboarding room on the lesson page (issues 25, 30): a presenter on a projector, phones following.

Three views of one room, all on /lesson (pages/lesson.py calls `show`):
  projected  ?present=1&room=CODE           the screen the room sees (ui/room_projector.py): a lobby
                                            with the code, QR and /join address; later a strip with the
                                            code above each step or question; never notes or the
                                            presenter's own controls, which sit in a closed menu
  notes      ?notes=1&room=CODE             the presenter's laptop (ui/room_projector.py `notes_view`)
  phone      ?room=CODE                     a participant (ui/room_phone.py): follows the presenter's
                                            screen within LIVE_S + a rerun; answers; one person per phone
The presenter's key is never in an address (the projector's address bar showed it): it lives in the
presenter's session and a cookie (`presenter_key`, `remember_key`); a browser without it that asks for
presenter mode is asked for the key (ui/room_projector.py `take_over`). The QR code and /join use
$LATENCY_PUBLIC_URL when set (latency/room/codes.py `base_url`); on a loopback address the presenter's
own screens say phones cannot come in (`local_warning`).
The room's state lives in the store (latency/room/store.py), so every process and every view reads
the same one; each view polls it in an `st.fragment(run_every=LIVE_S)` and reruns the page when it
changed. The results (ui/room_results.py) show on the projector, the notes view and every phone at
the end or once the presenter ends the room. Every text from content/ui/lesson.yaml; participant text
(the nickname) and URL values go through `md`, never HTML.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from dataclasses import dataclass, replace
from typing import Mapping, Sequence

import streamlit as st

from latency.language.i18n import Strings, md
from latency.room import codes, store as room_store
from latency.room.store import NoRoom, Store, StoreDown
from latency.teaching import lesson, quiz
from ui import lesson_steps, style

log = logging.getLogger("latency.room")
LIVE_S = 0.5   # how often every view asks the store for the room's state (issue 25: follow within 2 s; see docs/deploy.md)
RETRY_S = 5.0  # how often a room page asks a database that is down whether it is back
DOWN_KEY = "room_store_down"
LOBBY, DONE = "lobby", "done"


@st.cache_resource(show_spinner=False, max_entries=2)
def _open_store(url: str) -> Store:
    """One store (engine and its connection pool) per database URL per process, migrated on first use.
    A failure is not cached: the next run tries again."""
    store = Store(url)
    store.migrate()
    return store


def get_store() -> Store:
    return _open_store(room_store.database_url())


@dataclass(frozen=True)
class Ctx:
    """One room as a view draws it: the lesson, its quiz and computed answers, the store and the room."""

    les: lesson.Lesson
    questions: tuple[quiz.Question, ...]
    outcomes: Mapping[str, quiz.Outcome]
    d: lesson_steps.Data
    store: Store
    room: room_store.Room
    screens: tuple[str, ...]
    key: str | None            # the presenter's key (None on a phone)
    token: str | None          # the participant's token (None for the presenter)
    quiz_all: tuple[quiz.Question, ...] = ()  # the whole quiz; `questions` is what this room asks (Room.skipped)

    def with_token(self, token: str) -> "Ctx":
        return replace(self, token=token)


def screens(les: lesson.Lesson, questions: Sequence[quiz.Question]) -> tuple[str, ...]:
    """A room's screens in order: the lobby, the lesson's steps, one screen per question, the results."""
    return (LOBBY, *(str(k) for k in range(1, len(les.steps) + 1)), *(f"q:{q.id}" for q in questions), DONE)


def in_room(questions: Sequence[quiz.Question], room: room_store.Room) -> tuple[quiz.Question, ...]:
    """The questions this room asks: the quiz less those the presenter left out (`Room.skipped`; all of them:
    the lesson alone). An id the quiz no longer has leaves nothing out."""
    return tuple(q for q in questions if q.id not in room.skipped)


def position(c: Ctx, screen: str) -> int:
    return c.screens.index(screen) if screen in c.screens else 0


def current(c: Ctx) -> str:
    """The room's screen, or the first one when the store holds a screen this lesson does not have
    (content changed while a room was open): never a crash on a screen it cannot draw."""
    return c.room.screen if c.room.screen in c.screens else c.screens[0]


def question_of(c: Ctx, screen: str) -> quiz.Question | None:
    return next((q for q in c.questions if screen == f"q:{q.id}"), None)


LETTERS = "ABCDEFGHIJ"


def lettered(q: quiz.Question, lang: str) -> list[str]:
    """The question's options as the room calls them out: "A. …", "B. …" (plain text; `md` it for Markdown)."""
    return [f"{LETTERS[i]}. {o.label[lang]}" for i, o in enumerate(q.options)]


def where(s: Strings, c: Ctx, screen: str) -> str:
    """A room's screen in the words the lesson itself uses: "step 3 of 8", "question 2 of 12", the
    waiting screen, the results (one count everywhere: the phone's step header says "3단계" too)."""
    q = question_of(c, screen)
    if q is not None:
        return s("room_where_question", n=c.questions.index(q) + 1, total=len(c.questions))
    if screen == LOBBY:
        return s("room_where_lobby")
    if screen == DONE:
        return s("room_where_done")
    return s("room_where_step", n=int(screen), total=len(c.les.steps))


def asked(c: Ctx) -> list[quiz.Question]:
    """The questions the presenter opened, in the quiz's order (the results and a phone's score count these)."""
    return [q for q in c.questions if q.id in c.room.asked]


# Clickers send PageDown / PageUp; a laptop's presenter the arrows. A constant script (no content, no
# input), listening before anything else on the page (capture phase): PageDown/PageUp and the arrows
# anywhere outside a text box, also on a step's choice the presenter clicked (a slider, a radio, a choice
# button: a focused slider or radio took them for itself, so a clicker moved the choice instead of the
# slide, and a focused choice button swallowed them; newcomer re-check 2026-12-05), click the forward or
# back button of the room (room_next/room_back) or, without a room, of presenter mode (lesson_next/lesson_back).
# The buttons' own `shortcut`s (← →) clicked at once, mid-run too: an arrow pressed while the page was
# redrawn was lost (room test 2026-12-07: the room stayed on step 3), so the arrows queue here as well.
# A choice reached by keyboard (Tab, and no pointer press since) keeps its arrows (presenter trial
# 2026-12-05: the arrow keys moved the room, not the focused slider).
# Every press counts, one screen each, in order: a press waits until the run before it has finished and
# its button is on the page. A press while the page was being redrawn found no button and was lost (a
# PageDown right after "stay on this step" left the room on step 1; seen in the room test and repeated
# under load, 2026-12-04), and two quick presses both clicked the same screen's button.
RUN_MARK = "data-room-run"  # the attribute a full run's number stands in (`mark_run`), read by both scripts below

KEYS_JS = """<script>
if (!window.__roomKeys) {
  // what the keys did, for a failed browser test's report: clicks made, the marks at the last, the last 30 decisions
  const seen = window.__roomKeys = {clicks: 0, marks: '', log: []};
  const pending = [];  // presses waiting their turn, oldest first: {dir, at}
  let clickedAt = 0, sawRun = true, timer = null;
  // how the presenter last moved the focus: with a pointer (a click or tap) or with the keyboard (Tab)
  let pointerFocus = false;
  window.addEventListener('pointerdown', () => { pointerFocus = true; }, true);
  window.addEventListener('keydown', (e) => { if (e.key === 'Tab') pointerFocus = false; }, true);
  const running = () => (document.querySelector('[data-testid=stApp]') || {getAttribute: () => null})
    .getAttribute('data-test-script-state') === 'running';
  const find = (dir) => (dir > 0 ? ['room_next', 'lesson_next'] : ['room_back', 'lesson_back'])
    .map((n) => document.querySelector('.st-key-' + n + ' button')).find(Boolean);
  // a room view's full runs mark their number at its top and end (`mark_run`): "" on a page without them
  const marks = () => Array.from(document.querySelectorAll('[RUN_MARK]'), (e) => e.getAttribute('RUN_MARK')).join(',');
  let clickedMarks = '';
  const log = (what) => { seen.log.push(Math.round(performance.now()) + ' ' + what); seen.log.splice(0, seen.log.length - 30); };
  const pump = () => {
    timer = null;
    if (!pending.length) return;
    const now = Date.now();
    if (running()) sawRun = true;
    // wait for the last click's run to end: on a room view until its marks have changed (up to 30 s: under load the
    // click's run once started more than 1.5 s late, and the next press clicked the old screen's button, CI
    // 2026-12-07), elsewhere for it to start (up to 1.5 s); then for the button (up to 5 s)
    const now_marks = marks();
    const drawn = clickedMarks ? now_marks !== clickedMarks && new Set(now_marks.split(',')).size === 1
      : sawRun || now - clickedAt >= 1500;
    const waiting = running() || (!drawn && now - clickedAt < (clickedMarks ? 30000 : 1500));
    const button = waiting ? null : find(pending[0].dir);
    if (button) {
      const p = pending.shift();
      log((p.dir > 0 ? 'forward' : 'back') + ' clicked at marks ' + now_marks + ' after ' + (now - p.at) + ' ms');
      clickedAt = now; sawRun = false; clickedMarks = now_marks;
      seen.clicks += 1; seen.marks = now_marks;
      button.click();
    } else if (!waiting && now - pending[0].at > 5000) {
      log('a press lapsed: no button');
      pending.shift();  // no such button on this screen (the last one has no forward)
    }
    if (pending.length) timer = setTimeout(pump, 40);
  };
  window.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (!t || !t.closest || t.closest('textarea, select, [contenteditable=true], input:not([type=radio]):not([type=checkbox]):not([type=range])')) return;
    const dir = {PageDown: 1, PageUp: -1, ArrowRight: 1, ArrowLeft: -1}[e.key];
    // a step's choice: a slider, a radio (the myths) or a choice button (segmented control)
    const choice = t.closest('input[type=range], [role=slider], input[type=radio], [role=radio], [data-testid=stButtonGroup] button');
    if (!dir) return;
    if (e.key.startsWith('Arrow') && t.closest('[role=tab], [role=option], [role=menuitem], [role=listbox]')) {
      log(e.key + ' left to a tab or list'); return; }
    if (e.key.startsWith('Arrow') && choice && !pointerFocus) { log(e.key + ' left to a choice'); return; }  // reached by keyboard
    if (!pending.length && !running() && !find(dir)) { log(e.key + ' left: no button'); return; }  // the key keeps its own use
    e.preventDefault(); e.stopPropagation();
    // a click on the slide's empty space focuses the page's scroll area, and Chromium then framed the whole
    // screen in grey on every key (presenter trial 2026-12-07, on the projector): the key moves the room, the
    // focus goes back to the page
    if (t.matches && t.matches('[data-testid=stMain]')) t.blur();
    pending.push({dir: dir, at: Date.now()});
    log(e.key + ' queued (' + pending.length + ')' + (running() ? ' during a run' : ''));
    if (!timer) pump();
  }, true);
}
</script>""".replace("RUN_MARK", RUN_MARK)


# A view that stops polling stops following the room: Streamlit keeps a fragment's `run_every` as a
# timer in the browser, and a full CI run once left a phone on step 7 for 30 s while the presenter was
# on step 8 (2026-12-06), the store already moved. A constant script (no content, no input) watches the
# page's run state; when no run, the poll's or any other, has started for WAKE_S while the page is
# connected, it clicks the hidden `wake` button: that full run draws the room as it is and sets the
# poll's timer again. A connected page polls every LIVE_S, so this only fires once the poll is lost
# (or the tab slept, as a locked phone's does).
# A view can also go blank: a full CI run (2026-12-07) left the presenter's page without its main area
# for 30 s after "next" on a revealed question, its script alive, the store and both phones on the next
# screen. Streamlit's frontend throws on a delta for a place its page no longer has ("Cannot set a node
# at a delta path", streamlit/streamlit#15084: a `run_every` fragment's timer firing for a fragment the page
# no longer draws), and its whole view then unmounts, button and all. Or it can be torn: the next full CI run
# (2026-12-07, question 11) left the presenter's page with the new run's top row ("next", where the question
# was revealed) over the old run's body (the open question, its count, no chart) for 30 s, every poll content;
# the old run's elements were never cleared (streamlit/streamlit#16708 is a frontend cleanup scoped to the wrong
# run). So each full run of a room view writes its number at the view's top and at its end (`mark_run`), and
# the same script reloads a page, with WOKE_PARAM in its address saying why (WOKE_REASONS), when
# - its main area has been missing for WAKE_S ("blank");
# - it holds two runs' marks after its last run ended, for TORN_S, or for 2 x WAKE_S however long a run
#   takes ("torn": a run under load draws its top seconds before its end, and the marks differ meanwhile);
# - Streamlit's frontend throws on a delta path ("error").
# The room is in the store and the presenter's key and a phone's place in cookies, so the reload draws the
# room as it is, and its run logs the reload and takes the parameter out (`note_reload`).
# A tab reloads at most once per AGAIN_S (the time kept in its sessionStorage): a page that broke again at once,
# or a phone so slow that a run takes 2 x WAKE_S to arrive, waits instead of reloading in a loop.
WAKE_S = 8.0
TORN_S = 3.0  # chosen: a finished run's old elements go within a frame of its end; 3 checks of the 1 s watch
AGAIN_S = 30.0
WAKE_KEY = "room_wake"
WOKE_PARAM = "woke"
WOKE_REASONS = {"blank": "had gone blank for {wake:.0f} s",
                "torn": "showed two runs at once (its top from one, its body from an older one)",
                "error": "met a frontend error on a delta path"}
WOKE_OPEN = "woke_open"
# What the reload reopens (a presenter's menu closed in their face, the question picker folded: a run of the
# fewer-questions browser test, 2026-12-07, had the projected page reloaded on a delta-path error while the menu was
# open): {name in the address: what in the page shows it open}. The new run opens it (`note_reload`, `REOPEN_KEYS`).
MENU_KEY = "room_menu_open"  # the presenter's menu's open state (a stateful popover, `room_projector.menu`)
PICK_MENU_BOX = "room_pick_menu_box"  # the question picker's fold in that menu (`room_projector.question_picker`)
WOKE_OPEN_SELECTORS = {"menu": "[data-testid=stPopoverBody]", "pick": f".st-key-{PICK_MENU_BOX} details[open]"}
PICK_MENU_OPEN = "room_pick_menu_open"  # that fold drawn open (a fold's key alone keeps no state to set)
REOPEN_KEYS = {"menu": MENU_KEY, "pick": PICK_MENU_OPEN}
RUN_KEY = "room_full_run"  # this session's count of full runs of a room view (`mark_run`)
WAKE_JS = """<script>
if (!window.__roomWake) {
  let last = Date.now(), watched = null;
  const observer = new MutationObserver(() => {
    if (watched && watched.getAttribute('data-test-script-state') === 'running') last = Date.now();
  });
  let blank = null, torn = null, tornIdle = null, leaving = false;
  let opened = [];  // what of the presenter's menu was open when last seen whole (WOKE_OPEN)
  const openNow = () => Object.entries(OPEN_SELECTORS).filter(([, css]) => document.querySelector(css)).map(([name]) => name);
  const reload = (why) => {
    const at = Number(window.sessionStorage.getItem('roomWokeAt') || 0);
    if (leaving || Date.now() - at < AGAIN_MS) return;  // at most one reload per AGAIN_S: never a loop
    leaving = true;
    window.sessionStorage.setItem('roomWokeAt', String(Date.now()));
    const address = new URL(window.location.href);
    address.searchParams.set('WOKE_PARAM', why);
    // only on an error, reloaded at once: a page blank or torn for seconds may have taken a key meanwhile (an
    // Escape that closed the menu, a full CI run 2026-12-07), so what was last seen open is no longer what was asked
    const open = why === 'error' ? Array.from(new Set([...opened, ...openNow()])) : [];
    if (open.length) address.searchParams.set('WOKE_OPEN_PARAM', open.join('.'));
    window.location.replace(address.toString());
  };
  const deltaPath = (text) => /delta path/i.test(String(text || ''));
  window.addEventListener('error', (e) => { if (deltaPath(e.message) || deltaPath(e.error && e.error.message)) reload('error'); });
  window.addEventListener('unhandledrejection', (e) => { if (deltaPath(e.reason && e.reason.message) || deltaPath(e.reason)) reload('error'); });
  window.__roomWake = setInterval(() => {
    if (!document.querySelector('[data-testid=stMain]')) {
      blank = blank ?? Date.now();
      if (Date.now() - blank >= WAKE_MS) reload('blank');
      return;
    }
    blank = null;
    opened = openNow();
    const app = document.querySelector('[data-testid=stApp]');
    if (!app) return;
    if (app !== watched) {
      observer.disconnect();
      observer.observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
      watched = app; last = Date.now();
    }
    const running = app.getAttribute('data-test-script-state') === 'running';
    const connected = app.getAttribute('data-test-connection-state') === 'CONNECTED';
    const marks = new Set(Array.from(document.querySelectorAll('[RUN_MARK]'), (e) => e.getAttribute('RUN_MARK')));
    if (marks.size > 1 && connected) {
      torn = torn ?? Date.now();
      tornIdle = running ? null : (tornIdle ?? Date.now());
      if (Date.now() - torn >= 2 * WAKE_MS || (tornIdle !== null && Date.now() - tornIdle >= TORN_MS)) reload('torn');
    } else {
      torn = null; tornIdle = null;
    }
    if (running || !connected) { last = Date.now(); return; }
    if (Date.now() - last < WAKE_MS) return;
    const button = document.querySelector('.st-key-WAKE_KEY button');
    if (button) { last = Date.now(); button.click(); }
  }, 1000);
}
</script>""".replace("OPEN_SELECTORS", json.dumps(WOKE_OPEN_SELECTORS)).replace("WOKE_OPEN_PARAM", WOKE_OPEN) \
    .replace("AGAIN_MS", str(int(AGAIN_S * 1000))).replace("TORN_MS", str(int(TORN_S * 1000))).replace("WAKE_MS", str(int(WAKE_S * 1000))) \
    .replace("WAKE_KEY", WAKE_KEY).replace("WOKE_PARAM", WOKE_PARAM).replace("RUN_MARK", RUN_MARK)


def note_reload(code: str) -> None:
    """A view the watchdog reloaded (WAKE_JS): logged with its reason, so a failed browser test's report says
    so, and the parameter taken out of the address. A reason the app does not know (a hand-edited address) is
    logged as such, never echoed. What of the presenter's menu was open (WOKE_OPEN) is opened again."""
    why = st.query_params.get(WOKE_PARAM)
    reopen = st.query_params.get(WOKE_OPEN)
    if reopen is not None:
        del st.query_params[WOKE_OPEN]
        for name in str(reopen).split("."):
            if name in REOPEN_KEYS:  # anything else in the address is ignored
                st.session_state[REOPEN_KEYS[name]] = True
    if why is not None:
        del st.query_params[WOKE_PARAM]
        what = WOKE_REASONS.get(str(why), "was reloaded for a reason this app does not know").format(wake=WAKE_S)
        log.warning("room %s: a view %s; the browser reloaded it", code, what)


def mark_run(where: str) -> None:
    """This full run's number, at the room view's top ("top": counted there) and its end ("end"), in a
    folded scripts container: the watchdog (WAKE_JS) reloads a page that keeps two runs' marks."""
    n = st.session_state.get(RUN_KEY, 0) + (where == "top")
    st.session_state[RUN_KEY] = n
    with st.container(key=f"{style.SCRIPTS_KEY}room_run_{where}"):
        st.html(f'<span {RUN_MARK}="{int(n)}"></span>')


def wake(s: Strings, container, code: str) -> None:
    """The watchdog above, and its button, in `container`: a scripts-only container, folded away (no
    screen reader or tap reaches the button; only the script clicks it). A click is logged: a failed
    browser test's report carries it (tests/e2e/conftest.py)."""
    container.html(WAKE_JS, unsafe_allow_javascript=True)
    if container.button(s("room_wake"), key=WAKE_KEY):
        log.warning("room %s: a view's poll had stopped for %.0f s; its page was run again", code, WAKE_S)


# --- the presenter's key: never in the address once the room is open ----------------------------
KEY_STATE = "room_key_{code}"
KEY_COOKIE = "latency_presenter_{code}"
_KEY_CHARS = re.compile(r"^[A-Za-z0-9_-]{8,64}$")  # secrets.token_urlsafe (latency/room/store.py open_room)


def presenter_key(code: str) -> tuple[str | None, bool]:
    """The key this browser holds for the room, and whether it came in the address (?key=, a presenter
    taking over on another device). A key in the address is taken out of it at once (the projector's
    address bar showed it); this session keeps it, and a cookie keeps it for the notes view and
    another tab of the same browser (`remember_key`)."""
    from_url = st.query_params.get("key")
    if from_url is not None:
        del st.query_params["key"]
        return str(from_url)[:64], True  # checked against the store by `show`, kept only when it is the room's
    held = st.session_state.get(KEY_STATE.format(code=code)) or _cookie(KEY_COOKIE.format(code=code))
    return (held if isinstance(held, str) and _KEY_CHARS.match(held) else None), False


def _cookie(name: str) -> str | None:
    value = st.context.cookies.get(name)
    return value if isinstance(value, str) else None


def remember_key(code: str, key: str) -> None:
    """This browser keeps the presenter's key for the room's life (a cookie, path /, same-site lax):
    the notes view in a new tab is the presenter's without a key in its address."""
    st.session_state[KEY_STATE.format(code=code)] = key
    if _cookie(KEY_COOKIE.format(code=code)) == key or not _KEY_CHARS.match(key) or not codes.is_valid(code):
        return
    value = f"{KEY_COOKIE.format(code=code)}={key}; path=/; max-age={int(room_store.ROOM_TTL.total_seconds())}; samesite=lax"
    st.html(f"<script>document.cookie = {json.dumps(value)};</script>", unsafe_allow_javascript=True)


def forget_key(code: str) -> None:
    st.session_state.pop(KEY_STATE.format(code=code), None)


_HELD = re.compile(KEY_STATE.format(code="(?P<code>[A-Z0-9]+)") + "$")
_HELD_COOKIE = re.compile(KEY_COOKIE.format(code="(?P<code>[A-Z0-9]+)") + "$")


def held_rooms() -> list[str]:
    """The codes of the open rooms (not ended, not expired) this browser presents: its session's keys and its
    cookies (another tab, a reload). A store that is down lists none: the ways in below still work."""
    found = {m["code"] for name in list(st.session_state) if isinstance(name, str) and (m := _HELD.match(name))}
    found |= {m["code"] for name in st.context.cookies if (m := _HELD_COOKIE.match(name))}
    out = []
    for code in sorted(c for c in found if codes.is_valid(c)):
        try:
            if not get_store().room(code).ended:
                out.append(code)
        except (NoRoom, StoreDown):
            continue
    return out


_JOINED = re.compile(r"room_token_(?P<code>[A-Z0-9]+)$")
_JOINED_COOKIE = re.compile(r"latency_room_(?P<code>[A-Z0-9]+)$")  # room_phone.COOKIE (its "left" cookie has no match)


def joined_banner(lang: str, here: str | None) -> None:
    """On every page but the room's own (app.py, before the page): the open room this phone joined and has not
    left, with a button back to it (presenter trial 2026-12-06: a phone that opened the sidebar went to the
    calculator, then "15-minute lesson", and stopped following the presenter with nothing saying where the room
    was). The phone is known as the room page knows it (`room_phone.token_of`): this session's token, else the
    room's cookie, so a page opened afresh (a reload, a typed address) offers the way back too. `here`: the room
    the page shows now (None off the lesson page). Only a browser that joined a room asks the store; a phone in
    its room asks nothing."""
    from ui import room_phone, shell

    found = {m["code"] for name in list(st.session_state) if isinstance(name, str) and (m := _JOINED.match(name))}
    found |= {m["code"] for name in st.context.cookies if (m := _JOINED_COOKIE.match(name))}
    joined = sorted(c for c in found - {codes.normalize(here) if here else ""} if codes.is_valid(c) and room_phone.token_of(c))
    if not joined:
        return
    s = shell.strings("lesson", lang)
    for code in joined:
        try:
            if get_store().room(code).ended or get_store().participant(code, room_phone.token_of(code) or "") is None:
                continue
        except (NoRoom, StoreDown):
            continue
        with st.container(border=True, horizontal=True, vertical_alignment="center", key=f"joined_return_{code}"):
            st.markdown(s("room_joined_open", code=code))
            if st.button(s("room_joined_return"), key=f"joined_return_{code}_go", type="primary", icon=":material/login:"):
                st.switch_page("pages/lesson.py", query_params={"room": code, "lang": lang})


def return_banner(s: Strings, lang: str, key: str) -> bool:
    """At the top of a page: each open room this browser presents, said, with a primary button back to its
    presenter screen (presenter re-check 2026-12-05: a grey link at the page's end, under the blue "open a room",
    was easy to miss for the blue button and a second room). True when there was one."""
    held = held_rooms()
    for code in held:
        with st.container(border=True, horizontal=True, vertical_alignment="center", key=f"{key}_{code}"):
            st.markdown(s("room_still_open", code=code))
            if st.button(s("room_return", code=code), key=f"{key}_{code}_go", type="primary", icon=":material/co_present:"):
                st.switch_page("pages/lesson.py", query_params={"room": code, "present": "1", "lang": lang})
    return bool(held)


def return_links(s: Strings, lang: str, held: list[str] | None = None) -> None:
    """A way back to each open room this browser presents (presenter trial 2026-12-05: "leave this screen, the
    room stays open" led to the lesson, and no screen showed the room again; only the browser's Back did).
    `held`: `held_rooms()` when the caller already asked the store."""
    for code in held_rooms() if held is None else held:
        st.page_link("pages/lesson.py", label=s("room_return", code=code), icon=":material/co_present:",
                     query_params={"room": code, "present": "1", "lang": lang})


# --- entry ----------------------------------------------------------------------------------------
OPENING_KEY = "room_opening"


def open_button(s: Strings, lang: str, big: bool = False) -> None:
    """Open a room (its lobby, with the code, QR and address, appears next): presenter mode's bottom
    row, and (`big`) the lesson's first screen for a presenter who starts there."""
    if st.session_state.pop(DOWN_KEY, False):
        down_message(s)
    st.html(KEYS_JS, unsafe_allow_javascript=True)  # presenter mode: a clicker's PageDown/PageUp, also on a slider
    return_links(s, lang)
    st.button(s("room_run") if big else s("room_open"), key="room_open_big" if big else "room_open",
              icon=":material/groups:", help=s("room_open_help") if big else None,  # presenter mode is projected: no tooltip there
              type="primary" if big else "secondary",
              on_click=_open_room, args=(lang,))


def lesson_entry(s: Strings, lang: str) -> None:
    """The lesson's first screen: "run a session for a room" (a room's lobby in presenter mode next)."""
    from ui import room_join

    with st.container(border=True, key="lesson_run_box"):  # no heading of its own: the step's h2 comes next
        st.markdown(f"**{s('start_run_title')}**")
        room_join.run_section(s, lang, "lesson_run", title=False)


def _open_room(lang: str) -> None:
    try:
        code, key = get_store().open_room(LOBBY, lang)
    except StoreDown as exc:
        log.error("room store down: %s", exc)
        st.session_state[DOWN_KEY] = True
        return
    st.session_state[KEY_STATE.format(code=code)] = key
    st.session_state[OPENING_KEY] = code
    st.query_params.pop("step", None)
    st.query_params.update({"room": code, "present": "1"})


def open_and_go(lang: str) -> None:
    """The start page's "run a session": open a room and go to its lobby (presenter mode)."""
    _open_room(lang)
    code = st.session_state.get(OPENING_KEY)
    if code:
        st.switch_page("pages/lesson.py", query_params={"room": code, "present": "1", "lang": lang})


def show(s: Strings, les: lesson.Lesson, questions: Sequence[quiz.Question], outcomes: Mapping[str, quiz.Outcome],
         d: lesson_steps.Data, raw_code: str, notes: bool) -> bool:
    """The room the URL names, in the view the URL asks for. False when the store is down (the
    message is shown; the page goes on with the lesson on its own)."""
    from ui import room_phone, room_projector  # the views import this module's helpers

    if st.session_state.pop(DOWN_KEY, False):
        down_message(s)
    code = codes.normalize(raw_code)
    note_reload(code)
    mark_run("top")
    key, in_url = presenter_key(code)
    wants_presenter = in_url or notes or st.query_params.get("present") == "1"
    try:
        store = get_store()
        try:
            room = store.room(raw_code)
        except NoRoom as err:
            room_phone.code_form(s, err, presenter=bool(key) and wants_presenter)
            return True
        presenter = bool(key) and wants_presenter and store.is_presenter(room.code, key)
        if in_url and not presenter:
            st.warning(s("room_not_presenter"))
        if presenter:
            remember_key(room.code, key)
        # a step's choice: the presenter's projected screen keeps it, phones draw it (the wall and the phones showed
        # two charts for one step: presenter re-check 2026-12-05)
        if presenter and not notes:  # following too: a second projected tab takes the first's choice, never fights it
            d = replace(d, present=True, share=functools.partial(share_choice, store, room.code, key), follow=room.choices)
        elif not presenter:
            d = replace(d, follow=room.choices)
        st.session_state[CHOICES_DRAWN] = dict(room.choices)
        kept = in_room(questions, room)
        c = Ctx(les, kept, outcomes, d, store, room, screens(les, kept), key if presenter else None, None,
                tuple(questions))
        if presenter:
            # no toast on opening: the lobby on the wall is the room opened, and a toast stood over its join
            # address for its first seconds (presenter trial 2026-12-05)
            st.session_state.pop(OPENING_KEY, None)
            if notes:
                room_projector.notes_view(s, c)
            else:
                if not d.present:  # the projected screen always in presenter mode's large type
                    lesson_steps.present_style()
                room_projector.projected_view(s, c)
        elif wants_presenter and not in_url:
            # presenter mode or the notes view on a browser without the key: the key opens it here (the notes view
            # showed the audience's join form: newcomer trial 2026-12-06)
            room_projector.take_over(s, room)
        else:
            room_phone.phone_view(s, c)
        mark_run("end")
        return True
    except StoreDown as exc:
        log.error("room store down: %s", exc)
        down_message(s)
        st.session_state["room_retry_skip"] = True
        retry_when_back(raw_code)
        return False


CONFIRM_REVEAL = "room_confirm_reveal"  # "room/question" while the presenter is asked before revealing (room_projector)

CHOICES_DRAWN = "room_choices_drawn"
"""The steps' shared choices this view last drew (or, on the presenter's screen, last kept): `live` reruns
the page when the room's differ. Not in `Room.state`: the presenter's own change would redraw its screen."""


def share_choice(store: Store, code: str, key: str, step_id: str, value) -> None:
    """The presenter's choice on a step, kept for the phones (lesson_steps `Data.share`); once per change."""
    drawn = dict(st.session_state.get(CHOICES_DRAWN) or {})
    if drawn.get(step_id) == value:
        return
    try:
        store.set_choice(code, key, step_id, value)
    except StoreDown:
        st.session_state[DOWN_KEY] = True
        return
    except (PermissionError, ValueError):  # the room ended meanwhile; a value that is no step's choice
        return
    drawn[step_id] = value
    st.session_state[CHOICES_DRAWN] = drawn


@st.fragment(run_every=RETRY_S)
def retry_when_back(raw_code: str) -> None:
    """While the database is down, ask again now and then; once it answers, the room comes back.
    Not in the page's own run, which has just asked (a database that does not answer takes seconds)."""
    if st.session_state.pop("room_retry_skip", False):
        return
    try:
        get_store().room(raw_code)
    except StoreDown:
        return
    except NoRoom:
        pass
    st.rerun()


def down_message(s: Strings) -> None:
    st.error(s("room_down"), icon=":material/cloud_off:")


# --- live: every view follows the room ----------------------------------------------------------
def timer_text(s: Strings, seconds: float) -> str:
    whole = int(seconds + 0.999)
    return s("room_timer_left", t=f"{whole // 60}:{whole % 60:02d}")


WHO_MAX = 30  # nicknames the lobby lists; more are counted ("and 12 more")
WHO_CHARS = 90
"""Characters of nicknames the lobby lists before it counts the rest (about twenty short nicknames, four long
ones): at 1366 x 768 the projected lobby's name column holds about 25 characters a line and four lines under
the code (tests/e2e/test_room_fits.py; presenter re-check
2026-12-05: twelve long names ran off the bottom of the screen)."""


def who_line(s: Strings, nicks: Sequence[str | None], max_chars: int = WHO_CHARS) -> str:
    """Who is here, by nickname (as text: `md`), in joining order, as many as fit in `max_chars`
    characters (at most WHO_MAX); the rest counted, and those without a nickname counted."""
    named, seen = [], {}
    for n in (x for x in nicks if x):  # a second "민지" told apart: "민지 (2)" (presenter re-check 2026-12-06:
        seen[n] = seen.get(n, 0) + 1   # "민지, 준호, 민지" on the lobby)
        named.append(s("room_who_again", name=n, n=seen[n]) if seen[n] > 1 else n)
    shown, used = [], 0
    for n in named[:WHO_MAX]:
        if shown and used + len(n) > max_chars:
            break
        shown.append(n)
        used += len(n) + 2  # ", "
    parts = [md(n) for n in shown]
    if len(named) > len(shown):
        parts.append(s("room_who_more", n=len(named) - len(shown)))
    anon = len(nicks) - len(named)
    if anon:
        parts.append(s("room_who_anon", n=anon))
    return s("room_who", names=", ".join(parts)) if parts else ""


@dataclass(frozen=True)
class Vote:
    """The vote on the room's current question as a view draws it: the question (None off a
    question), which vote is open (1, 2, or None), the countdown's seconds left (None without one;
    0: it ran out and the vote is closed)."""

    question: quiz.Question | None
    vote: int | None
    left: float | None

    @property
    def over(self) -> bool:
        return self.left == 0.0

    @property
    def accepting(self) -> bool:
        return self.vote is not None and not self.over


def vote_for(c: Ctx, q: quiz.Question | None, room: room_store.Room | None = None) -> Vote:
    room = room or c.room
    vote = room.open_vote(q.id) if q else None
    return Vote(q, vote, room.seconds_left(q.id, vote, c.store.clock()) if vote else None)


def vote_now(c: Ctx, room: room_store.Room | None = None) -> Vote:
    """The vote on the room's current screen."""
    return vote_for(c, question_of(c, current(c)), room)


def live(c: Ctx, s: Strings, counts: bool, drawn_over: bool, big: bool = False, names: bool = False,
         while_nobody=None) -> None:
    """The poll (`_poll`, every LIVE_S) and its watchdog (`wake`): only a view that polls has one (a join
    form's typing is never rerun by it)."""
    wake(s, st.container(key=style.SCRIPTS_KEY + "room_wake_box"), c.room.code)
    _poll(c, s, counts, drawn_over, big, names, while_nobody)


@st.fragment(run_every=LIVE_S)
def _poll(c: Ctx, s: Strings, counts: bool, drawn_over: bool, big: bool = False, names: bool = False,
          while_nobody=None) -> None:
    """Ask the store for the room; rerun the page when its state changed or the countdown on the
    open vote ran out since the page was drawn (`drawn_over`). With `counts` (the presenter's
    views), the people here and, on a question with a vote open, how many answered. A countdown
    shows on every view. A phone says every TOUCH_S that it is still there (presence). `while_nobody`: drawn
    while nobody is here (the lobby's "phones cannot reach this address", which a joined phone proves wrong)."""
    try:
        try:
            room = c.store.room(c.room.code)
        except NoRoom:
            st.rerun()  # the room expired while open: the page's full run says so
        v = vote_now(c, room)
        if room.state != c.room.state or (v.over and not drawn_over) or \
                dict(room.choices) != st.session_state.get(CHOICES_DRAWN, dict(c.room.choices)):
            st.rerun()
        if c.token and not counts:
            from ui import room_phone
            if room_phone.pending_answer():
                st.rerun()  # a choice the page did not draw as saved: the page's run saves it (room_phone.settle)
        if counts:
            from ui import room_projector
            if room_projector.pending_pick():
                st.rerun()  # a question box clicked without its callback: the page's run takes it (_picker_boxes)
        now = c.store.clock().timestamp()
        if c.token and now - st.session_state.get("room_touched", 0.0) >= room_store.TOUCH_S:
            st.session_state["room_touched"] = now
            c.store.touch(room.code, c.token)
        lines = []
        if counts:
            here = c.store.count_present(room.code)
            if v.vote:
                n = sum(c.store.counts(room.code, v.question.id, v.vote).values())
                if n and st.session_state.get(CONFIRM_REVEAL) == f"{room.code}/{v.question.id}":
                    st.rerun()  # "nobody has answered yet" no longer holds: the page's run takes the question away
                lines.append(s("room_answered" if v.vote == 1 else "room_answered2", n=n, total=max(here, n)))
            elif v.question is None:
                lines.append(s("room_lobby_here", n=here))
        if v.left is not None and (v.left > 0 or not c.token):  # a phone says "time is up" once, over its options
            lines.append(timer_text(s, v.left) if v.left > 0 else s("room_timer_over"))
        with st.container(key="room_live_big" if big else "room_live"):
            for line in lines:
                st.markdown(f"**{line}**")
            if names and counts:
                who = who_line(s, c.store.nicknames(room.code))
                if who:
                    st.markdown(who)
        if counts and while_nobody is not None and not here:
            while_nobody()
    except StoreDown:
        st.rerun()  # the database is away: the page's full run names it and waits for it (retry_when_back)
