"""Teaching: the glossary entries loaded and checked (content), the glossary index (glossary), the
entry's claims held against the estimate (claims), the how-it-works page's computed tables (explain),
the guided lesson (lesson), its quiz with answers computed by the estimator (quiz), and the pacing of
"feel it" (feel). Imports `latency.language`, `latency.estimation` and `latency.charts`."""
