"""Mutation testing of the rules (pyrules/mutate.py, `pyrules test --mutate`): each operator
makes a program that parses and differs from the original in one place; samples are
reproducible; equivalence markers are read; the command runs a tiny rules folder quickly."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from clingo.ast import parse_string

from pyrules.cli import main
from pyrules.mutate import KINDS, candidates, equivalence, make_mutant, markers, sample, statement_sites, mutated

PROGRAM = """\
% Source: CONTRACT 1
% a sample of every kind of place a mutation applies to.
a(X) :- b(X), not c(X), X >= 5.
d(N) :- N = #count { Y : e(Y), not f(Y) }, N != 2.
g(1..3).
h(X) :-
    b(X),       % mutate: equivalent(drop): a test of the line marker
    X < 10.
"""


def _statements(text: str) -> list:
    out: list = []
    parse_string(text, out.append)
    return out


def _texts(text: str) -> list[str]:
    """The statements of a program, comments apart (a rule rewritten loses the comments inside it)."""
    return [str(s) for s in _statements(text) if s.ast_type.name != "Comment"]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "sample.lp").write_text(PROGRAM)
    return rules


def test_every_kind_has_places_in_the_sample_program():
    stmts = _statements(PROGRAM)
    kinds = {s.kind for i, st in enumerate(stmts) for s in statement_sites(st, Path("x.lp"), i)}
    assert kinds == set(KINDS)


def test_each_mutant_parses_and_differs_from_the_original_in_one_statement(folder):
    base, sites = candidates(folder)
    original = _texts(PROGRAM)
    seen = 0
    for site in sites:
        m = make_mutant(base, site)
        assert m is not None, site
        assert m.text.count("\n") == PROGRAM.count("\n")       # no other line moves
        changed = _texts(m.text)                               # parses
        assert len(changed) == len(original)
        differing = [i for i, (a, b) in enumerate(zip(original, changed)) if a != b]
        assert len(differing) == 1, (site, m.mutation)
        seen += 1
    assert seen == len(sites) > 10


def test_the_operators_change_what_they_say():
    rule = _statements("a(X) :- b(X), not c(X), X >= 5.")[1]
    by_kind = {}
    for site in statement_sites(rule, Path("x.lp"), 1):
        by_kind.setdefault((site.kind, site.option), []).append(str(mutated(rule, site)))
    assert "a(X) :- not c(X); X >= 5." in by_kind[("drop", 0)]
    assert "a(X) :- b(X); c(X); X >= 5." in by_kind[("not", 0)]
    assert by_kind[("op", 0)] == ["a(X) :- b(X); not c(X); X > 5."]
    assert by_kind[("number", 1)] == ["a(X) :- b(X); not c(X); X >= 6."]
    assert by_kind[("number", -1)] == ["a(X) :- b(X); not c(X); X >= 4."]


def test_a_sample_is_the_same_for_the_same_seed(folder):
    one, _ = sample(folder, 5, seed=7)
    two, _ = sample(folder, 5, seed=7)
    assert [(m.line, m.kind, m.mutation) for m in one] == [(m.line, m.kind, m.mutation) for m in two]
    assert len(one) == 5


def test_a_dropped_literal_that_leaves_a_variable_unsafe_is_passed_over(folder):
    every, skipped = sample(folder, 1000, seed=1)
    assert skipped > 0
    assert not any(m.kind == "drop" and m.before == "b(X)" and m.line == 3 for m in every)   # X unbound


def test_equivalence_markers_on_the_line_and_above_the_rule():
    text = ("% Source: x\n% mutate: equivalent(op): the boundary is never reached\n"
            "a(X) :- b(X), X > 1.\n\nc(X) :- d(X),   % mutate: equivalent: d is c\n   e(X).\n")
    lines, marks = text.splitlines(), markers(text)
    assert equivalence(lines, marks, 3, 3, "op") == "the boundary is never reached"
    assert equivalence(lines, marks, 3, 3, "drop") is None
    assert equivalence(lines, marks, 5, 5, "drop") == "d is c"
    assert equivalence(lines, marks, 5, 6, "drop") is None       # another line of the rule
    assert markers("% mutate: equivalent:\n") == {}              # a marker gives its reason
    text = "a(X) :- b(X,Y), c(Y), d(X).   % mutate: equivalent(drop c(Y); op): c holds for every Y b gives\n"
    lines, marks = text.splitlines(), markers(text)
    assert equivalence(lines, marks, 1, 1, "drop", "c( Y )") == "c holds for every Y b gives"
    assert equivalence(lines, marks, 1, 1, "drop", "d(X)") is None
    assert equivalence(lines, marks, 1, 1, "op", "X < 2") == "c holds for every Y b gives"


def _tiny(tmp_path: Path, cases: str) -> tuple[Path, Path]:
    rules = tmp_path / "rules"
    (rules / "catalogue").mkdir(parents=True)
    (rules / "catalogue" / "reasons.lp").write_text(
        'reason(not_draw_phase, "a card is drawn in the Draw Phase only", "CONTRACT 1").\n')
    (rules / "draw.lp").write_text(
        "candidate(A) :- query(A).\n"
        "forbidden(A,R) :- forbidden(A,R,_).\n"
        "permitted(A) :- candidate(A), not forbidden(A,_).\n"
        "forbidden(draw, not_draw_phase, none) :-\n"
        "    candidate(draw),      % mutate: equivalent(drop): only a query is judged here\n"
        "    phase(P), P != draw.\n"
        "#show permitted/1.\n#show forbidden/2.\n")
    path = tmp_path / "cases.yaml"
    path.write_text(cases)
    return rules, path


DRAW_PERMITTED = """\
- name: A card is drawn in the Draw Phase
  source: CONTRACT 1
  snapshot: {phase: draw}
  checks:
    - {action: draw, permitted: true}
"""
DRAW_FORBIDDEN = """\
- name: No card is drawn in Main Phase 1
  source: CONTRACT 1
  checks:
    - {action: draw, permitted: false, reasons: [not_draw_phase]}
"""


def test_mutate_on_a_tiny_rules_folder_kills_every_mutant(tmp_path):
    rules, cases = _tiny(tmp_path, DRAW_PERMITTED + DRAW_FORBIDDEN)
    res = CliRunner().invoke(main, ["test", str(cases), "--rules", str(rules), "--mutate", "10", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    statuses = sorted((m["line"], m["kind"], m["status"]) for m in report["mutants"])
    assert statuses == [(3, "drop", "killed"), (3, "not", "killed"), (5, "drop", "equivalent"),
                        (6, "drop", "killed"), (6, "op", "killed")]
    assert report["killed"] == 4 and report["survived"] == 0 and report["score"] == 1.0
    killer = next(m for m in report["mutants"] if m["kind"] == "op")["killed_by"]
    assert killer["case"] == "No card is drawn in Main Phase 1"


def test_mutate_two_lists_a_survivor_and_exits_by_the_threshold(tmp_path):
    rules, cases = _tiny(tmp_path, DRAW_PERMITTED)        # nothing says when a draw is forbidden
    args = ["test", str(cases), "--rules", str(rules), "--mutate", "10"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 1, res.output
    assert "survived   rules/draw.lp:3" in res.stdout and "dropped not forbidden(A,_)" in res.stdout
    assert "3 of 4 non-equivalent mutants killed (75%" in res.stdout
    assert CliRunner().invoke(main, args + ["--min", "0.75"]).exit_code == 0
    two = CliRunner().invoke(main, ["test", str(cases), "--rules", str(rules), "--mutate", "2", "--seed", "3",
                                    "--json"])
    assert two.exit_code in (0, 1)
    got = json.loads(two.stdout)
    assert got["sample"] == 2 and got["seed"] == 3 and len(got["mutants"]) == 2
    assert (got["score"] >= 0.95) is (two.exit_code == 0)


def test_mutate_with_two_workers_gives_each_mutant_the_same_status(tmp_path):
    """--workers 2 runs two mutants at once, each on its own copy of the rules: every status is the one
    a single worker gives, and the rules folder is left as it was."""
    rules, cases = _tiny(tmp_path, DRAW_PERMITTED)        # one survivor among them
    before = (rules / "draw.lp").read_text()
    got = {}
    for workers in ("1", "2"):
        res = CliRunner().invoke(main, ["test", str(cases), "--rules", str(rules), "--mutate", "10", "--json",
                                        "--workers", workers])
        assert res.exit_code == 1, res.output
        report = json.loads(res.stdout)
        got[workers] = sorted((m["line"], m["kind"], m["mutation"], m["status"]) for m in report["mutants"])
        assert report["survived"] == 1 and report["killed"] == 3
    assert got["1"] == got["2"]
    assert (rules / "draw.lp").read_text() == before
    bad = CliRunner().invoke(main, ["test", str(cases), "--rules", str(rules), "--mutate", "2", "--workers", "0"])
    assert bad.exit_code == 2 and "--workers" in bad.output


def test_mutate_refuses_rules_that_fail_their_cases(tmp_path):
    rules, cases = _tiny(tmp_path, DRAW_PERMITTED.replace("permitted: true", "permitted: false"))
    res = CliRunner().invoke(main, ["test", str(cases), "--rules", str(rules), "--mutate", "2"])
    assert res.exit_code == 1
    assert "unmutated rules fail" in res.stderr and "FAILED" in res.stdout


def test_a_check_with_exact_reasons_or_notes_notices_one_too_many(tmp_path):
    """What a mutant that only adds a reason or a note needs a case to say: `exact: true` (no other
    reason) and `notes` (the key has that one value)."""
    from pyrules import Engine
    from pyrules.cases import case_checks, run_check
    rules, _ = _tiny(tmp_path, DRAW_PERMITTED)
    draw = rules / "draw.lp"
    draw.write_text(draw.read_text() + "forbidden(draw, no_reason_here, none) :- candidate(draw), phase(main1).\n"
                    "note(draw, drawn_from, deck) :- query(draw).\n#show note/3.\n")

    def run(engine: Engine, check: dict) -> tuple[bool, str]:
        case = {"name": "n", "snapshot": {"phase": "main1"}, "checks": [check]}
        (_, spec), = case_checks(case)
        return run_check(engine, case, spec)

    engine = Engine(rules=rules)
    forbidden = {"action": "draw", "permitted": False, "reasons": ["not_draw_phase"]}
    assert run(engine, forbidden) == (True, "")
    ok, message = run(engine, {**forbidden, "exact": True})
    assert not ok and "exactly the reasons ['not_draw_phase']" in message
    assert run(engine, {**forbidden, "notes": {"drawn_from": "deck"}}) == (True, "")
    draw.write_text(draw.read_text() + "note(draw, drawn_from, graveyard) :- query(draw).\n")
    ok, message = run(Engine(rules=rules), {**forbidden, "notes": {"drawn_from": "deck"}})
    assert not ok and "graveyard" in message


def test_only_draws_the_mutants_from_the_files_it_names(folder):
    (folder / "next").mkdir()
    (folder / "next" / "other.lp").write_text("% Source: CONTRACT 1\n% another file.\nz(X) :- b(X), not c(X).\n")
    every, _ = sample(folder, 1000, seed=1)
    assert {m.file.name for m in every} == {"sample.lp", "other.lp"}
    inner, _ = sample(folder, 1000, seed=1, only=("next/*.lp",))
    assert inner and {m.file.name for m in inner} == {"other.lp"}
    assert {m.file.name for m in sample(folder, 1000, seed=1, only=("sample.lp",))[0]} == {"sample.lp"}


def test_only_naming_no_rule_file_exits_2_naming_the_option(tmp_path):
    rules, cases = _tiny(tmp_path, DRAW_PERMITTED)
    res = CliRunner().invoke(main, ["test", str(cases), "--rules", str(rules), "--mutate", "2", "--only", "drw.lp"])
    assert res.exit_code == 2
    assert "--only" in res.stderr and "'drw.lp' matches no rule file" in res.stderr
    ok = CliRunner().invoke(main, ["test", str(cases), "--rules", str(rules), "--mutate", "10", "--only", "draw.lp",
                                   "--json"])
    assert {m["file"] for m in json.loads(ok.stdout)["mutants"]} == {"rules/draw.lp"}
