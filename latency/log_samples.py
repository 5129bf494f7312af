"""`python -m latency.log_samples` writes the sample latency logs. A command's address only: the code lives in
`latency.measured.log_samples`; import that, never this module."""

if __name__ != "__main__":  # pragma: no cover  (a stray import would find nothing here: say where to look)
    raise ImportError("latency.log_samples is only the command `python -m latency.log_samples`; import latency.measured.log_samples")

import sys

from latency.measured.log_samples import main

sys.exit(main())
