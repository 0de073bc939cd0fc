"""The results of the API: what Engine.check and Engine.legal give back, as frozen records
(pyrules/records.py) with their JSON.

Verdict (one action: permitted or not, with Reasons), Legal (every permitted action, and the
forbidden candidates when asked), Reason (a catalogue id, its sentence, its source and its
Evidence), Evidence (one thing a reason rests on, as data) and Unmodelled (a card whose
rule-relevant text no effect models).  Their sentences are written in pyrules/sentences.py.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from clingo import Symbol, SymbolType

from . import sentences
from .actions import SIGNATURES, Action
from .effects import activation_modelled, faceup_effects_modelled, monster_effects_modelled
from .records import Record, record, set_field

if TYPE_CHECKING:
    from .encode import Encoding
    from .model import Game
    from .solver import Answer


@record
class Evidence(Record):
    """What a reason rests on, as data (one evidence atom of the rules' answer):
    kind "event" (event: its number in this_turn, from 1; what: its kind; card: its card's
    id; flags: negated, replay), "card" (card: its id; name and player, or gone), "effect"
    (number: the snapshot's applied effect, from 1; what: its kind; name: its source card), "need"
    (number: the number a rule asks for), "sum" (number: the snapshot's number; needs: the
    one asked for), "name" (name: a card name a rule asks for), or another atom's name (term: the atom as clingo writes it)."""
    kind: str
    event: int | None = None
    card: str | None = None
    number: int | None = None
    needs: int | None = None
    what: str | None = None
    name: str | None = None
    player: str | None = None
    flags: tuple[str, ...] = ()
    gone: bool = False
    term: str | None = None

    def __init__(self, kind: str, event: int | None = None, card: str | None = None, number: int | None = None,
                 needs: int | None = None, what: str | None = None, name: str | None = None,
                 player: str | None = None, flags: tuple[str, ...] = (), gone: bool = False,
                 term: str | None = None) -> None:
        set_field(self, "kind", kind)
        set_field(self, "event", event)
        set_field(self, "card", card)
        set_field(self, "number", number)
        set_field(self, "needs", needs)
        set_field(self, "what", what)
        set_field(self, "name", name)
        set_field(self, "player", player)
        set_field(self, "flags", flags)
        set_field(self, "gone", gone)
        set_field(self, "term", term)

    def card_text(self) -> str:
        """The card of a "card" evidence in words (sentences.card_text)."""
        return sentences.card_text(self)

    def text(self) -> str:
        """The evidence as the sentence fragment of Reason.evidence (sentences.evidence_text)."""
        return sentences.evidence_text(self)

    def to_json(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()
                if v not in (None, (), False)}


@record
class Reason(Record):
    """Why an action is forbidden: a stable id, a sentence, a source citation, and evidence
    (as text: `evidence`, and as data: `grounds`, one Evidence per evidence atom)."""
    rule: str
    text: str
    source: str
    evidence: tuple[str, ...] = ()
    grounds: tuple[Evidence, ...] = ()

    def __init__(self, rule: str, text: str, source: str, evidence: tuple[str, ...] = (),
                 grounds: tuple[Evidence, ...] = ()) -> None:
        set_field(self, "rule", rule)
        set_field(self, "text", text)
        set_field(self, "source", source)
        set_field(self, "evidence", evidence)
        set_field(self, "grounds", grounds)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "text": self.text, "source": self.source}
        if self.evidence:
            out["evidence"] = list(self.evidence)
            out["grounds"] = [g.to_json() for g in self.grounds]
        return out


@record
class Unmodelled(Record):
    """A card of the snapshot whose text permits or forbids Summons, Tributes, attacks or battle
    positions in a way no effect models (the card's `unmodelled`): a verdict may miss it."""
    id: str
    name: str
    why: str

    def __init__(self, id: str, name: str, why: str) -> None:
        set_field(self, "id", id)
        set_field(self, "name", name)
        set_field(self, "why", why)

    def sentence(self) -> str:
        return sentences.unmodelled_sentence(self)


@record
class Verdict(Record):
    """The verdict on one action."""
    action: Action
    permitted: bool
    reasons: tuple[Reason, ...] = ()
    notes: tuple[tuple[str, str], ...] = ()   # derived facts about the action, e.g. materials_go_to
    unmodelled: tuple[Unmodelled, ...] = ()   # cards of the snapshot with rule-relevant text not modelled

    def __init__(self, action: Action, permitted: bool, reasons: tuple[Reason, ...] = (),
                 notes: tuple[tuple[str, str], ...] = (),
                 unmodelled: tuple[Unmodelled, ...] = ()) -> None:
        set_field(self, "action", action)
        set_field(self, "permitted", permitted)
        set_field(self, "reasons", reasons)
        set_field(self, "notes", notes)
        set_field(self, "unmodelled", unmodelled)

    def to_json(self) -> dict[str, Any]:
        out = {"action": self.action.to_json(), "permitted": self.permitted,
               "reasons": [r.to_json() for r in self.reasons]}
        if self.notes:
            out["notes"] = {k: v for k, v in self.notes}
        if self.unmodelled:
            out["unmodelled"] = [u.id for u in self.unmodelled]
        return out


@record
class Legal(Record):
    """Every permitted action of a snapshot (and, when asked, the forbidden candidates)."""
    permitted: tuple[Action, ...]
    replay: bool
    forbidden: tuple[Verdict, ...] = ()
    unmodelled: tuple[Unmodelled, ...] = ()   # cards of the snapshot with rule-relevant text not modelled

    def __init__(self, permitted: tuple[Action, ...], replay: bool, forbidden: tuple[Verdict, ...] = (),
                 unmodelled: tuple[Unmodelled, ...] = ()) -> None:
        set_field(self, "permitted", permitted)
        set_field(self, "replay", replay)
        set_field(self, "forbidden", forbidden)
        set_field(self, "unmodelled", unmodelled)

    def to_json(self, include_forbidden: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"permitted": [a.to_json() for a in self.permitted], "replay": self.replay}
        if include_forbidden:
            out["forbidden"] = [v.to_json() for v in self.forbidden]
        if self.unmodelled:
            out["unmodelled"] = [u.id for u in self.unmodelled]
        return out


@record
class Successor(Record):
    """The snapshot right after an action (Engine.next, CONTRACT 11): `snapshot` (a dict in the
    contract's format, valid input to every command) when the action is permitted, else None and
    the verdict's reasons.  `unmodelled`: the cards in battle whose battle text no effect models;
    `unresolved`: the ids of the cards whose effect resolved without being applied (the vocabulary
    does not model what it does), or whose activation left a cost unpaid (a discard or Tribute with a
    choice of cards the action does not name)."""
    verdict: Verdict
    snapshot: dict | None = None
    unmodelled: tuple[Unmodelled, ...] = ()
    unresolved: tuple[str, ...] = ()

    def __init__(self, verdict: Verdict, snapshot: dict | None = None, unmodelled: tuple[Unmodelled, ...] = (),
                 unresolved: tuple[str, ...] = ()) -> None:
        set_field(self, "verdict", verdict)
        set_field(self, "snapshot", snapshot)
        set_field(self, "unmodelled", unmodelled)
        set_field(self, "unresolved", unresolved)

    @property
    def permitted(self) -> bool:
        return self.verdict.permitted

    def warnings(self) -> list[str]:
        """One sentence per card in battle whose battle text is not modelled, and per effect left unresolved."""
        return ([sentences.unmodelled_sentence(u) for u in self.unmodelled] +
                [f"{c} was not applied in full: what its effect does on resolving, or a cost whose cards the action "
                 "does not name, is not modelled (CONTRACT 11)" for c in self.unresolved])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.verdict.action.to_json(), "permitted": self.permitted}
        if self.snapshot is None:
            out["reasons"] = [r.to_json() for r in self.verdict.reasons]
        else:
            out["snapshot"] = self.snapshot
        if self.unmodelled:
            out["unmodelled"] = [u.id for u in self.unmodelled]
        if self.unresolved:
            out["unresolved"] = list(self.unresolved)
        return out


# ---- the results read from an answer (Engine.read_verdict, Engine.read_legal) ---------------
ACTIVATION_UNMODELLED = ("its own activation conditions (the event it answers, its targets, costs, a text that lets it "
                         "be activated in the Damage Step) are not modelled yet, nor other cards' locks on activations "
                         "outside the effect vocabulary (\"Jinzo\", \"Royal Decree\"): judged by the rules every card "
                         "of its kind follows (spell speed, windows, where from, the turn it was Set)")
MONSTER_EFFECT_UNMODELLED = ("its activated effects are not all modelled (an event the snapshot does not record, a "
                             "target, a condition or a cost no entry states): judged by the rules of its effect's type "
                             "(Ignition, Quick, Trigger, Flip) alone")
"""Why a monster whose activated effect an answer judges is unmodelled (pyrules.effects.monster_effects_modelled)."""
FACEUP_EFFECT_UNMODELLED = ("the activated effects of this face-up card are not all read from its text (an event the "
                            "snapshot does not record, a condition or a cost no entry states): those no entry states are "
                            "not judged (effect_not_modelled)")
"""Why a face-up Spell or Trap Card whose activated effect an answer judges is unmodelled
(pyrules.effects.faceup_effects_modelled)."""
"""Why a Spell or Trap Card whose activation an answer judges is unmodelled.  pyrules keeps no card text,
so the per-kind default is taken: every Spell and Trap Card is assumed to have an activation condition in its
text (a card without one, "Waboku", is listed too: over-reported, never missed)."""


def unmodelled(game: Game, activated: Iterable[str] = ()) -> tuple[Unmodelled, ...]:
    """The snapshot's cards, in snapshot order, whose definition says `unmodelled`, and the Spell and Trap
    Cards among `activated` (the cards whose activation the answer permits or judges:
    ACTIVATION_UNMODELLED) but those whose whole activation condition is modelled (activation_modelled)."""
    activated = set(activated)
    out = []
    for e in game.entries:
        if e.card.get("unmodelled"):
            out.append(Unmodelled(e.id, e.card["name"], e.card["unmodelled"]))
        elif e.id in activated and e.card.get("kind") == "monster" and not monster_effects_modelled(e.card):
            out.append(Unmodelled(e.id, e.card["name"], MONSTER_EFFECT_UNMODELLED))
        elif (e.id in activated and e.card.get("kind") in ("spell", "trap") and e.face == "up"
              and e.zone in ("spell_trap_zone", "field_zone")):
            if not faceup_effects_modelled(e.card):     # its face-up effect, not its activation, is judged
                out.append(Unmodelled(e.id, e.card["name"], FACEUP_EFFECT_UNMODELLED))
        elif e.id in activated and e.card.get("kind") in ("spell", "trap") and not activation_modelled(e.card):
            out.append(Unmodelled(e.id, e.card["name"], ACTIVATION_UNMODELLED))
    return tuple(out)


def reasons_of(enc: Encoding, atoms: Answer, term: Symbol, catalogue: dict[str, tuple[str, str]],
               text_cards: dict[str, str] | None = None) -> tuple[Reason, ...]:
    """The reasons the answer forbids the action `term` for, in id order, with their texts and
    sources from the catalogue (reason id -> (text, source)); a reason of `text_cards` (reason id
    -> "evidence" or "action": reason_text_card/2) cites the text of the card in play."""
    ids = sorted({a[1].name for a in atoms.get("forbidden", 2) if a[0] == term})
    out = []
    for rid in ids:
        ev = [a[2] for a in atoms.get("evidence", 3) if a[0] == term and a[1].name == rid]
        whose = (text_cards or {}).get(rid)
        out.append(reason(enc, rid, ev, catalogue, _action_card(enc, term) if whose == "action" else None,
                          whose is not None))
    return tuple(out)


def _action_card(enc: Encoding, term: Symbol) -> Evidence | None:
    """The card an action term is about (its first argument, for the actions the codec says take a card id)."""
    sig = SIGNATURES.get(term.name)
    if sig and sig[0][1] == "id" and term.arguments and term.arguments[0].type == SymbolType.Number:
        return card_evidence(enc, term.arguments[0].number)
    return None


def citations(source: str) -> list[str]:
    """A source's citations: its parts between "; " outside quotes and parentheses."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(source):
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "()":
            depth += 1 if ch == "(" else -1
        elif not quoted and depth == 0 and source.startswith("; ", i):
            parts.append(source[start:i])
            start = i + 2
    return parts + [source[start:]]


def cited_source(source: str, grounds: tuple[Evidence, ...], about: Evidence | None) -> str:
    """The source a verdict cites for a reason that rests on a card's text: the text of each card in
    play it rests on (the cards of its evidence, or `about`, the action's card), then the rulings of
    the catalogue's source; the catalogue's examples ("card text of" other cards) are left out.  An
    applied effect of the snapshot without a source card is cited as such (CONTRACT 6)."""
    cards = [g for g in ((about,) if about is not None else grounds) if g.kind in ("card", "effect")]
    names = list(dict.fromkeys(g.name for g in cards if g.name))
    cites = [f'card text of "{n}"' for n in names]
    if any(g.kind == "effect" and not g.name for g in cards):
        cites.append("CONTRACT 6, 3. applied (an effect the snapshot lists)")
    if not cites:
        return source
    return "; ".join(cites + [c for c in citations(source) if not c.startswith("card text of")])


def reason(enc: Encoding, rid: str, evidence: list[Symbol], catalogue: dict[str, tuple[str, str]],
           about: Evidence | None = None, from_text: bool = False) -> Reason:
    """A Reason: its catalogue text filled from its evidence atoms (sentences.reason_text); with
    from_text, its source is the text of the card in play (cited_source)."""
    text, source = catalogue.get(rid, (rid.replace("_", " "), "pyrules: uncatalogued reason"))
    grounds = tuple(evidence_of(enc, e) for e in evidence)
    if from_text:
        source = cited_source(source, grounds, about)
    return Reason(rid, sentences.reason_text(text, grounds), source, tuple(g.text() for g in grounds), grounds)


def card_evidence(enc: Encoding, number: int) -> Evidence:
    """The card of number `number` as a "card" Evidence (gone: no longer in the snapshot)."""
    ident = enc.card_id.get(number, f"#{number}")
    entry = enc.game.by_id.get(ident)
    if entry is None:
        return Evidence("card", card=ident, gone=True)
    return Evidence("card", card=ident, name=entry.card["name"], player=entry.player)


def evidence_of(enc: Encoding, e: Symbol) -> Evidence:
    """An evidence atom of the answer as data."""
    args = e.arguments
    numbers = [a.number if a.type == SymbolType.Number else None for a in args]
    if e.name == "event" and len(args) == 1 and numbers[0] is not None:
        k = numbers[0]
        ev = enc.game.events[k - 1]
        return Evidence("event", event=k, what=ev["event"], card=ev.get("card"),
                        flags=tuple(f for f in ("negated", "replay") if ev.get(f)))
    if e.name == "card" and len(args) == 1 and numbers[0] is not None:
        return card_evidence(enc, numbers[0])
    if e.name == "effect" and len(args) == 1 and numbers[0] is not None:
        eff = enc.game.effects[numbers[0] - 1]
        return Evidence("effect", number=numbers[0], what=eff["effect"], name=eff.get("source"))
    if e.name == "name" and len(args) == 1 and numbers[0] is not None:       # a card name (number)
        return Evidence("name", name=enc.names.name(numbers[0]))
    if e.name == "need" and len(args) == 1 and numbers[0] is not None:
        return Evidence("need", number=numbers[0])
    if e.name == "sum" and len(args) == 2 and None not in numbers:
        return Evidence("sum", number=numbers[0], needs=numbers[1])
    return Evidence(e.name, term=str(e))


def note_value(enc: Encoding, value: Symbol) -> str:
    """A note's value: card(I) becomes the card's description, constants stay as they are."""
    if value.name == "card" and len(value.arguments) == 1:
        return card_evidence(enc, value.arguments[0].number).card_text()
    return str(value)
