"""Streamlit glue shared by the pages: current language, cached UI strings, error display.

Not a page itself (the leading underscore); `app.py` lists the pages explicitly.
"""

from __future__ import annotations

from ui.shell import current_lang, page_strings, show_content_error, strings as ui  # noqa: F401  (moved to ui.shell)
