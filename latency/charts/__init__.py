"""Charts: every figure builder, data in and a plotly figure or Vega-Lite spec out, with the shared
look (style). One module per page that draws: estimator (its chart tabs), live (the estimator's two
charts redrawn on each slider move), tradeoffs, lesson, logs. Text arrives already in the page's
language. Imports only `latency.language` and `latency.estimation`."""
