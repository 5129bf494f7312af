"""Real numbers: a real decode on the server and its probe (measure), people's own request logs read
and summarised (logs), and the sample logs (log_samples). Stands beside the teaching and exploring
floors: imports only `latency.estimation` (the prediction it is compared with) and `latency.language`."""
