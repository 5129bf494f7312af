"""Language: the ground floor every other part stands on. Reading YAML files and naming what is wrong
in them (errors), the UI strings of every page and their escaping (i18n), Korean particles (korean),
every number as it is shown (formats), and the check of the code's UI keys against the YAML
(content_check). Knows nothing of latency; imports nothing else from `latency`."""
