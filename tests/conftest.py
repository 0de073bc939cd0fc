"""pytest collects the ruling cases (tests/cases/*.yaml): one test per check."""
from __future__ import annotations

import os
import tempfile

import pytest

from pyrules.cases import case_checks, load_cases, run_check

_ENGINE = None


def engine():
    global _ENGINE
    if _ENGINE is None:
        from pyrules import Engine
        _ENGINE = Engine()
    return _ENGINE


def pytest_configure(config):
    """The tests (and the processes they start) keep pyrules' cache in a folder of their own."""
    os.environ.setdefault("PYRULES_CACHE_DIR", os.path.join(tempfile.gettempdir(), f"pyrules-tests-{os.getuid()}"))


def pytest_collect_file(parent, file_path):
    if file_path.suffix in (".yaml", ".yml") and "cases" in file_path.parts:
        return CaseFile.from_parent(parent, path=file_path)


class CaseFile(pytest.File):
    def collect(self):
        for case in load_cases(self.path):
            for label, spec in case_checks(case):
                yield CaseCheck.from_parent(self, name=f"{case['name']} :: {label}", case=case, spec=spec)


class CaseCheck(pytest.Item):
    def __init__(self, *, case, spec, **kw):
        super().__init__(**kw)
        self.case, self.spec = case, spec

    def runtest(self):
        ok, message = run_check(engine(), self.case, self.spec)
        if not ok:
            raise CaseFailure(message)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFailure):
            return f"{self.name}\n  source: {self.case.get('source', '?')}\n  {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, self.name


class CaseFailure(Exception):
    pass
