"""Room codes: short, read aloud and typed on a phone, so no look-alike characters.

The alphabet leaves out every character that reads like another in common fonts or handwriting
(`LOOK_ALIKES`: 0/O/Q/D, 1/I/L/J, 2/Z, 5/S, 8/B, 6/G, U/V/W) and the vowels, so no code spells a
word. What is left, 15 characters, gives 15**6 = 11.4 million codes of six characters; a clash
with a room alive at the same time is retried by the store.
"""

from __future__ import annotations

import ipaddress
import os
import re
import urllib.parse
import secrets
from typing import Mapping

ALPHABET = "CFHKMNPRTXY3479"  # 15 characters
LENGTH = 6
# Look-alike groups left out (one of each would still be ambiguous when read off a projector):
LOOK_ALIKES = ("0OQD", "1IlLJ", "2Z", "5S", "8B", "6G", "UVW", "AE")
PUBLIC_URL_ENV = "LATENCY_PUBLIC_URL"  # the app's address as phones reach it (docs/deploy.md), e.g. http://10.0.0.5:8501
ROOM_PAGES = ("lesson", "join")  # the app's pages a room's addresses point at (ui/shell.py PAGES)
_SEPARATORS = re.compile(r"[\s\-_.·]+")


def new_code(rand=secrets.choice) -> str:
    """A fresh random code (`rand` picks one character; secrets.choice by default)."""
    return "".join(rand(ALPHABET) for _ in range(LENGTH))


def normalize(raw: str | None) -> str:
    """What a person typed, as a code: upper case, spaces and dashes dropped. May still be invalid."""
    return _SEPARATORS.sub("", str(raw or "")).upper()[:32]


def look_alikes(raw: str | None) -> list[tuple[str, str]]:
    """Each character typed that a room code never has because it looks like another, with its
    group (e.g. ("O", "0OQD")), in the order typed, once each: the join page names them."""
    seen: list[tuple[str, str]] = []
    for ch in normalize(raw):
        group = next((g for g in LOOK_ALIKES if ch in g.upper()), None)
        if group and ch not in [c for c, _ in seen]:
            seen.append((ch, group))
    return seen


def is_valid(code: str) -> bool:
    """Whether `code` (normalized) could be a room code at all: the length and the alphabet."""
    return len(code) == LENGTH and all(c in ALPHABET for c in code)


def join_url(page_url: str | None, code: str, page: str = "lesson", extra: dict[str, str] | None = None) -> str:
    """The address participants open: the lesson page with ?room=CODE, on the server's address as
    the presenter's browser sees it (`page_url`, st.context.url: scheme, host, port and any base
    path, without the query). Without one (no browser), the path alone."""
    parts = urllib.parse.urlsplit(page_url or "")
    path = parts.path.rstrip("/")
    for known in ROOM_PAGES:  # the page the presenter's browser is on: the app's base path is what is before it
        if path.endswith("/" + known):
            path = path[: -len(known) - 1]
            break
    query = urllib.parse.urlencode({**(extra or {}), "room": code})
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, f"{path}/{page}", query, ""))


def short_address(page_url: str | None, page: str = "join") -> str:
    """The short join address shown on the projector, as a person types it: host (and port, and any
    base path) and /join, without the scheme; only characters a URL may carry, nothing invisible."""
    full = join_url(page_url, "X", page=page).split("?", 1)[0]
    parts = urllib.parse.urlsplit(full)
    text = f"{parts.netloc}{parts.path}" if parts.netloc else parts.path
    return "".join(ch for ch in text if 0x21 <= ord(ch) < 0x7F and ch not in "`<>\"\\")


def public_url(env: Mapping[str, str] = os.environ) -> str | None:
    """The app's address as phones reach it, from $LATENCY_PUBLIC_URL (scheme, host, port and any base
    path; "http://" assumed when no scheme is given); None when unset or not an http(s) address."""
    raw = str(env.get(PUBLIC_URL_ENV) or "").strip()
    if not raw:
        return None
    if "://" not in raw:
        raw = "http://" + raw
    parts = urllib.parse.urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + "/", "", ""))


def base_url(page_url: str | None, env: Mapping[str, str] = os.environ) -> str | None:
    """The address the room's QR code and /join address are built on: $LATENCY_PUBLIC_URL when set,
    else the address the presenter's browser is on (`page_url`)."""
    return public_url(env) or page_url


def is_loopback(page_url: str | None) -> bool:
    """Whether the address only works on this computer: localhost, 127.x.x.x, ::1, 0.0.0.0 (or no
    host at all). A phone that opens it reaches itself, not the presenter's app."""
    host = (urllib.parse.urlsplit(page_url or "").hostname or "").lower()
    if not host or host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


LAN_EXAMPLE_HOST = "192.168.0.10"  # a typical home or office Wi-Fi address (RFC 1918 private range), for the example only


def lan_example(page_url: str | None, port: int | None = None) -> str:
    """The loopback warning's example: this app's own address with only the host changed to a Wi-Fi
    one ("http://127.0.0.1:8600/lesson" -> "http://192.168.0.10:8600"; base path kept). Without a
    browser address, `port` (the server's own) stands for it."""
    parts = urllib.parse.urlsplit(page_url or "")
    short = short_address(page_url, page="join")
    base = short[: -len("/join")] if short.endswith("/join") else short
    path = base.split("/", 1)[1] if parts.netloc and "/" in base else ""
    port = parts.port if parts.netloc else port
    netloc = LAN_EXAMPLE_HOST + (f":{port}" if port else "")
    return urllib.parse.urlunsplit((parts.scheme or "http", netloc, f"/{path}" if path else "", "", ""))
