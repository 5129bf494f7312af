"""Exploring: what the explorer pages (estimator, trade-offs) compute from a scenario. What they load
once per language, the entry's budgets among it (explorer), presets (presets), a time against a budget
(verdict), and the trade-off page's grids, headline, concurrency, cost, memory and export (tradeoffs).
The top floor: it may import every other part, since the explorer pages show the entry's budgets
(`latency.teaching`) with the estimate."""
