"""The `pyrules` command line (click).

Exit statuses: 0 success (for `check`: permitted), 1 forbidden (`check`) or failed
checks (`test`, `lint`), 2 invalid input (snapshot, action, reading or file).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from . import __version__
from .errors import InvalidInput, Problem

EXIT_OK, EXIT_FORBIDDEN, EXIT_INVALID = 0, 1, 2


def _engine(ctx: click.Context, rules: str | None = None, cards: str | None = None):
    from .engine import Engine
    key = (rules, cards)
    cache = ctx.ensure_object(dict)
    if key not in cache:
        try:
            cache[key] = Engine(rules=rules, cards=cards)
        except InvalidInput as e:
            _fail(e)
    return cache[key]


def _fail(error: InvalidInput) -> None:
    for p in error.problems:
        click.echo(f"invalid input: {p}", err=True)
    sys.exit(EXIT_INVALID)


def _snapshot(value: str) -> Any:
    """SNAPSHOT argument: a path, or '-' for standard input."""
    if value == "-":
        return click.get_text_stream("stdin").read()
    path = Path(value)
    if not path.is_file():
        raise InvalidInput(Problem(value, "no such snapshot file"))
    return path


def _readings(values: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for v in values:
        if "=" not in v:
            raise InvalidInput(Problem("--reading", f"expected NAME=VALUE, got {v!r}"))
        name, value = v.split("=", 1)
        out[name.strip()] = value.strip()
    return out


reading_option = click.option("--reading", "readings", multiple=True, metavar="NAME=VALUE",
                              help="Choose the answer of an ambiguous ruling (wins over the snapshot's readings:).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
cards_option = click.option("--cards", "cards", type=click.Path(exists=True, dir_okay=False), default=None,
                            help="A card pool (cards.cdb, YGOPRODeck JSON or pyrules YAML) used beside the bundled cards.")
rules_option = click.option("--rules", "rules", type=click.Path(exists=True, file_okay=False), default=None,
                            help="A rules folder to use instead of the shipped one.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pyrules")
def main() -> None:
    """pyrules: which Yu-Gi-Oh! actions are permitted in a snapshot, and why the others are not.

    \b
    Example:
        pyrules legal facts/examples/main_phase.yaml
        pyrules check facts/examples/main_phase.yaml "normal_summon(skull,[faith])"

    \b
    Exit statuses: 0 ok / permitted, 1 forbidden (check) or failures (test, lint),
    2 invalid input (the problems go to standard error, one per line).
    """


@main.command()
@click.argument("snapshot")
@json_option
@click.option("--all", "show_all", is_flag=True, help="Also list the forbidden candidates with their reasons.")
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
    try:
        engine = _engine(ctx, rules, cards)
        result = engine.legal(_snapshot(snapshot), _readings(readings), include_forbidden=show_all)
    except InvalidInput as e:
        _fail(e)
    if as_json:
        click.echo(json.dumps(result.to_json(include_forbidden=show_all), indent=None))
    else:
        print_legal(result, show_all)


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

    ACTION is the term form or a JSON object.

    \b
    Example:
        pyrules check facts/examples/main_phase.yaml "change_position(ox,defense)"
        pyrules check facts/examples/main_phase.yaml '{"action":"normal_summon","card":"skull","tributes":["faith"]}' --json
    """
    from .render import print_verdict
    try:
        engine = _engine(ctx, rules, cards)
        verdict = engine.check(_snapshot(snapshot), action, _readings(readings))
    except InvalidInput as e:
        _fail(e)
    if as_json:
        click.echo(json.dumps(verdict.to_json()))
    else:
        print_verdict(verdict)
    sys.exit(EXIT_OK if verdict.permitted else EXIT_FORBIDDEN)


@main.command()
@click.option("--card", "only_card", is_flag=True, help="Print only the card schema.")
def schema(only_card):
    """Print the JSON Schema of snapshots and of cards.

    \b
    Example:
        pyrules schema > snapshot.schema.json
        pyrules schema --card
    """
    from .schema import CARD_SCHEMA, schemas
    click.echo(json.dumps(CARD_SCHEMA if only_card else schemas(), indent=2))


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


if __name__ == "__main__":   # pragma: no cover
    main()
