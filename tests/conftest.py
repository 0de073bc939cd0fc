"""pytest collects the ruling cases (tests/cases/*.yaml): one test per check; the tests that need
../shared skip with one reason, and the run ends with a line saying how many did and what was missing."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Iterable

import pytest

from pyrules.cases import case_checks, load_cases, run_check

_ENGINE = None

# ../shared: the rulings documents and card databases beside the checkout (PYRULES_SHARED names another place)
SHARED = Path(os.environ.get("PYRULES_SHARED") or Path(__file__).resolve().parent.parent.parent / "shared")
GOAT = SHARED / "data" / "goat-format-en.cdb"
NEEDS_SHARED = "needs ../shared"      # the start of the one reason every such test skips with


def shared_absent(path: Path) -> str:
    """The skip reason of a test that needs `path` of ../shared: skipif(not path.exists(), reason=...)."""
    return f"{NEEDS_SHARED}: {path} is absent"


def shared_skips(reports: Iterable[Any]) -> dict[str, int]:
    """The skipped test reports whose reason is shared_absent(...): what was absent -> how many."""
    out: dict[str, int] = {}
    for r in reports:
        longrepr = getattr(r, "longrepr", None)       # (file, line, "Skipped: reason"); a list when from xdist
        reason = str(longrepr[-1]) if isinstance(longrepr, (tuple, list)) and longrepr else str(longrepr or "")
        if NEEDS_SHARED + ": " in reason:
            what = reason.split(NEEDS_SHARED + ": ", 1)[1].removesuffix(" is absent")
            out[what] = out.get(what, 0) + 1
    return out


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line at the end of the run: how many tests skipped because ../shared was missing, and what."""
    found = shared_skips(terminalreporter.stats.get("skipped", []))
    if found:
        n = sum(found.values())
        terminalreporter.write_line(
            f"{n} test{'s' * (n != 1)} skipped: ../shared is missing ({', '.join(sorted(found))} absent; the "
            "rulings documents and card databases beside the checkout: put them there or set PYRULES_SHARED)",
            yellow=True)


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
