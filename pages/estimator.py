"""Latency estimator page: sliders drive live charts, and "Feel it" plays the estimate in real time.

The code is in pages/_views/estimator.py (imported, so compiled once); see its docstring.
"""

from pages._views.estimator import render

render()
