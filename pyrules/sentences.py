"""Every sentence pyrules writes about actions, events, evidence, cards and effects, in one place
(the codec's words: actions.py writes an action's term, this module the prose around it).

The other modules call these functions: results.py (Evidence.text, Unmodelled.sentence), the
engine (a reason's text from its catalogue template), render.py and show.py (this turn's
events), explain.py (what a reason rests on) and search.py (a counterexample's board).  The
records of pyrules/results.py are read here by their fields (this module does not import them:
they import it).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import Game


def listed(items: list[str]) -> str:
    """Items in a sentence: "A", "A and B", "A, B and C" (each once, in their order)."""
    items = list(dict.fromkeys(items))
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ---- evidence and reasons (results.Evidence, results.Reason) ---------------------------------
def card_text(g: Any) -> str:
    """A "card" Evidence in words: `"Battle Ox" (A, id ox)`, or `card ox (gone)`."""
    if g.gone or g.name is None:
        return f"card {g.card} (gone)"
    return f"\"{g.name}\" ({g.player}, id {g.card})"


def evidence_text(g: Any) -> str:
    """An Evidence as the sentence fragment of Reason.evidence."""
    if g.kind == "event":
        what = f"{g.what}" + (f" of {g.card}" if g.card is not None else "")
        return f"event {g.event}: {what}" + (f" ({', '.join(g.flags)})" if g.flags else "")
    if g.kind == "card":
        return card_text(g)
    if g.kind == "effect":      # the snapshot's applied effect number (from 1)
        source = f" from \"{g.name}\"" if g.name else ""
        return f"effects[{(g.number or 1) - 1}]: {g.what}{source}"
    if g.kind == "need":
        return f"needs {g.number}"
    if g.kind == "name":
        return f"needs \"{g.name}\""
    if g.kind == "sum":
        return f"adds up to {g.number}, needs {g.needs}"
    return g.term or g.kind


def reason_text(template: str, grounds: tuple[Any, ...]) -> str:
    """A reason's sentence: its catalogue text with {card}, {need}, {sum} and {name} filled
    from its Evidence (a sentence true of each of several cards names them all)."""
    cards = [card_text(g) if g.kind == "card" else evidence_text(g) for g in grounds if g.kind in ("card", "effect")]
    needs = [str(g.number if g.kind == "need" else g.needs) for g in grounds if g.kind in ("need", "sum")]
    sums = [str(g.number) for g in grounds if g.kind == "sum"]
    text = template.replace("({card})", f"({listed(cards)})" if cards else "(a card)")     # what adds up: all of them
    if text.startswith("{card} ") and len(set(cards)) > 1:                           # a sentence true of each
        text = f"Each of {listed(cards)}{text[len('{card}'):]}"
    text = text.replace("{card}", cards[0] if cards else "a card").replace("{need}", needs[0] if needs else "?")
    text = text.replace("{sum}", sums[0] if sums else "?")
    names = [g.name or "?" for g in grounds if g.kind == "name"] or ["?"]
    return text.replace('"{name}"', listed([f'"{n}"' for n in names])).replace("{name}", listed(names))


def reason_lines(r: Any) -> list[str]:
    """A Reason as the lines under a verdict (check, and a counterexample's worlds): its sentence,
    each piece of evidence, then its id and source."""
    return [f"- {r.text}", *(f"    because of {e}" for e in r.evidence), f"    [{r.rule}; source: {r.source}]"]


def ground_sentence(game: Game, g: Any) -> str:
    """One thing a reason rests on (an Evidence of Reason.grounds), as a sentence (explain)."""
    if g.kind == "event" and g.event is not None and 1 <= g.event <= len(game.events):
        return event_sentence(game, g.event)
    if g.kind == "need":
        return f"the number the rule asks for: {g.number}"
    if g.kind == "name":
        return f"the card name the rule asks for: \"{g.name}\""
    if g.kind == "sum":
        return f"the snapshot's number: {g.number}; the number the rule asks for: {g.needs}"
    if g.kind == "card":
        return f"the card {evidence_text(g)}"
    return evidence_text(g)


def unmodelled_sentence(u: Any) -> str:
    """An Unmodelled card in a line: `id ("name"): why`."""
    return f"{u.id} (\"{u.name}\"): {u.why}"


def unmodelled_warning(cards: tuple[Any, ...]) -> list[str]:
    """The warning under an answer for the snapshot's Unmodelled cards (at least one)."""
    return [f"\nWARNING: {len(cards)} card{'s' * (len(cards) != 1)} of this snapshot "
            f"{'have' if len(cards) != 1 else 'has'} rule-relevant text that is not modelled; "
            "the answer may be wrong where it applies:", *(f"  {unmodelled_sentence(u)}" for u in cards)]


# ---- this turn's events as sentences (explain, show) ------------------------------------
VERBS = {
    "normal_summon": "was Normal Summoned", "set": "was Set", "flip_summon": "was Flip Summoned",
    "special_summon": "was Special Summoned", "position_change": "had its battle position changed",
    "flipped": "was flipped face-up by an attack", "attack": "declared an attack",
    "battle_by_effect": "battled through a card effect", "returned": "returned to the field",
    "control_change": "changed control", "returned_to_hand": "was returned from the field to the hand",
}


def card_words(game: Game, ident: str) -> str:
    e = game.by_id.get(ident)
    return f"{ident} (\"{e.card['name']}\")" if e else f"{ident} (no longer in the snapshot)"


def event_sentence(game: Game, k: int) -> str:
    """What event k of this_turn says, as a sentence ending in ': event k'."""
    ev = game.events[k - 1]
    if ev["event"] == "draw":
        return f"{ev.get('player', game.turn_player)} drew for the turn: event {k}"
    text = event_words(game, ev)
    if "player" in ev:
        text += f", by {ev['player']}"
    text += " this turn"
    flags = [f for f in ("negated", "replay") if ev.get(f)]
    if flags:
        text += f" ({' and '.join('a replay' if f == 'replay' else f for f in flags)})"
    return f"{text}: event {k}"


def event_words(game: Game, ev: dict) -> str:
    """The card of an event (not a draw) and what happened to it, with the event's details."""
    kind, tributes = ev["event"], ev.get("tributes")
    text = f"{card_words(game, ev['card'])} {VERBS.get(kind, kind)}"
    if kind == "normal_summon" and tributes:
        text = f"{card_words(game, ev['card'])} was Tribute Summoned"
    if kind == "set" and tributes:
        text += " with Tributes"
    if tributes:
        text += " (Tributes: " + ", ".join(tributes) + ")"
    if kind == "position_change":
        text += " by a card effect" if ev.get("how") == "effect" else " manually"
    if kind == "special_summon" and ev.get("method"):
        text += f" (method: {ev['method']})"
    if kind in ("attack", "battle_by_effect") and "target" in ev:
        text += " directly" if ev["target"] == "direct" else f" on {card_words(game, ev['target'])}"
    if kind == "control_change":
        text += f" to {ev['to']}"
    return text


# ---- a snapshot's raw entries in a line (a counterexample's board: search.board_lines) --------
def event_line(ev: dict) -> str:
    """An event of a snapshot's this_turn as its fields say it (no Game needed): `attack of ox on
    bug, player A`.  Shorter than event_words, which names each card from a validated Game."""
    words = ev["event"] + (f' ({ev["how"]})' if "how" in ev else "")
    words += (f' of {ev["card"]}' if "card" in ev else "") + (f' on {ev["target"]}' if "target" in ev else "")
    words += "".join(f", {key} {ev[key]}" for key in ("player", "method", "to") if key in ev)
    if ev.get("tributes"):
        words += f", tributing {', '.join(ev['tributes'])}"
    return words + "".join(f", {f}" for f in ("negated", "replay") if ev.get(f))


def entry_line(e: dict) -> str:
    """A card of a snapshot's zone: `ox = "Battle Ox" (face-up Attack Position, owned by B)`."""
    words = f'{e["id"]} = "{e["card"]}"'
    extra = []
    if "position" in e:
        extra.append(f'face-{e.get("face", "up")} {e["position"].capitalize()} Position')
    elif "face" in e:
        extra.append(f'face-{e["face"]}')
    if "equipped_to" in e:
        extra.append(f'equipped to {e["equipped_to"]}')
    if "owner" in e:
        extra.append(f'owned by {e["owner"]}')
    if e.get("properly_summoned"):
        extra.append("properly Summoned before")
    return words + (f" ({', '.join(extra)})" if extra else "")


# ---- effect entries ---------------------------------------------------------------------
def entry_text(entry: dict) -> str:
    """A card's effect entry in a line: `cannot_attack(to: side=both, level_min=4)`."""
    parts = [f"{k}={v}" for k, v in entry.items() if k not in ("effect", "to", "while", "source", "note", "cards",
                                                                 "player")]
    for key in ("to", "while"):
        if entry.get(key):
            parts.append(f"{key}: " + ", ".join(f"{k}={v}" for k, v in entry[key].items()))
    return entry["effect"] + (f"({'; '.join(parts)})" if parts else "")


def applied_words(entry: dict) -> str:
    """A snapshot's applied effect (CONTRACT 6) in words: its kind and arguments, on what, from where."""
    args = [f"{k} {v}" for k, v in entry.items() if k not in ("effect", "cards", "player", "source")]
    on = (f' on {", ".join(entry["cards"])}' if entry.get("cards") else
          f' on {entry["player"]}' if "player" in entry else "")
    return (entry["effect"] + (f' ({", ".join(args)})' if args else "") + on
            + (f' (from {entry["source"]})' if "source" in entry else ""))
