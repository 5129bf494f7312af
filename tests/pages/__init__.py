"""AppTest tests of every page in both languages (pages/), one file per page."""
