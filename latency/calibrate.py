"""`python -m latency.calibrate [--check]` fits the estimator on ../shared/calibration. A command's address only: the code lives in
`latency.estimation.calibrate`; import that, never this module."""

if __name__ != "__main__":  # pragma: no cover  (a stray import would find nothing here: say where to look)
    raise ImportError("latency.calibrate is only the command `python -m latency.calibrate [--check]`; import latency.estimation.calibrate")

import sys

from latency.estimation.calibrate import main

sys.exit(main())
