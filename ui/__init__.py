"""Streamlit glue shared by the pages: the only package besides `pages/` and `app.py` that imports
streamlit. `latency/` holds the logic; `ui/` holds sections (plain functions that take their data as
arguments and draw it), the one scenario state and the page shell."""
