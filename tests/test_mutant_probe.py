"""tools/mutant_probe.py: the probe of every mutant of a rule file tells a mutant some check's grounding
notices (seen, and killed when confirmed) from one no check's grounding can tell from the original
(unseen: a survivor), on a tiny rules folder whose cases leave one rule's guard untested."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from test_mutate import DRAW_FORBIDDEN, DRAW_PERMITTED, _tiny

TOOL = Path(__file__).resolve().parent.parent / "tools" / "mutant_probe.py"


def _probe(capsys, monkeypatch, args: list[str]) -> dict:
    monkeypatch.setenv("PYRULES_CACHE_DIR", "off")      # (the tool turns the cache off: restored after)
    spec = importlib.util.spec_from_file_location("mutant_probe", TOOL)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "mutant_probe", module)
    spec.loader.exec_module(module)
    assert module.main(args + ["--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def _by_change(report: dict) -> dict[tuple[int, str], str]:
    (one,) = report["files"]
    return {(m["line"], m["mutation"]): m["status"] for m in one["all"]}


def test_the_probe_finds_the_survivor_and_confirms_the_kill(tmp_path, capsys, monkeypatch):
    rules, cases = _tiny(tmp_path, DRAW_PERMITTED)        # nothing says when a draw is forbidden
    got = _by_change(_probe(capsys, monkeypatch, [str(rules / "draw.lp"), "--rules", str(rules), "--cases", str(cases),
                                     "--confirm"]))
    # a permitted draw's check grounds `permitted(draw)`: the mutant that asks `forbidden(A,_)` instead
    # of `not forbidden(A,_)` derives nothing there, and the real mutant fails the check
    assert got[(3, "not forbidden(A,_)  ->  forbidden(A,_)")] == "killed"
    # no case draws outside the Draw Phase, so without `not forbidden(A,_)` every world derives the same
    assert got[(3, "dropped not forbidden(A,_)")] == "unseen"
    assert got[(5, "dropped candidate(draw)")] == "equivalent"       # the marker is read


def test_a_case_that_forbids_the_draw_makes_the_survivor_seen_and_killed(tmp_path, capsys, monkeypatch):
    rules, cases = _tiny(tmp_path, DRAW_PERMITTED + DRAW_FORBIDDEN)
    report = _probe(capsys, monkeypatch, [str(rules / "draw.lp"), "--rules", str(rules), "--cases", str(cases), "--confirm"])
    got = _by_change(report)
    assert got[(3, "dropped not forbidden(A,_)")] == "killed"
    assert report["files"][0]["survivors"] == []
    assert report["checks"] == 2 and report["groundings"] >= 2
