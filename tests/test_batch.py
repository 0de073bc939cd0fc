"""Batch judging: shared groundings give exactly the single-query results; JSON Lines CLI."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyrules import InvalidInput
from pyrules.batch import Batch, parse_line, progress, run, shared_statements
from pyrules.cases import DEFAULTS, load_cases, merge
from pyrules.cli import main
from benchmarks.workload import typical

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def engine():
    from conftest import engine as shared
    return shared()


CASE_FILES = sorted((ROOT / "tests" / "cases").glob("*.yaml"))


def _cases(paths=CASE_FILES):
    for path in paths:
        for case in load_cases(path):
            yield case, merge(DEFAULTS, case.get("snapshot"))


def _norm(result):
    return ("error", str(result)) if isinstance(result, InvalidInput) else result.to_json()


def _single(fn):
    try:
        return _norm(fn())
    except InvalidInput as e:
        return _norm(e)


def test_the_rules_take_a_snapshot_argument(engine):
    assert shared_statements(engine.statements) is not None


# one test per case file, so that the work spreads over pytest-xdist's workers
@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.stem)
def test_shared_grounding_lists_what_single_queries_list(engine, path):
    """Every ruling case snapshot, judged twice in one grounding, gives legal()'s answer."""
    n = 0
    for case, snap in _cases([path]):
        readings = case.get("readings")
        got = Batch(engine, readings).judge_chunk([snap, snap])
        want = _single(lambda: engine.legal(snap, readings))
        assert [_norm(g) for g in got] == [want, want], case["name"]
        n += 1
    assert n >= 1                     # (all files together: more than 100, see the next test)


def test_one_grounding_of_many_different_snapshots_lists_what_single_queries_list(engine):
    """All ruling case snapshots in ONE grounding: database cards share their facts across
    the chunk (each card's facts come from its name), inline cards keep their own."""
    cases = [(case, snap) for case, snap in _cases() if not case.get("readings")]
    got = Batch(engine, chunk=len(cases)).judge_chunk([snap for _, snap in cases])
    for (case, snap), result in zip(cases, got):
        assert _norm(result) == _single(lambda: engine.legal(snap)), case["name"]
    assert len(cases) > 100


def test_an_inline_card_named_like_a_database_card_keeps_its_own_facts(engine):
    """An inline "Battle Ox" of Level 7 needs 2 Tributes while the database's (Level 4) needs
    none, though both are judged in one grounding."""
    def board(card):
        return {"snapshot": 1, "turn": 3, "phase": "main1",
                "players": {"A": {"hand": [{"id": "ox", "card": card}],
                                  "monsters": [{"id": "m1", "card": "Mokey Mokey", "position": "attack"},
                                               {"id": "m2", "card": "Mokey Mokey", "position": "attack"}]},
                             "B": {}}}
    inline = {"name": "Battle Ox", "kind": "monster", "level": 7, "atk": 1700, "def": 1000}
    snaps = [board("Battle Ox"), board(inline), board("Battle Ox")]
    got = Batch(engine).judge_chunk(snaps)
    summons = [[a.tributes for a in r.permitted if a.action == "normal_summon"] for r in got]
    assert summons == [[()], [("m1", "m2")], [()]]
    assert [_norm(r) for r in got] == [_single(lambda s=s: engine.legal(s)) for s in snaps]


def test_every_database_card_fact_can_be_shared(engine):
    """Every fact the bundled cards give is one a batch can share (encode.CARD_PREDICATES)."""
    from pyrules.encode import CARD_PREDICATES, _PLACEHOLDER, card_facts, name_args
    seen = set()
    for card in engine.cards.by_name.values():
        out = []
        card_facts(out, _PLACEHOLDER, card, engine.names.scope())
        seen |= {(n, len(a)) for n, a in map(name_args, out)}
    assert seen == set(CARD_PREDICATES.items())


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.stem)
def test_shared_grounding_gives_the_verdicts_of_single_checks(engine, path):
    n = 0
    for case, snap in _cases([path]):
        for chk in case.get("checks", []):
            readings = {**(case.get("readings") or {}), **(chk.get("readings") or {})}
            got = Batch(engine, readings, chk["action"]).judge_chunk([snap, snap])
            want = _single(lambda: engine.check(snap, chk["action"], readings))
            assert [_norm(g) for g in got] == [want, want], (case["name"], chk["action"])
            n += 1
    assert n >= 1 or not any(case.get("checks") for case, _ in _cases([path]))


def test_legal_many_keeps_order_and_reports_bad_snapshots_in_place(engine):
    snaps = [typical(1), {"snapshot": 1, "players": {"A": {}}}, typical(2)]
    out = engine.legal_many(snaps)
    assert len(out) == 3
    assert isinstance(out[1], InvalidInput) and "players" in str(out[1])
    assert _norm(out[0]) == _norm(engine.legal(typical(1)))
    assert _norm(out[2]) == _norm(engine.legal(typical(2)))


def test_two_workers_give_the_same_lines_as_one(engine):
    lines = [json.dumps(typical(i)) for i in range(40)] + ["oops"] + [json.dumps(typical(99))]
    one = list(run(lines, engine=engine, engine_config=engine.config, as_json=True, chunk=8))
    two = list(run(lines, engine=engine, engine_config=engine.config, as_json=True, chunk=8, workers=2))
    assert one == two
    assert [json.loads(x)["line"] for x in one] == list(range(1, 43))
    assert "error" in json.loads(one[40])


def test_parse_line_turns_bad_lines_into_problems():
    assert isinstance(parse_line(""), InvalidInput)
    assert isinstance(parse_line("[1]"), InvalidInput)
    assert isinstance(parse_line("{nope"), InvalidInput)
    assert parse_line('{"snapshot": 1}') == {"snapshot": 1}


def test_progress_is_silent_off_a_terminal():
    err = io.StringIO()
    assert list(progress(iter(range(250)), 250, err)) == list(range(250))
    assert err.getvalue() == ""


def test_cli_batch_writes_one_line_per_input_line(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join([json.dumps(typical(1)), "not json", json.dumps(typical(2))]) + "\n")
    out = tmp_path / "out.jsonl"
    res = CliRunner().invoke(main, ["batch", str(src), "-o", str(out), "--json"])
    assert res.exit_code == 2, res.output
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["line"] for r in recs] == [1, 2, 3]
    assert "permitted" in recs[0] and "error" in recs[1] and "permitted" in recs[2]


def test_cli_batch_check_exits_zero_when_every_line_is_judged(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(typical(1)) + "\n" + json.dumps(typical(2)) + "\n")
    res = CliRunner().invoke(main, ["batch", str(src), "--check", "draw"])
    assert res.exit_code == 0, res.output
    recs = [json.loads(x) for x in res.stdout.splitlines() if x.startswith("{")]
    assert [r["permitted"] for r in recs] == [False, False]


def test_benchmark_quick_mode_runs():
    res = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick"],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    assert "floor" in res.stdout


def test_instruction_count_says_when_valgrind_is_missing(tmp_path):
    # benchmarks/instructions.py counts with valgrind, which is no dependency: without it, exit 2 and say so
    res = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "instructions.py")], capture_output=True,
                         text=True, timeout=120, env={**os.environ, "PATH": str(tmp_path)})
    assert res.returncode == 2, res.stderr
    assert "valgrind is not installed" in res.stderr
