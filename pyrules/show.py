"""`pyrules show`: a snapshot as a picture in the terminal, with the permitted actions.

Plain text (no colours, no extra dependency): the opponent's side on top, the turn
player's below, each zone a row of boxes; then this turn's history and the actions
`legal` permits.  Only the validated snapshot (Engine.game) and Engine.legal are used.
"""
from __future__ import annotations

import textwrap
from typing import Any

from .engine import Engine
from .model import Entry, Game
from .results import Legal
from .schema import PHASE_NAMES
from .sentences import applied_words, event_sentence

BOX = 24


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "~"


def monster_box(e: Entry) -> list[str]:
    c = e.card
    pos = "ATK" if e.position == "attack" else "DEF"
    face = "face-down" if e.face == "down" else "face-up"
    stats = "?/?" if c.get("atk_unknown") else f"{c.get('atk', '-')}/{c.get('def', '-')}"
    lines = [c["name"], f"id {e.id}", f"{pos} {face}", f"L{c.get('level', '-')} {stats}"]
    if e.owner != e.player:
        lines.append(f"owner {e.owner}")
    lines += [f"{count} {kind} counters" for kind, count in e.counters]
    return lines


def spell_box(e: Entry, game: Game) -> list[str]:
    c = e.card
    icon = c.get("spell_type") or c.get("trap_type") or ""
    lines = [c["name"], f"id {e.id}", f"{c['kind']} {icon}".strip(), "face-down" if e.face == "down" else "face-up"]
    if e.equipped_to:
        lines.append(f"equips {e.equipped_to}")
    if e.set_turn is not None:
        lines.append(f"Set turn {e.set_turn}")
    lines += [f"{count} {kind} counters" for kind, count in e.counters]
    return lines


def boxes(items: list[list[str]], width: int | None = None, room: int = 80) -> list[str]:
    """Side-by-side boxes of text lines (as wide as the longest line, up to BOX), as many to a
    row as fit in `room` columns."""
    if not items:
        return ["  (empty)"]
    width = width or min(BOX, max(len(t) for i in items for t in i), max(4, room - 4))
    per_row = max(1, (room - 2 + 1) // (width + 3))
    rows = []
    for start in range(0, len(items), per_row):
        group = items[start:start + per_row]
        height = max(len(i) for i in group)
        top = "  " + " ".join("+" + "-" * width + "+" for _ in group)
        rows.append(top)
        for n in range(height):
            rows.append("  " + " ".join("|" + _clip(i[n] if n < len(i) else "", width).ljust(width) + "|"
                                        for i in group))
        rows.append(top)
    return rows


def _pile(entries: list[Entry], note_summoned: bool = False) -> str:
    if not entries:
        return "-"
    out = []
    for e in entries:
        extra = " *properly Summoned" if note_summoned and e.properly_summoned else ""
        owner = f" owner {e.owner}" if e.owner != e.player else ""
        out.append(f"{e.card['name']} [{e.id}{owner}]{extra}")
    return ", ".join(out)


def side(game: Game, p: str, top: bool, room: int = 80) -> list[str]:
    mine = [e for e in game.entries if e.player == p]
    by_zone = {z: [e for e in mine if e.zone == z] for z in
               ("hand", "extra_deck", "monster_zone", "spell_trap_zone", "field_zone", "graveyard", "banished")}
    who = f"{p}{' (turn player)' if p == game.turn_player else ''}"
    header = [f"{who}   LP {game.life[p]}   Deck {game.deck[p]}   Hand {len(by_zone['hand'])}   "
              f"Extra Deck {len(by_zone['extra_deck'])}"]
    piles = [f"  Hand:       {_pile(by_zone['hand'])}",
             f"  Extra Deck: {_pile(by_zone['extra_deck'])}",
             f"  Graveyard:  {_pile(by_zone['graveyard'], True)}",
             f"  Banished:   {_pile(by_zone['banished'], True)}"]
    field_spell = by_zone["field_zone"]
    fs = [f"  Field Spell: {field_spell[0].card['name']} [{field_spell[0].id}] "
          f"{'face-down' if field_spell[0].face == 'down' else 'face-up'}" if field_spell else "  Field Spell: -"]
    st = ["  Spells & Traps:"] + boxes([spell_box(e, game) for e in by_zone["spell_trap_zone"]], room=room)
    mz = ["  Monsters:"] + boxes([monster_box(e) for e in by_zone["monster_zone"]], room=room)
    if top:         # the opponent faces the turn player: their monsters are nearest the middle
        return header + piles + fs + st + mz
    return mz + st + fs + header + piles


def picture(game: Game, legal: Legal | None, width: int = 80) -> list[str]:
    """The board in lines of at most `width` columns (long lines wrapped, boxes in rows)."""
    return _fit(_picture(game, legal, width), width)


def _fit(lines: list[str], width: int) -> list[str]:
    """Lines longer than width wrapped, each continuation indented under its line's text."""
    out = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False) or [line[:width]]
    return out


def _picture(game: Game, legal: Legal | None, width: int) -> list[str]:
    step = f", {game.battle_step} step" if game.phase == "battle" and game.battle_step else ""
    lines = [f"Turn {game.turn}: {game.turn_player}'s turn, {PHASE_NAMES.get(game.phase, game.phase)}{step}"
             f"   chain: {', '.join(game.chain) if game.chain else 'empty (open game state)'}"]
    who = [f"{game.priority} has priority" if game.priority != game.turn_player else "",
           "in the window of the last event" if game.window == "event" else "",
           "the other player has just passed" if game.passed else "",
           f"moving to the {PHASE_NAMES.get(game.moving_to, game.moving_to)}" if game.moving_to else "",
           f"the duel is over: {game.winner} has won" if game.winner else ""]
    if any(who):
        lines.append("Now: " + "; ".join(w for w in who if w))
    if game.readings:
        lines.append("Readings: " + ", ".join(f"{k}={v}" for k, v in sorted(game.readings.items())))
    others = [p for p in game.players if p != game.turn_player]
    lines.append("")
    for p in others:
        lines += side(game, p, top=True, room=width)
    lines.append("=" * min(78, width))
    lines += side(game, game.turn_player, top=False, room=width)
    lines.append("")
    lines.append("This turn:")
    lines += [f"  {k}. {event_sentence(game, k)}" for k in range(1, len(game.events) + 1)] or ["  (nothing yet)"]
    if game.attack:
        a = game.attack
        lines.append(f"Attack in progress: {a['attacker']} -> {a['target']} "
                     f"(targets at declaration: {', '.join(a['targets_at_declaration']) or 'none'})")
    if game.effects:
        lines.append("Applied effects:")
        lines += [f"  {applied_words(e)}" for e in game.effects]
    return lines


def actions(legal: Legal) -> list[str]:
    """The permitted actions, one a line."""
    lines = [f"Permitted actions ({len(legal.permitted)}):"]
    lines += [f"  {a.term()}" for a in legal.permitted] or ["  (none)"]
    if legal.replay:
        lines.append("  A replay is due: the attacker may choose a target again.")
    return lines


def beside(left: list[str], right: list[str], gap: int = 4) -> list[str]:
    """Two blocks of lines side by side."""
    width = max((len(x) for x in left), default=0)
    rows = max(len(left), len(right))
    left, right = left + [""] * (rows - len(left)), right + [""] * (rows - len(right))
    return [(a.ljust(width + gap) + b).rstrip() for a, b in zip(left, right)]


def show(engine: Engine, snapshot: Any, readings: dict[str, str] | None = None, with_actions: bool = True,
         width: int = 80) -> str:
    """The board, with the permitted actions beside it when `width` columns allow, else below;
    no line is wider than `width` (at least 40)."""
    width = max(40, width)
    game = engine.game(snapshot, readings)
    board = picture(game, None, width)
    if not with_actions:
        return "\n".join(board)
    acts = _fit(actions(engine.legal(game.raw, readings)), width)
    if max(map(len, board)) + 4 + max(map(len, acts)) <= width:
        return "\n".join(beside(board, acts))
    return "\n".join(board + [""] + acts)
