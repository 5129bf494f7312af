"""`python -m latency.content check` checks every content file. A command's address only: the code lives in
`latency.teaching.content`; import that, never this module."""

if __name__ != "__main__":  # pragma: no cover  (a stray import would find nothing here: say where to look)
    raise ImportError("latency.content is only the command `python -m latency.content check`; import latency.teaching.content")

import sys

from latency.teaching.content import main

sys.exit(main())
