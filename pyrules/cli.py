"""The `pyrules` command line (click).

Exit statuses (named below): 0 success (for `check`: PERMITTED), 1 FORBIDDEN (`check`,
`explain`) or FAILED (`test`, `lint`, `verify`, a search stopped past --timeout), 2 INVALID
input (snapshot, action, reading or file): every InvalidInput a command raises becomes an
`InvalidInputError`, click's way of ending with a message and a status, its problems on
standard error, one per line.
"""
from __future__ import annotations

import fnmatch
import gc
import json
import os
import sys
from pathlib import Path
from typing import Any, BinaryIO, NoReturn, cast

import click

from . import __version__
from .errors import InvalidInput, Problem
from .supervise import hard_timeout, progress_stream

# exit statuses: the documented values, named for what they mean
OK = PERMITTED = 0
FORBIDDEN = 1          # check, explain: the action is forbidden
FAILED = 1             # test, lint, verify: a check failed, a finding, a property that does not hold
INVALID = 2            # invalid input (usage errors too: click's own status for them)


class InvalidInputError(click.ClickException):
    """Invalid input, the click way: exit status INVALID, each problem on standard error as
    `invalid input: PATH: MESSAGE` (at most Limits.max_problems of them, then a count)."""
    exit_code = INVALID

    def __init__(self, error: InvalidInput) -> None:
        super().__init__(str(error))
        self.problems = error.problems

    def show(self, file: Any = None) -> None:
        from .limits import Limits, shown
        try:
            limits = Limits.from_env()
        except InvalidInput:
            limits = Limits()
        for line in shown(self.problems, limits):
            click.echo(f"invalid input: {line}", err=True, file=file)


class _Group(click.Group):
    """A command group whose commands' InvalidInput ends the run as an InvalidInputError."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InvalidInput as e:
            raise InvalidInputError(e) from None


def _rules(rules: str | None) -> str | None:
    """The rules folder: --rules, else the rules of the pyrules checkout the command runs in (a
    designer's edits take effect, and a note on standard error says so when they differ from
    the installed copy), else None: the installed rules."""
    if rules is not None:
        return rules
    from .paths import checkout_root, rules_dir, same_rules
    root = checkout_root()
    if root is None:
        return None
    folder = root / "rules"
    if not same_rules(folder, rules_dir()):
        click.echo(f"pyrules: using the rules of the checkout {folder} (--rules DIR chooses others)", err=True)
    return str(folder)


def _engine(ctx: click.Context, rules: str | None = None, cards: str | None = None):
    from .engine import Engine
    rules = _rules(rules)
    key = (rules, cards)
    cache = ctx.ensure_object(dict)
    if key not in cache:
        cache[key] = Engine(rules=rules, cards=cards)
        _started()
    return cache[key]


_CONSOLE = [False]      # set by run(): this process ends with the command


def _started() -> None:
    """The command's start-up is over (its Engine is made): in the console command (run()),
    what was made so far lives until the process ends, so it is frozen out of the cyclic
    garbage collector's sight, and the collector, paused since the process began
    (pyrules/console.py), resumes."""
    if _CONSOLE[0]:
        gc.freeze()
        gc.enable()


def _done(code: int) -> NoReturn:
    """End a one-shot query command (legal, check, explain, show) with its exit status.  In the
    console command (run()), once the output is flushed the process ends at once
    (os._exit): nothing is pending (no child process, no file left open, the cache entries
    already written), and the interpreter's teardown, which frees every object one by one
    and unloads the modules, took about 7 ms of a `pyrules check` (benchmarks/bench.py,
    start-up row).  A stream that cannot be flushed (a closed pipe) takes the usual way out.
    main() called in-process (click's CliRunner) exits as usual."""
    if _CONSOLE[0]:
        try:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:          # (None: the descriptor was closed at start)
                    stream.flush()
        except (OSError, ValueError):
            pass
        else:
            os._exit(code)
    sys.exit(code)


def run() -> None:
    """The `pyrules` console command (and `python -m pyrules`, both through
    pyrules/console.py): main() in a process that ends with it.  What lives for the whole
    run (the modules, the Engine's rules and cards) is frozen out of the cyclic garbage
    collector's sight (gc.freeze) once the Engine is made (_started), and again here when
    the command ends (the query commands end the process before, _done): its passes during
    the query and the interpreter's last one at exit walk only what the query made (about
    a sixth of a `pyrules check`, as the start-up row of benchmarks/bench.py measures).
    Objects are still freed when no longer referenced; only reference cycles among the
    frozen ones would stay, and they live until the end anyway.
    main() called in-process (click's CliRunner) freezes nothing."""
    _CONSOLE[0] = True
    try:
        main()
    finally:
        gc.freeze()


def _stdin() -> BinaryIO:
    """Standard input as bytes: the binary stream under sys.stdin (click 8.5 deprecates
    click.get_binary_stream, to be removed in click 9); with no standard input, no bytes."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        import io
        return io.BytesIO(b"")
    return cast(BinaryIO, buffer)


def _snapshot(value: str, engine: Any) -> Any:
    """SNAPSHOT argument: a path, or '-' for standard input (read within the engine's limits)."""
    if value == "-":
        from .limits import read_stream
        return read_stream(_stdin(), engine.limits, "-")
    path = Path(value)
    if not path.is_file():
        why = ("is a folder, not a snapshot file" if path.is_dir() else
               "is not a regular file (give a file, or - for standard input)" if path.exists() else
               "no such snapshot file")
        raise InvalidInput(Problem(value, why))
    return path


def _readings(values: tuple[str, ...]) -> dict[str, str]:
    from .model import OptionReadings      # (its problems name --reading)
    out = OptionReadings()
    for v in values:
        if "=" not in v:
            raise InvalidInput(Problem("--reading", f"expected NAME=VALUE, got {v!r}"))
        name, value = (part.strip() for part in v.split("=", 1))
        if out.get(name, value) != value:          # as a key given twice: the last one would silently win
            raise InvalidInput(Problem("--reading", f"{name} is given twice, as {out[name]} and as {value}; "
                                                    "give it once"))
        out[name] = value
    return out


reading_option = click.option("--reading", "readings", multiple=True, metavar="NAME=VALUE",
                              help="Choose the answer of an ambiguous ruling (wins over the snapshot's readings:).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
cards_option = click.option("--cards", "cards", type=click.Path(exists=True, dir_okay=False), default=None,
                            help="A card pool (cards.cdb, YGOPRODeck JSON or pyrules YAML) used beside the bundled cards.")
rules_option = click.option("--rules", "rules", type=click.Path(exists=True, file_okay=False), default=None,
                            help="A rules folder to use instead of the shipped one.")


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pyrules")
def main() -> None:
    """pyrules: which Yu-Gi-Oh! actions are permitted in a snapshot, and why the others are not.

    \b
    Example:
        pyrules legal facts/examples/main_phase.yaml
        pyrules check facts/examples/main_phase.yaml "normal_summon(skull,[faith])"

    \b
    Exit statuses: 0 ok / permitted, 1 forbidden (check, explain), failures (test, lint),
    a property that does not hold (verify) or a search stopped past --timeout (diff,
    verify), 2 invalid input (the problems go to standard error, one per line; for batch:
    some line could not be judged); 128 + the signal's number when stopped by SIGTERM or
    Ctrl-C (batch).
    """


@main.command()
@click.argument("snapshot")
@json_option
@click.option("--all", "show_all", is_flag=True, help="Also list the forbidden candidates with their reasons (the actions legal mode tries: attacks "
                   "in the Battle Phase, Summons, Sets and position changes in a Main Phase, draw, "
                   "Battle Phase entry and Synchro Summons always).")
@reading_option
@cards_option
@rules_option
@click.pass_context
def legal(ctx, snapshot, as_json, show_all, readings, cards, rules):
    """Every permitted action in SNAPSHOT (a YAML/JSON file, or - for stdin).

    \b
    Example:
        pyrules legal facts/examples/main_phase.yaml
        pyrules legal facts/examples/main_phase.yaml --json
        pyrules legal facts/examples/main_phase.yaml --all --reading position_change_limit=any_change
    """
    from .render import print_legal
    engine = _engine(ctx, rules, cards)
    result = engine.legal(_snapshot(snapshot, engine), _readings(readings), include_forbidden=show_all)
    if as_json:
        click.echo(json.dumps(result.to_json(include_forbidden=show_all), indent=None))
    else:
        print_legal(result, show_all)
    _done(OK)


@main.command()
@click.argument("snapshot")
@click.argument("action")
@json_option
@reading_option
@cards_option
@rules_option
@click.pass_context
def check(ctx, snapshot, action, as_json, readings, cards, rules):
    """The verdict on ACTION in SNAPSHOT, with reasons.  Exit 0 permitted, 1 forbidden, 2 invalid.

    ACTION is the term form or a JSON object (docs/snapshots.md#actions): change_position,
    flip_summon, normal_summon, set, normal_summon_defense, synchro_summon, fusion_summon,
    ritual_summon, procedure_summon, special_summon, effect_position, declare_attack,
    enter_battle_phase, draw; set_spell_trap(C), activate(C[,EFFECT[,PLAYER]]) (EFFECT
    default 1, PLAYER default the player with priority) and pass (docs/activation.md);
    enter_phase(PHASE) (enter_battle_phase is enter_phase(battle)), discard([CARDS]) and
    end_turn (docs/snapshots.md#moving-between-phases-and-the-end-of-the-duel).
    `pyrules actions` lists them all.

    \b
    Example:
        pyrules check facts/examples/main_phase.yaml "change_position(ox,defense)"
        pyrules check facts/examples/main_phase.yaml '{"action":"normal_summon","card":"skull","tributes":["faith"]}' --json
    """
    from .render import print_verdict
    engine = _engine(ctx, rules, cards)
    verdict = engine.check(_snapshot(snapshot, engine), action, _readings(readings))
    if as_json:
        click.echo(json.dumps(verdict.to_json()))
    else:
        print_verdict(verdict)
    _done(PERMITTED if verdict.permitted else FORBIDDEN)


@main.command("next")
@click.argument("snapshot")
@click.argument("action")
@json_option
@reading_option
@cards_option
@rules_option
@click.pass_context
def next_(ctx, snapshot, action, as_json, readings, cards, rules):
    """The snapshot right after ACTION in SNAPSHOT (CONTRACT 11), as YAML (--json: JSON).  Exit 0
    with the successor, 1 when ACTION is forbidden (its reasons, as check gives them), 2 invalid.

    The successor is decided by the rules (rules/next/*.lp) and is valid input to every command:
    cards keep their ids, the action's events are appended to this_turn, and priority, window,
    passed and chain say who acts next.  Warnings on standard error name the monsters in battle
    whose battle text is not modelled and the effects that resolved without being applied.

    \b
    Example:
        pyrules next facts/examples/main_phase.yaml "change_position(ox,defense)"
        pyrules next facts/examples/main_phase.yaml "change_position(ox,defense)" --json
    """
    from .render import print_verdict
    engine = _engine(ctx, rules, cards)
    result = engine.next(_snapshot(snapshot, engine), action, _readings(readings))
    if result.snapshot is None:
        if as_json:
            click.echo(json.dumps(result.verdict.to_json()))
        else:
            print_verdict(result.verdict)
        _done(FORBIDDEN)
    for line in result.warnings():
        click.echo(f"warning: {line}", err=True)
    if as_json:
        click.echo(json.dumps(result.snapshot))
    else:
        import yaml
        click.echo(yaml.safe_dump(result.snapshot, sort_keys=False, allow_unicode=True, width=110), nl=False)
    _done(OK)


@main.command()
@json_option
def actions(as_json):
    """List every action: its term form and JSON form, its arguments with their defaults, what
    it asks, and one example (pyrules/actions.py; docs/reference/actions.md).

    Cards are named by their ids in the snapshot; a card given by name only gets the id
    <player>.<zone key>.<n>, n counting from 1 (A.hand.1), while the field paths of
    problems count list entries from 0 (players.A.hand[0]): docs/snapshots.md#ids.

    \b
    Example:
        pyrules actions
        pyrules actions --json
    """
    from .actions import catalogue
    if as_json:
        click.echo(json.dumps(catalogue(), indent=2))
        return
    from .render import print_actions
    print_actions(catalogue())


@main.command()
@click.option("--card", "only_card", is_flag=True, help="Print the card schema instead.")
@click.option("--all", "both", is_flag=True, help='Print both, as {"snapshot": ..., "card": ...} (not itself a schema).')
def schema(only_card, both):
    """Print the JSON Schema of snapshots (draft-07; cards inline under definitions.card).

    \b
    Example:
        pyrules schema > snapshot.schema.json
        pyrules schema --card > card.schema.json
        pyrules schema --all
    """
    from .schema import CARD_SCHEMA, SNAPSHOT_SCHEMA, schemas
    if only_card and both:
        raise InvalidInput(Problem("--card", "give --card or --all, not both"))
    click.echo(json.dumps(schemas() if both else CARD_SCHEMA if only_card else SNAPSHOT_SCHEMA, indent=2))


@main.command()
@json_option
@rules_option
@click.pass_context
def readings(ctx, as_json, rules):
    """List the readings (ambiguous rulings), their values, defaults and sources.

    \b
    Example:
        pyrules readings
        pyrules legal snap.yaml --reading first_turn_draw=true
    """
    engine = _engine(ctx, rules)
    items = engine.catalogue.readings
    if as_json:
        click.echo(json.dumps({n: {"default": r.default, "question": r.question, "source": r.source,
                                   "values": r.values} for n, r in sorted(items.items())}, indent=2))
        return
    from .render import print_readings
    print_readings(items)


@main.command()
@json_option
@rules_option
@click.pass_context
def reasons(ctx, as_json, rules):
    """List every reason id with its text and source.

    \b
    Example:
        pyrules reasons
        pyrules reasons --json
    """
    engine = _engine(ctx, rules)
    items = sorted(engine.catalogue.reasons.items())
    if as_json:
        click.echo(json.dumps([{"rule": k, "text": t, "source": s} for k, (t, s) in items], indent=2))
        return
    from .render import print_reasons
    print_reasons(items)


@main.command()
@json_option
@rules_option
def effects(as_json, rules):
    """List every effect kind with its arguments, meaning and source, then the filters
    (`to:` keys) and conditions (`while:` keys) an entry may give (rules/effects.yaml).

    \b
    Example:
        pyrules effects
        pyrules effects --json
    """
    from .effects import DECLARATION, load_vocabulary
    folder = _rules(rules)
    if folder and not (Path(folder) / DECLARATION).is_file():     # as Engine(rules=folder) reads them
        click.echo(f"note: no {DECLARATION} in {folder}: the shipped declarations are listed, which its rules "
                   "are read with", err=True)
        folder = None
    voc = load_vocabulary(Path(folder) if folder else None)
    if as_json:
        click.echo(json.dumps(
            {"kinds": [k.to_json() for k in voc.kinds.values()],
             "filters": [{"name": a.name, "type": a.type, "meaning": a.meaning} for a in voc.filters.values()],
             "conditions": [{"name": a.name, "type": a.type, "meaning": a.meaning}
                            for a in voc.conditions.values()]}, indent=2))
        return
    from .render import print_effects
    print_effects(voc)


# ---- the generated references (pyrules/reference.py) --------------------------------------
@main.command()
@click.option("--output", "output", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Write the pages into DIR (default: docs/reference/ of the checkout).")
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing; exit 1 listing the pages that are missing or out of date.")
@rules_option
def docs(output, check_only, rules):
    """Write the generated references: predicates, reasons, readings, effect kinds, the
    command line and the schemas (docs/reference/ of the checkout, or --output DIR).

    \b
    Example:
        pyrules docs
        pyrules docs --check
        pyrules docs --output /tmp/reference
    """
    from .paths import checkout_root
    from .reference import stale, write
    if output is None:
        root = checkout_root()
        if root is None:
            raise InvalidInput(Problem("--output", "not in a pyrules checkout: give --output DIR"))
        output = root / "docs" / "reference"
    folder = _rules(rules)
    rules_path = Path(folder) if folder else None
    if check_only:
        found = stale(output, main, rules_path)
        for path in found:
            click.echo(f"{path}: out of date", err=True)
        if found:
            click.echo("run `pyrules docs` to write them again", err=True)
            sys.exit(FAILED)
        click.echo(f"{output}: up to date")
        return
    for path in write(output, main, rules_path):
        click.echo(f"wrote {path}")


# ---- the rules designer's toolkit: test, lint, explain, show, cards import ----------
def _default_cases() -> list[Path]:
    """The project's ruling suite when run in a checkout (its tests/cases), or beside the package."""
    from .paths import checkout_root
    root = checkout_root()
    for here in ([root / "tests" / "cases"] if root else []) + [Path(__file__).resolve().parent.parent / "tests" / "cases"]:
        if here.is_dir():
            return [here]
    return []


@main.command("test")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("-k", "pattern", default=None, help="Run only the cases whose name contains PATTERN (any case).")
@json_option
@cards_option
@rules_option
@click.option("--mutate", "mutants", type=click.IntRange(1), is_flag=False, flag_value=30, default=None,
              metavar="[N]", help="Mutation testing: run the cases against N (default 30) single-change mutants "
                                  "of the rules and list the survivors (docs/ruling-cases.md).")
@click.option("--seed", type=int, default=1, show_default=True, help="With --mutate: the seed that draws the sample.")
@click.option("--min", "minimum", type=click.FloatRange(0, 1), default=0.95, show_default=True,
              help="With --mutate: the share of non-equivalent mutants the cases must kill for exit 0.")
@click.option("--only", "only", multiple=True, metavar="GLOB",
              help="With --mutate: draw the mutants from the rule files matching GLOB only (a path inside the "
                   "rules folder, as 'activation_*.lp' or 'next/*.lp'; repeatable).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="With --mutate: run this many mutants at once, each in its own process and copy of the rules "
                   "(the verdicts are the same; use the number of cores).")
@click.pass_context
def test_cmd(ctx, paths, pattern, as_json, cards, rules, mutants, seed, minimum, only, workers):
    """Run YAML ruling case files (files or folders) and report the failing checks.

    Without PATH, runs the project's own ruling suite (tests/cases) from a checkout.
    Exit 0 all passed, 1 a check failed (or -k selected nothing), 2 a file or the rules
    cannot be read, or a case is malformed (checked before any runs; the message names the
    file, the case and the field).

    With --mutate [N]: N mutants of the rules (a body literal dropped, a `not` removed, a
    comparison or a number changed), each run against the cases until one fails; the table
    (or --json) lists every mutant, survivors first.  Exit 0 when the cases kill at least
    --min of the mutants not marked `% mutate: equivalent`, 1 when not (or when the
    unmutated rules fail a case), 2 as above.

    \b
    Example:
        pyrules test
        pyrules test my_cases/ --rules my_rules/ -k replay
        pyrules test --mutate 60 --seed 1
        pyrules test --mutate 20 --only 'activation_*.lp'
        pyrules test --mutate 40 --seed 3 --workers 2
    """
    from .cases import case_files, run_file
    files = case_files(_case_roots(paths))
    _read_case_files(files)
    try:
        engine = _engine(ctx, rules, cards)
    except RuntimeError as e:
        raise InvalidInput(Problem(rules or "rules", f"the rules do not load: {e}"))
    if mutants is not None:
        _mutation_test(engine, files, pattern, as_json, mutants, seed, minimum, only, workers)
    outcomes = [outcome for f in files for outcome in run_file(engine, f, pattern)]
    passed = sum(o.ok for o in outcomes)
    failures = [o for o in outcomes if not o.ok]
    _print_test_results(engine, passed, failures, as_json)
    if pattern and not passed and not failures:        # a typo in -k must not look like success
        click.echo(f"no case name contains {pattern!r}", err=True)
        sys.exit(FAILED)
    sys.exit(FAILED if failures else OK)


def _case_roots(paths: tuple[str, ...]) -> list[Path]:
    """The files and folders `test` runs: PATHs (each must exist), or the project's ruling suite."""
    roots = [Path(p) for p in paths] or _default_cases()
    if not roots:
        raise InvalidInput(Problem("PATH", "no ruling case files given (and no tests/cases folder here)"))
    missing = [str(p) for p in roots if not p.exists()]
    if missing:
        raise InvalidInput([Problem(m, "no such file or folder") for m in missing])
    return roots


def _read_case_files(files: list[Path]) -> None:
    """Every case file reads as a list of cases of the right shape (before any is run); each
    problem names the file, and for a malformed case the case and the field."""
    from .cases import load_cases
    problems = []
    for f in files:
        try:
            load_cases(f)
        except InvalidInput as e:
            problems += [_unreadable(f, str(p)) for p in e.problems]
        except Exception as e:   # whatever else a file holds, a message and not a traceback
            problems.append(_unreadable(f, str(e).strip() or type(e).__name__))
    if problems:
        raise InvalidInput(problems)


def _unreadable(f: Path, text: str) -> Problem:
    """A case file's problem, the file named once: `f: cannot read the case file: case 1 (...): name: ...`."""
    return Problem(str(f), f"cannot read the case file: {text.removeprefix(f'{f}: ')}")


def _mutation_test(engine, files: list[Path], pattern: str | None, as_json: bool, count: int, seed: int,
                   minimum: float, only: tuple[str, ...] = (), workers: int = 1) -> NoReturn:
    """`test --mutate`: the unmutated rules pass every check first (else their failures, exit 1),
    then the sample of mutants is run; exit 0 when the killed share reaches `minimum`."""
    import time

    from .cases import Outcome
    from .mutate import failures, load_checks, mutation_test, rule_files, table
    unmatched = [g for g in only if not any(fnmatch.fnmatchcase(f, g) for f in rule_files(engine.rules_dir))]
    if unmatched:
        raise InvalidInput([Problem("--only", f"{g!r} matches no rule file of {engine.rules_dir}") for g in unmatched])
    checks = load_checks(files, pattern)
    if not checks:
        click.echo("no checks to run" + (f" (no case name contains {pattern!r})" if pattern else ""), err=True)
        sys.exit(FAILED)
    start = time.monotonic()
    failed = failures(engine, checks)
    if failed:
        click.echo("the unmutated rules fail these checks; mutation testing needs them all passing", err=True)
        _print_test_results(engine, len(checks) - len(failed),
                            [Outcome(c.file, c.case["name"], c.label, False, msg) for c, msg in failed], as_json)
        sys.exit(FAILED)

    def progress(n: int, total: int, m) -> None:
        click.echo(f"mutant {n + 1}/{total}: {m.status} {m.file.name}:{m.line} ({m.seconds:.1f} s)", err=True)

    report = mutation_test(engine, checks, count, seed, minimum, progress, time.monotonic() - start, only, workers)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        click.echo(f"rules: {engine.rules_dir}")
        click.echo(table(report))
    sys.exit(OK if report.passed else FAILED)


def _print_test_results(engine, passed: int, failures: list, as_json: bool) -> None:
    """The failing checks and the counts, as text or JSON."""
    if as_json:
        click.echo(json.dumps({"passed": passed, "failed": len(failures),
                               "failures": [{"file": o.file, "case": o.case, "check": o.check, "message": o.message}
                                            for o in failures]}, indent=2))
        return
    click.echo(f"rules: {engine.rules_dir}")
    for o in failures:
        click.echo(f"FAILED {o.file}: {o.case} :: {o.check}: {o.message}")
    click.echo(f"{passed} passed, {len(failures)} failed")


@main.command()
@json_option
@rules_option
@click.option("--rulings", type=click.Path(exists=True, file_okay=False), default=None,
              help="Folder of the rulings documents (STEM.txt) whose section headings citations name "
                   "(default: shared/rulings above the rules folder; not checked when there is none).")
def lint(as_json, rules, rulings):
    """Check the rules: they parse and ground, every block cites a source, every reason
    and predicate is catalogued and documented, readings are complete.  Exit 1 on findings.

    \b
    Example:
        pyrules lint
        pyrules lint --rules my_rules/ --rulings ../shared/rulings
    """
    from .lint import find_rulings, lint as run_lint
    from .paths import rules_dir
    rules = _rules(rules)
    folder = Path(rules) if rules else rules_dir()
    documents = Path(rulings) if rulings else find_rulings(folder)
    if documents is None:
        click.echo("note: no rulings documents found (--rulings DIR): cited section headings not checked", err=True)
    findings = run_lint(folder, documents)
    if as_json:
        click.echo(json.dumps([{"file": f.file, "line": f.line, "check": f.check, "message": f.message}
                               for f in findings], indent=2))
    else:
        for f in findings:
            click.echo(str(f))
        click.echo(f"{len(findings)} problem{'s' * (len(findings) != 1)} in {folder}")
    sys.exit(FAILED if findings else OK)


@main.command()
@click.argument("snapshot")
@click.argument("action")
@reading_option
@cards_option
@rules_option
@click.pass_context
def explain(ctx, snapshot, action, readings, cards, rules):
    """Why ACTION is permitted or forbidden in SNAPSHOT: each reason with the snapshot facts
    it rests on and the rule that fired (file, line, source).  Exit as `check`.

    \b
    Example:
        pyrules explain facts/examples/main_phase.yaml "normal_summon(skull,[])"
    """
    from .explain import explain as run_explain
    engine = _engine(ctx, rules, cards)
    verdict, lines = run_explain(engine, _snapshot(snapshot, engine), action, _readings(readings))
    click.echo("\n".join(lines))
    _done(PERMITTED if verdict.permitted else FORBIDDEN)


@main.command()
@click.argument("snapshot")
@click.option("--no-actions", is_flag=True, help="Draw the board only.")
@click.option("--svg", "svg_file", default=None, metavar="FILE",
              help="Also draw the board as an SVG picture into FILE (- for standard output, instead of the text).")
@reading_option
@cards_option
@rules_option
@click.pass_context
def show(ctx, snapshot, no_actions, svg_file, readings, cards, rules):
    """Draw SNAPSHOT's board (both sides, zones, positions, face-down cards, this turn's
    history) with the permitted actions.

    \b
    Example:
        pyrules show facts/examples/main_phase.yaml
        pyrules show facts/examples/main_phase.yaml --svg board.svg
    """
    from .show import show as run_show
    engine = _engine(ctx, rules, cards)
    if svg_file is not None:
        from .draw import svg_text
        text = svg_text(engine.game(_snapshot(snapshot, engine), _readings(readings)))
        if svg_file == "-":
            click.echo(text, nl=False)
            _done(OK)
        with _open(svg_file, "w", "--svg") as f:
            f.write(text)
    import shutil
    width = shutil.get_terminal_size((80, 24)).columns
    click.echo(run_show(engine, _snapshot(snapshot, engine), _readings(readings), with_actions=not no_actions,
                        width=width))
    _done(OK)


@main.group(cls=_Group)
def cards():
    """Card pools: import a YGOPro cards.cdb or a YGOPRODeck JSON file; audit what is modelled.

    \b
    Example:
        pyrules cards import cards.cdb -o my_cards.yaml
        pyrules cards audit
    """


@cards.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the cards here (YAML) instead of standard output.")
@click.option("--overlay", "overlay", type=click.Path(exists=True), default=None,
              help="A curated overlay (a folder of YAML files, or one file) to use instead of facts/overlay/.")
def cards_import(path, output, overlay):
    """Read PATH (cards.cdb or YGOPRODeck card-info JSON) and write its cards in the
    pyrules card schema (the YAML of facts/cards.yaml): effects derived from the card texts
    by the patterns of facts/patterns/, then the curated overlay (it wins per card).

    \b
    Example:
        pyrules cards import cards.cdb -o my_cards.yaml
        pyrules legal snap.yaml --cards my_cards.yaml
    """
    import time
    from .importers import dump_cards, import_cards, load_overlay
    start = time.perf_counter()
    result = import_cards(path, load_overlay(overlay) if overlay else None)
    result.db()          # every card checked against the card schema
    text = dump_cards(result.cards)
    if output:
        with _open(output, "w", "--output") as f:
            f.write(text)
    else:
        click.echo(text, nl=False)
    took = time.perf_counter() - start
    click.echo(f"imported {len(result.cards)} cards from {Path(path).name} in {took:.2f}s "
               f"({result.skipped_aliases} alternate artworks skipped, {len(result.skipped_unsupported)} "
               f"unsupported, overlay applied to {len(result.overlaid)}, "
               f"{sum(1 for c in result.cards if c.get('effects'))} with effects, "
               f"{sum(1 for c in result.cards if c.get('unmodelled'))} with unmodelled text)", err=True)


@cards.command("audit")
@click.argument("path", required=False, type=click.Path(exists=True, dir_okay=False))
@json_option
def cards_audit(path, as_json):
    """How much of a card pool's rule-relevant text is modelled.

    For PATH (a cards.cdb or YGOPRODeck card-info JSON; without PATH, the bundled Goat
    pool's audit, computed when it was built): the cards whose text speaks of Summons,
    Tributes, attacks or battle positions, each with its effects (derived from the text by
    the patterns, or curated in the overlay) or "not modelled" and why; the number of
    cards per effect kind; the share modelled.

    \b
    Example:
        pyrules cards audit
        pyrules cards audit cards.cdb --json
    """
    from .importers import import_cards
    from .pool import audit, bundled_audit
    from .render import print_audit
    report = audit(import_cards(path)) if path else bundled_audit()
    if as_json:
        click.echo(json.dumps(report))
    else:
        print_audit(report)


class _LazyHelp(click.Option):
    """An option whose help is made when --help is shown, by a function of the module that knows the
    facts it states (so that the help and the code cannot disagree, and no command pays for the import)."""

    def __init__(self, *args: Any, help_from: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help_from = help_from

    def get_help_record(self, ctx):
        if self.help is None:
            import importlib
            module, _, name = self.help_from.rpartition(".")
            self.help = getattr(importlib.import_module(module, __package__), name)()
        return super().get_help_record(ctx)


scope_option = click.option("--scope", "scope_text", default=None, metavar="KEY=N,...", cls=_LazyHelp,
                            help_from=".search.scope_help")
pool_option = click.option("--cards", "card_names", default=None, metavar="NAMES", cls=_LazyHelp,
                           help_from=".search.pool_help")
timeout_option = click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
                              metavar="SECONDS", help="Stop cleanly after this long (the whole run: for verify, all the "
                                                      "properties together) and report what was found.")


def _searcher(ctx, rules, card_names):
    from .search import Searcher, parse_card_names
    engine = _engine(ctx, rules)
    return Searcher(engine, parse_card_names(card_names, engine.cards))


@main.command()
@click.argument("reading")
@click.option("--values", default=None, metavar="A,B", help="The two values to compare (default: all two).")
@scope_option
@pool_option
@click.option("--count", default=1, type=click.IntRange(min=1), help="How many counterexamples, each parting the readings differently: "
                   "another action, verdict, reason or cited cause, not the same one with more around it.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write each counterexample as a YAML ruling case into this folder.")
@click.option("--html", "html_file", default=None, metavar="FILE",
              help="Write an HTML page into FILE: each counterexample's board, the action, each value's verdict "
                   "and reasons.")
@click.option("--depth", default=1, type=click.IntRange(min=1, max=3), show_default=True,
              help="Sequences of up to N actions: the smallest snapshot and actions, each permitted under both "
                   "values, after which an action's verdicts differ (replayed with next and check). Above 1: one "
                   "counterexample, no --out or --html, a smaller default scope (docs/counterexamples.md).")
@json_option
@timeout_option
@rules_option
@click.pass_context
@hard_timeout
def diff(ctx, reading, values, scope_text, card_names, count, out_dir, html_file, depth, as_json, timeout, rules):
    """Smallest snapshots where the two values of READING give an action different verdicts.

    Exit status 0 whether or not one is found, 1 when a --timeout run still grounding past it
    was stopped (unknown), 2 on invalid input.

    \b
    Example:
        pyrules diff position_change_limit
        pyrules diff position_change_limit --count 3 --out tests/cases/found
        pyrules diff first_turn_draw --scope monsters=1,events=2 --json
        pyrules diff position_change_limit --count 2 --html diff.html
        pyrules diff summon_priority --depth 2
    """
    from .search import DEPTH_SCOPE, Progress, Scope, case_of, format_counterexample
    if depth > 1 and (out_dir or html_file):
        raise InvalidInput(Problem("--out" if out_dir else "--html", "writes one snapshot's verdicts: not with --depth "
                                                                     "above 1"))
    searcher = _searcher(ctx, rules, card_names)
    pair = tuple(v.strip() for v in values.split(",")) if values else None
    if out_dir:                            # before the search: a folder that cannot be made fails at once
        _make_folder(out_dir, "--out")
    progress = Progress(progress_stream())
    result = searcher.diff(reading, pair, Scope.parse(scope_text, DEPTH_SCOPE if depth > 1 else None), count, timeout,
                           progress, depth)
    progress.clear()
    info = searcher.engine.catalogue.readings[reading]
    shown = list(pair) if pair else [info.default] + [v for v in info.values if v != info.default][:1]
    written = []
    if out_dir:
        import yaml
        for n, cx in enumerate(result.found, 1):
            verdicts = [f"{'permitted' if (w['verdict'].permitted if w.get('verdict') else w['model'][0]) else 'forbidden'}"
                        f" under {v}" for v, w in cx.worlds.items()]
            case = case_of(cx, f"{reading}: {cx.action.term()} is {' but '.join(verdicts)} (found by pyrules diff)",
                           info.source)
            path = Path(out_dir) / f"diff_{reading}_{n}.yaml"
            with _open(path, "w", "--out") as f:
                f.write(yaml.safe_dump([case], sort_keys=False, allow_unicode=True))
            written.append(str(path))
    if html_file:
        from .draw import diff_page
        with _open(html_file, "w", "--html") as f:
            f.write(diff_page(searcher.engine, f"pyrules diff {reading}: {' vs '.join(shown)}", result))
        written.append(str(html_file))
    if as_json:
        click.echo(json.dumps({"reading": reading, "values": shown, **result.to_json(), "written": written}))
        return
    click.echo(f"pyrules diff {reading}: {' vs '.join(shown)}\n")
    for n, cx in enumerate(result.found, 1):
        click.echo(format_counterexample(cx, n) + "\n")
    click.echo(("No disagreement: " if not result.found and result.exhausted else "") + result.summary() + ".")
    for path in written:
        click.echo(f"wrote {path}")


@main.command()
@click.argument("names", nargs=-1)
@click.option("--rules-file", "rules_files", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="A .lp file with more properties (property/2 and violation/2); repeatable.")
@scope_option
@pool_option
@click.option("--list", "list_only", is_flag=True, help="List the properties and stop.")
@json_option
@timeout_option
@rules_option
@click.pass_context
@hard_timeout
def verify(ctx, names, rules_files, scope_text, card_names, list_only, as_json, timeout, rules):
    """Check properties of the rules: "holds within scope ..." or the minimal counterexample.

    Exit status 0 when every property checked holds, 1 otherwise.  --scope keys go over each
    property's own scope; --timeout is for the whole run (a property reached after it is
    reported as unknown).

    \b
    Example:
        pyrules verify
        pyrules verify attacker_keeps_position --scope monsters=3,events=4
        pyrules verify --rules-file my_properties.lp my_property
    """
    from .search import Progress, format_counterexample
    searcher = _searcher(ctx, rules, card_names)
    if list_only:
        for name, prop in sorted(searcher.properties(rules_files).items()):
            click.echo(f"{name}: {prop.text}")
        return
    progress = Progress(progress_stream())
    results = searcher.verify(names, rules_files, scope_text, timeout, progress)
    progress.clear()
    if as_json:
        click.echo(json.dumps({"properties": [r.to_json() for r in results]}))
    else:
        for r in results:
            click.echo(f"{r.prop.name}: {r.summary()}\n  {r.prop.text}")
            for cx in r.result.found:
                click.echo("\n".join("  " + line for line in format_counterexample(cx).splitlines()))
    sys.exit(OK if all(r.holds for r in results) else FAILED)



@main.command()
@click.argument("infile", metavar="IN.jsonl")
@click.option("-o", "--output", "outfile", default="-", metavar="OUT.jsonl",
              help="Where to write the results (default: standard output).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 256),
              help="Worker processes, each with its own engine.")
@click.option("--check", "action", default=None, metavar="ACTION",
              help="Judge this action in every snapshot instead of listing the permitted actions.")
@click.option("--json", "as_json", is_flag=True, help="Print the closing summary (standard error) as JSON.")
@reading_option
@cards_option
@rules_option
def batch(infile, outfile, workers, action, as_json, readings, cards, rules):
    """Judge every snapshot of a JSON Lines file (IN.jsonl, or - for stdin), one result line each.

    \b
    Each output line, in input order, is {"line": n, "permitted": [...], "replay": ...}
    or with --check the verdict {"line": n, "action": ..., "permitted": ..., "reasons": [...]};
    a line that cannot be judged gives {"line": n, "error": [problems]} and the run goes on.
    Exit 0 when every line was judged, 2 when some line gave an error.

    \b
    Example:
        pyrules batch snapshots.jsonl -o results.jsonl --workers 2
        pyrules batch snapshots.jsonl --check "draw"
    """
    from contextlib import ExitStack, closing

    from .batch import count_lines, run, write_lines
    from .engine import Engine
    from .limits import Limits, read_lines
    if action is not None:
        from .actions import parse_action
        parse_action(action)
    reading_map = _readings(readings)
    rules = _rules(rules)
    config = {"rules": rules, "cards": cards}
    engine = None if workers > 1 else _engine(click.get_current_context(), rules, cards)
    _started()                             # (workers > 1: the collector runs in this process too)
    limits = engine.limits if engine is not None else Limits.from_env()
    with ExitStack() as stack:             # the input and the output are closed however the run ends
        if infile == "-":
            source, total = _stdin(), None
        else:
            path = Path(infile)
            if not path.is_file():
                raise InvalidInput(Problem(infile, "no such file"))
            source = stack.enter_context(_open(path, "rb", "IN.jsonl"))
            total = count_lines(path) if sys.stderr.isatty() else None
        out = stack.enter_context(_open(outfile, "w", "--output"))
        results = stack.enter_context(closing(run(read_lines(source, limits), engine=engine, engine_factory=Engine,
                                                  engine_config=config, readings=reading_map, check=action,
                                                  workers=workers, as_json=True)))
        done, errors, stopped = write_lines(results, out, total)
        if stopped is not None:
            click.echo(f"pyrules batch: stopped by {stopped.name} after {done} lines", err=True)
            stack.close()
            sys.exit(128 + stopped.signum)
    summary = {"lines": done, "judged": done - errors, "errors": errors}
    click.echo(json.dumps(summary) if as_json else
               f"{done} lines: {done - errors} judged, {errors} with errors", err=True)
    sys.exit(OK if errors == 0 else INVALID)


def _open(name: str | Path, mode: str, option: str) -> Any:
    """A file of the batch (or - for standard output), or InvalidInput naming the option."""
    try:
        if str(name) == "-" and "w" in mode:
            return click.open_file("-", mode, encoding="utf-8")
        return open(name, mode) if "b" in mode else open(name, mode, encoding="utf-8")
    except OSError as e:
        raise InvalidInput(Problem(option, f"cannot open {name}: {e.strerror or e}")) from None


def _make_folder(name: str, option: str) -> None:
    """A folder to write into (made with its parents), or InvalidInput naming the option."""
    try:
        Path(name).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InvalidInput(Problem(option, f"cannot make the folder {name}: {e.strerror or e}")) from None


@main.command()
@click.argument("deck_a", type=click.Path(exists=True, dir_okay=False))
@click.argument("deck_b", type=click.Path(exists=True, dir_okay=False))
@click.option("--seed", default=1, type=int, show_default=True, help="The seed of the shuffles and choices.")
@click.option("--max-actions", default=2000, type=click.IntRange(min=1), show_default=True,
              help="Stop after this many actions.")
@json_option
@reading_option
@cards_option
@rules_option
@click.pass_context
def play(ctx, deck_a, deck_b, seed, max_actions, as_json, readings, cards, rules):
    """Play a whole duel between DECK_A and DECK_B by seeded random choices from `legal`, each
    followed by `next`, and print it as a log (--json: one {"step", "snapshot", "action"} a line).

    A deck file is YAML (a list of card names, or `main:` and `extra:` lists) or text (one name
    a line, `3 Battle Ox` for copies, `#` comments, a line `extra:` before the Extra Deck).

    \b
    Example:
        pyrules play facts/decks/normal_a.txt facts/decks/normal_b.yaml --seed 7
    """
    from .play import duel, log_line, read_deck
    engine = _engine(ctx, rules, cards)
    decks = [read_deck(d, engine.cards) for d in (deck_a, deck_b)]
    for step in duel(engine, decks[0], decks[1], seed, max_actions, _readings(readings)):
        if as_json:
            click.echo(json.dumps({"step": step.number, "snapshot": step.snapshot,
                                   "action": step.action.to_json() if step.action else None}))
        else:
            click.echo(log_line(step))
    _done(OK)


if __name__ == "__main__":   # pragma: no cover
    main()
