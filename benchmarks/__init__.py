"""The benchmark programs; tests import its shared workload as `benchmarks.workload` (pytest puts the
checkout on its path: pyproject.toml, `pythonpath`)."""
