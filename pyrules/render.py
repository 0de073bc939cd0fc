"""Readable terminal output: tables and sentences (plain text, no colours needed).

shutil (about a millisecond to import, with what it imports) and textwrap are imported where
they are used: `pyrules check` prints no table."""
from __future__ import annotations

import json

import click

from .results import Legal, Unmodelled, Verdict
from .sentences import reason_lines, unmodelled_warning

MIN_COLUMN = 16           # a column is not wrapped narrower than this


def terminal_width() -> int:
    """The terminal's width in columns (COLUMNS, else 80 when the output is not a terminal)."""
    import shutil
    return shutil.get_terminal_size((80, 24)).columns


def _table(rows: list[list[str]], header: list[str], width: int | None = None) -> str:
    """A plain table; with width, the widest columns but the first (ids stay whole, one a line)
    are wrapped (never below MIN_COLUMN) until each line fits in width columns."""
    import textwrap
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    if width is not None:
        while sum(widths) + 2 * (len(widths) - 1) > width:
            widest = max(range(1, len(widths)), key=lambda i: widths[i])
            if widths[widest] <= MIN_COLUMN:
                break
            widths[widest] -= 1          # the widest column gives up a column at a time
    line = "  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()
    out = [line, "  ".join("-" * w for w in widths)]
    for r in rows:
        cells = [textwrap.wrap(str(c), w, break_long_words=True, break_on_hyphens=False) or [""]
                 for c, w in zip(r, widths)]
        for n in range(max(map(len, cells))):
            out.append("  ".join((c[n] if n < len(c) else "").ljust(w) for c, w in zip(cells, widths)).rstrip())
    return "\n".join(out)


def print_legal(result: Legal, show_all: bool = False) -> None:
    if result.permitted:
        rows = [[str(i), a.action, a.term()] for i, a in enumerate(result.permitted, 1)]
        click.echo(_table(rows, ["#", "kind", "permitted action"]))
    else:
        click.echo("No action is permitted.")
    if result.replay:
        click.echo("\nA replay is due: the attacker may choose a target again (or stop).")
    if show_all and result.forbidden:
        click.echo("")
        rows = []
        for v in result.forbidden:
            for n, r in enumerate(v.reasons):
                rows.append([v.action.term() if n == 0 else "", r.rule, r.text])
        click.echo(_table(rows, ["forbidden action", "reason", "why"]))
    click.echo(f"\n{len(result.permitted)} permitted" +
               (f", {len(result.forbidden)} forbidden" if show_all else "") + ".")
    warn_unmodelled(result.unmodelled)


def warn_unmodelled(cards: tuple[Unmodelled, ...]) -> None:
    """A warning under the answer: cards whose rule-relevant text the rules do not know."""
    if not cards:
        return
    for line in unmodelled_warning(cards):
        click.echo(line)


def print_verdict(verdict: Verdict) -> None:
    word = "PERMITTED" if verdict.permitted else "FORBIDDEN"
    click.echo(f"{verdict.action.term()}: {word}")
    for key, value in verdict.notes:
        click.echo(f"  {key.replace('_', ' ')}: {value}")
    for r in verdict.reasons:
        for line in reason_lines(r):
            click.echo(f"  {line}")
    warn_unmodelled(verdict.unmodelled)


def print_readings(items) -> None:
    for name, r in sorted(items.items()):
        click.echo(f"{name}  (default: {r.default})")
        click.echo(f"  {r.question}")
        for value, source in r.values.items():
            mark = "*" if value == r.default else " "
            click.echo(f"  {mark} {value}: {source}")
        click.echo("")


def print_reasons(items, width: int | None = None) -> None:
    """The reasons as a table that fits the terminal (long texts and sources wrapped)."""
    rows = [[k, t, s] for k, (t, s) in items]
    click.echo(_table(rows, ["reason id", "text", "source"], width or terminal_width()))


def print_audit(report: dict) -> None:
    """`pyrules cards audit`: each card whose text speaks of Summons, Tributes, attacks or battle
    positions, with its effects (derived or curated) or why it is not modelled; then the counts."""
    from .pool import effects_of
    from .sentences import entry_text
    rows = []
    for name, r in report["records"].items():
        how = "curated" if "curated" in r else "derived"
        effects = [entry_text(e) for e in effects_of(r)] + [f"leaves {entry_text(e)}" for e in r.get("leaves", ())]
        modelled = f"{how}: {', '.join(effects)}" if effects else \
            f"read by {', '.join(r['read_by'])}" if r.get("read_by") else "-"
        if "unmodelled" in r:
            rows.append([name, ", ".join(r["speaks_of"]) or "-", f"NOT MODELLED: {r['unmodelled']}",
                         modelled if effects else ""])
        elif "no_bearing" in r:
            rows.append([name, ", ".join(r["speaks_of"]) or "-", f"NO BEARING: {r['no_bearing']}", ""])
        else:
            rows.append([name, ", ".join(r["speaks_of"]) or "-", modelled, ""])
    if rows:
        click.echo(_table(rows, ["card", "speaks of", "effects, or why not modelled", "partly modelled by"]))
    kinds = [[k, str(n)] for k, n in report["per_kind"].items()]
    kinds += [[f"{k} (left behind)", str(n)] for k, n in report.get("left_behind_per_kind", {}).items()]
    if kinds:
        click.echo("")
        click.echo(_table(kinds, ["effect kind", "cards"]))
    share = f"{report['share_modelled']:.1%}"
    nb = report.get("no_bearing", 0)
    apart = (f"; {nb} of them have no bearing on the actions judged (not counted as modelled): "
             f"{report['share_modelled_of_bearing']:.1%} of the other {report['touching'] - nb} modelled") if nb else ""
    click.echo(f"\n{report['source']}: {report['cards']} cards; {report['touching']} speak of Summons, Tributes, "
               f"attacks or battle positions (or carry an effect); {report['modelled']} of them modelled ({share}), "
               f"{report['from_overlay']} by the curated overlay{apart}.")
    act = report.get("activation")
    if act:
        click.echo(f"Activation of Spells and Traps: {act['spells_traps']} cards, {act.get('bearing', 0)} of them with "
                   f"an activation text that asks something (a condition, a cost, targets, cards its effect needs); "
                   f"{act['modelled']} with all of it modelled ({act.get('share_modelled_of_bearing', 0):.1%}); the "
                   f"others are judged by their frame's rules alone, listed as unmodelled when activated.")
        if act.get("unread"):
            click.echo("What the others ask that no pattern reads: "
                       + ", ".join(f"{k} ({n})" for k, n in act["unread"].items()) + ".")
    mon = report.get("monster_effects")
    if mon:
        click.echo(f"Activated effects of monsters: {mon['effect_monsters']} Effect Monsters; {mon['with_activated_effects']} "
                   f"with activated effects read from their text, {mon['modelled']} of them whole (event, cost, target, "
                   f"once per turn), {mon['by_type_only']} judged by their effects' types alone (listed as unmodelled "
                   f"when activated); {mon['unread']} with a sentence worded like an activated effect that no pattern "
                   f"reads ({', '.join(mon['unread_cards'][:10])}{', ...' if mon['unread'] > 10 else ''}).")
    fu = report.get("faceup_effects")
    if fu:
        left = list(fu["unread_cards"])
        click.echo(f"Activated effects of face-up Spells and Traps: {fu['with_faceup_effects']} cards with such effects "
                   f"read from their text, {fu['modelled']} of them with every one read (event, cost, needs, once per "
                   f"turn); {fu['unread']} with a sentence worded like one that no pattern reads, not judged "
                   f"(effect_not_modelled: {', '.join(left[:10])}{', ...' if len(left) > 10 else ''}).")


def _type_text(t) -> str:
    return "|".join(t) if isinstance(t, list) else str(t)


def print_effects(voc) -> None:
    """`pyrules effects`: the kinds, then the filters and conditions."""
    for k in voc.kinds.values():
        args = ", ".join(f"{a.name}: {_type_text(a.type)}" for a in k.args)
        click.echo(f"{k.name}({args})" if args else k.name)
        click.echo(f"  {k.meaning}")
        where = "a player" if k.about == "player" else "a card"
        printed = "; printed: works wherever the card is" if k.printed == "anywhere" else ""
        click.echo(f"  applies to {where}{printed}")
        if k.group:
            click.echo(f"  group: {k.group}")
        for a in k.args:
            click.echo(f"  {a.name}: {a.meaning}")
        click.echo(f"  source: {k.source}")
        click.echo("")
    for title, items in (("filters (to:)", voc.filters), ("conditions (while:)", voc.conditions)):
        rows = [[a.name, _type_text(a.type), a.meaning] for a in items.values()]
        click.echo(_table(rows, [title, "type", "meaning"]))
        click.echo("")


def argument_text(arg: dict) -> str:
    """One argument of an action: what it is, and required or its default (`pyrules actions`,
    docs/reference/actions.md)."""
    return f"{arg['is']}; " + ("required" if arg["required"] else f"optional, default {arg['left_out']}")


def print_actions(items: list[dict]) -> None:
    """`pyrules actions`: each action's term form, what it asks, JSON form, arguments, example."""
    blocks = []
    for a in items:
        lines = [a["term"], f"  {'asks:':<11}{a['asks']}", f"  {'JSON:':<11}{a['json']}"]
        lines += [f"  {arg['key'] + ':':<11}{argument_text(arg)}" for arg in a["arguments"]]
        lines.append(f"  {'example:':<11}{a['example']}  =  {json.dumps(a['example_json'])}")
        blocks.append("\n".join(lines))
    click.echo("\n\n".join(blocks))
