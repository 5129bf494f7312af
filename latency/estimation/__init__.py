"""The estimate itself: one named function per stage (estimator), the network stage (network), every
constant beside its source (constants), the fit on ../shared/calibration (calibrate, with
fitted_params.json and calibration_report.json beside it), and the inputs it is run on: the hardware
and model catalogs (catalog), a model for any size (sizing), distances and named places (places) and
the one scenario the URL and the pages share (scenario). Imports only `latency.language`."""
