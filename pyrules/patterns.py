"""Effects derived from card text: the sentence patterns of facts/patterns/*.yaml.

A card text is split into sentences (`sentences`); each pattern is one effect wording, a
Python regular expression matched (case-insensitively) against one sentence at a time.
A pattern that matches fills its `effects` entries from the match's groups ("{1}",
"{name}") and the entries are checked against their kind's schema
(pyrules.effects.entry_problems).  A pattern whose `effects` list is empty still marks
its sentence as read: the sentence is modelled elsewhere (the frame flags a database
already holds), and `covered_by` says where.  `frame: special_summon_only` says the
sentence is that frame flag ("Cannot be Normal Summoned/Set."), for databases that lack it.
`numbered: true` says the sentence is one of the card's activated effects: those sentences are
counted in text order, and "{number}" in any pattern's entries is the count so far (the effect a
cost or a "once per turn" sentence belongs to). `fallback: true` marks a broad pattern that reads
a sentence only when no other pattern does (the first such in file order) (it tells an activated effect's type when nothing
reads the rest of the sentence). `cards: monster` (spell, trap) reads only that kind of card's text.
`aside: true` marks a pattern that reads a fact beside whatever else reads its sentence ("inflict 800 damage"): it
does not count as reading the sentence, nor keeps a fallback or the numbering from it.
`leaves:` lists the effects a resolved card leaves behind on the cards or the player it
names (Scapegoat's "You cannot Summon other monsters the turn you activate this card"):
they are not the card's own effects; a snapshot lists them under `effects:` (CONTRACT 6).

Which sentences matter: a sentence speaks of Summons, Tributes, attacks or battle
positions (`topics`, `relevant`) when it states a permission or restriction of one of them
(TOPICS).  Such a sentence that no pattern reads leaves the card's
text unmodelled unless the curated overlay (facts/overlay/) covers the card: a sentence
with a condition no pattern reads is never guessed.

A Spell or Trap Card's activation is read apart (`read_activation`): the patterns of
facts/patterns/activation.yaml run over its activation sentences only, each reading the part it
matches (a cost, the event answered); what they leave must ask nothing (ACTIVATION_SAYS), else
the importer gives the card `activation_unmodelled`.

Nothing about the game's rules is decided here; the patterns only say which effect a
wording is.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import yaml

from .effects import Vocabulary, entry_problems
from .errors import InvalidInput, Problem
from .paths import facts_dir

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
PATTERN_KEYS = {"id", "regex", "effects", "leaves", "frame", "matches", "near_misses", "covered_by", "note",
                "checked", "numbered", "fallback", "cards", "aside"}
FRAMES = ("special_summon_only", "trap_monster")      # the frame flags a pattern may set (`frame:`)


@dataclass(frozen=True)
class Pattern:
    id: str
    regex: re.Pattern
    effects: tuple[dict, ...]
    topic: str
    matches: tuple[str, ...] = ()
    near_misses: tuple[str, ...] = ()
    covered_by: str | None = None
    leaves: tuple[dict, ...] = ()
    frame: str | None = None
    numbered: bool = False
    fallback: bool = False
    cards: str | None = None        # the kind of card (monster, spell, trap) whose text it reads; None: any
    aside: bool = False             # reads a fact beside the sentence's other reads (it reads no sentence alone)

    def entries(self, match: re.Match, number: int = 0) -> list[dict]:
        """The pattern's entries with "{1}", "{name}" filled from the match's groups ("{number}": the
        activated effect's number)."""
        return [_fill(e, match, number) for e in self.effects]


@dataclass(frozen=True)
class Derived:
    """What the patterns read in one card text."""
    effects: list[dict]                       # the entries, in text order, without repeats
    read: list[tuple[str, str]]               # (pattern id, sentence) for every sentence a pattern read
    unread: list[str]                         # the relevant sentences no pattern read
    problems: list[str] = field(default_factory=list)   # entries a pattern filled wrongly
    leaves: list[dict] = field(default_factory=list)     # entries the card's resolution leaves behind
    frames: list[str] = field(default_factory=list)      # frame flags the text states (`frame:`)
    topics: list[str] = field(default_factory=list)      # what the relevant sentences speak of (TOPICS)
    unread_topics: list[str] = field(default_factory=list)   # what the unread ones speak of
    unread_activated: list[str] = field(default_factory=list)  # sentences like an activated effect no pattern numbered


# ---- sentences -------------------------------------------------------------------------
def sentences(text: str) -> list[str]:
    """A card text's sentences: split at a full stop (or ! ?) followed by a space or the end,
    outside double quotes and parentheses, and at line breaks; a parenthesised sentence
    ("(This card is always treated as ...)") is a sentence of its own."""
    out: list[str] = []
    for line in re.split(r"[\r\n]+", text or ""):
        buf: list[str] = []
        depth, quoted = 0, False
        n = len(line)
        for i, ch in enumerate(line):
            buf.append(ch)
            if ch == '"':
                quoted = not quoted
            elif ch == "(" and not quoted:
                depth += 1
            elif ch == ")" and not quoted and depth:
                depth -= 1
                if depth == 0 and i > 0 and line[i - 1] in ".!?" and (i + 1 == n or line[i + 1].isspace()):
                    out.append("".join(buf).strip())
                    buf = []
            elif ch in ".!?" and not quoted and depth == 0 and (i + 1 == n or line[i + 1].isspace()):
                out.append("".join(buf).strip())
                buf = []
        rest = "".join(buf).strip()
        if rest:
            out.append(rest)
    return [s for s in out if s]


# ---- which sentences speak of the actions the rules judge ------------------------------
TOPICS: dict[str, re.Pattern] = {name: re.compile("|".join(parts), re.I) for name, parts in {
    # a Summon or Set that may not, must or may only happen (this card's, or a player's)
    "Summons": [r"\b(?:cannot|can't|can ?not|must|only|unless|neither player can|instead)\b.*\b(?:summon|set)(?:ed|s)?\b",
                r"\bsummon(?:ed)?\b.*\b(?:cannot|only|unless)\b",
                r"\bzones?\b.*\bcannot be used\b",      # a Monster Zone no Summon can use
                # limits that forbid Summons without saying "Summon": what a player may control or have on the field
                # ("Rivalry of Warlords": 1 Type of monster; "Spatial Collapse": 5 cards)
                r"\b(?:can|may) only control\b", r"\b(?:can|may) (?:only )?have on the field\b"],
    "Tributes": [r"\btribut\w*\b.*\b(?:cannot|only|must|twice|2 tributes|two tributes|1 tribute|one tribute)\b",
                 r"\b(?:cannot|must|only|instead)\b.*\btribut",
                 r"\bas 2 tributes\b|\bwith 1 tribute\b|\bwithout tribut"],
    "attacks": [r"\b(?:cannot|can't|can|may|must|unless|only)\b(?: \w+){0,3} (?:attack|declare an attack)\b",
                r"\battacks? (?:directly|twice|all|each|again|every)\b|\bsecond attack\b|\b2 attacks\b",
                r"\b(?:targeted|selected|target|select)\b(?: [\w'-]+){0,6} (?:for|as an?) (?:its |their )?attacks?\b",
                r"\bcannot be attacked\b|\bto declare an attack\b|\bcannot be an attack target\b",
                r"\b(?:cannot|can't|neither player can) conduct (?:their|his/her|your) battle phase\b"],     # no attack at all
    "battle positions": [
        r"\b(?:cannot|can't|must|only)\b.*\b(?:change|switch)\w* (?:its |their |the |this |this card's |battle )*"
        r"positions?\b",
        r"\bpositions? (?:cannot|can't) be changed\b|\bmust (?:remain|stay) in (?:this|that|its) position\b",
        r"\b(?:cannot|can't|must)\b.*\b(?:placed?|summoned|set) (?:it )?in (?:face-(?:up|down) )?(?:attack|defense) "
        r"position\b"],
}.items()}
ACTIVATION = re.compile(r"\b(?:cannot|can't) (?:activate|use) (?:this|the|its) (?:effect|card)\b", re.I)
TRIGGER = re.compile(r"^(?:when|if|after|during|once per turn|each time)\b[^:]*:\s*(?P<rest>.*)$", re.I)


ACTIVATED = re.compile(
    r"^(?:flip:|(?:once per turn[,:]? )?you can\b|once per turn:|(?:when|if|during|at the (?:start|end))\b[^:]*:"
    r"|\(quick effect\))|\(quick effect\)|\bthis is a quick effect\b", re.I)
"""A sentence worded like a monster's activated effect ("FLIP:", "You can ...", "When ...:", "Once per turn:");
the audit counts those of Effect Monsters no `numbered` pattern reads (pyrules.pool)."""


FACEUP_ACTIVATED = re.compile(
    r"^(?!during each of your standby phases?, pay\b)"     # a cost to keep the card ("Messenger of Peace"): no activation
    r"(?:once per turn\b|once during\b|either player can\b"
    r"|(?:during|at the (?:start|end) of) (?:each of )?(?:your|your opponent's|each player's|his/her|their)(?: own)? "
    r"(?:standby|end|draw) phases?\b|at the end of (?:each of )?your opponent's turns?\b"
    r"|you can (?:only activate this card's effect|activate this card's effect|use this effect|pay|send|tribute|discard|"
    r"remove|add|special summon|normal summon)\b"
    r"|(?:pay|tribute|discard|remove from play) [^.]*\bto (?:use|activate this card's effect|inflict|destroy|negate|"
    r"special summon)\b"
    r"|(?!pay\b|tribute\b)[^.]*\bduring (?:each of )?(?:your|your opponent's|his/her|their) standby phases?\.?$)", re.I)
"""g36st (issue 36): a sentence of a Spell or Trap Card that stays face-up worded like one of its face-up activated
effects ("Once per turn ...", "During each of your Standby Phases ...", "Pay 300 Life Points to use this card's
effect", "... during each of his/her Standby Phases."); the audit lists those of Continuous, Equip and Field Spells
and Continuous Traps that no `numbered` pattern reads (`faceup_unread`, pyrules.importers)."""


def topics(sentence: str) -> list[str]:
    """Which of Summons, Tributes, attacks, battle positions this sentence permits or forbids.
    A triggered effect ("When this card is Summoned: draw 1 card") counts only when what it
    does speaks of those actions."""
    m = TRIGGER.match(sentence)
    body = m.group("rest") if m else sentence
    if ACTIVATION.search(body):
        return []
    return [name for name, rx in TOPICS.items() if rx.search(body)]


def relevant(sentence: str) -> bool:
    return bool(topics(sentence))


# ---- what a Spell or Trap Card's activation asks ---------------------------------------
ACTIVATION_TOPIC = "activation"
"""The pattern files (facts/patterns/activation.yaml, and each activation_*.yaml) whose patterns read a Spell or
Trap Card's activation sentences (read_activation), and only those: each may read a part of a sentence (a cost, the event it
answers), so it is never run over other texts (derive)."""

ACTIVATION_SAYS: dict[str, re.Pattern] = {name: re.compile("|".join(parts), re.I) for name, parts in {
    # docs/design/activation.md section 1 (the survey's kinds, grouped): words that put a condition on the
    # moment a card is activated.  A sentence of the card's activation that says one of these, in a part no
    # activation pattern reads, leaves the activation unmodelled.
    "a condition": [r"\b(?:activate only|only activate|can only (?:be )?activate|can only be activated|"
                    r"activate this card only|must be on the field to activate|you must control)\b",
                    # wp-auditB: the event a card answers, worded as a permission ("Gust", "Major Riot")
                    r"^you can activate this card when\b"],
    "a cost": [r"\b(?:pay|discard|tribut\w*|send|banish|remove from play)\b[^.;]*(?:;|\bto (?:activate|negate|"
               r"destroy|special|draw|add|target|select|return|inflict|look|change)\b)",
               r"^(?:pay|discard|tribute|banish|remove from play|send) ", r"\bpay (?:half|\d+|lp)\b",
               r"\bby (?:paying|discarding|tributing|sending|removing|banishing)\b",
               # wp-conds: Spell Counters removed to activate ("Mega Ton Magical Cannon"; no snapshot holds counters)
               r"^remove \d+ spell counters?\b"],
    "a limit": [r"\bonce per (?:turn|duel)\b", r"\bonly activate 1\b", r"\b1 .{0,20}per turn\b"],
    "a negation": [r"\bnegate (?:the|that|its) (?:activation|summon|normal summon|flip summon|special summon)\b",
                   r"\bnegate [^.]{0,40}\bactivation\b"],
    "targets": [r"\btarget", r"\b(?:selects?|chooses?) (?:\d+|up to|and|a|one)\b", r"\bequip(?:ped)? (?:only )?(?:with |to )?"
                r"(?:this card|a|an|1)\b", r"\bequip only\b"],
    "cards it needs": [r"\bspecial summon", r"\bfrom (?:your|his/her|their|your opponent's|each player's) "
                       r"(?:deck|hand|graveyard|gy)\b", r"\bdraw (?:\d+|until)", r"\b(?:destroy|banish|return|"
                       r"remove from play|change|flip) (?:all|\d+|the 1|up to)\b", r"\bin your (?:deck|graveyard)\b",
                       r"\bfusion summon\b|\britual summon\b|\btop \d+ cards\b|\byour opponent discards\b|"
                       r"\bin your opponent's hand\b|\blook at\b|\bchange the battle positions of all\b"],
    "how it is placed": [r"^this card cannot be activated\b", r"\bcan only be placed on the field\b"],
}.items()}

PERSISTENT = {("spell", "continuous"), ("spell", "equip"), ("spell", "field"), ("trap", "continuous")}
"""The frames whose card stays face-up: their sentences are mostly the face-up card's own effects."""
ACTIVATES = re.compile(r"^(?:activate only|you can (?:only )?activate this card(?!'s)|this card can only be activated|"
                       r"activate this card|activate by|activate 1 of|pay \d+ life points to activate)|"
                       r"\bto activate this card\b(?!'s)|^this card cannot be activated\b|\bcan only be placed on the field\b|"
                       # an Equip Spell's restriction on its monster (rules/activation_targets.lp)
                       r"\bequip only\b|\bonly (?:be )?equip|\bcan only be (?:used to )?equip|\bonly a monster with\b", re.I)
EFFECT_COST = re.compile(r"\bto (?:use|activate) this card's effect\b|\bto inflict\b|\bdo not have to pay\b|"
                         # wp-conds: "Remove from play ... to destroy 1 face-up monster" ("Skull Lair"): the cost of the
                         # face-up card's effect, paid each time it is used, not of the card's activation
                         r"\bto destroy\b", re.I)
EFFECT_OPENING = re.compile(r"^(?:when|if|each time|once per turn|during|while|as long as|you can|at the|"
                            r"each player|neither player|either player|all|\(|the equipped|a monster equipped|this card|"
                            # wp-auditB: a lasting effect on the monsters there or Summoned later ("Level Limit - Area B",
                            # "Stumbling"), applied while the card is face-up: it asks nothing of the activation
                            r"change all face-up|any monster that is)\b",
                            re.I)


@dataclass(frozen=True)
class Activation:
    """What the activation patterns read in a Spell or Trap Card's activation sentences."""
    effects: list[dict]                       # the entries, in text order, without repeats
    says: list[str]                           # what the sentences ask (ACTIVATION_SAYS), read or not
    unread: list[str]                         # the sentences with a condition in a part no pattern reads
    unread_says: list[str]                    # what those parts ask
    read: list[tuple[str, str]] = field(default_factory=list)    # (pattern id, sentence)
    problems: list[str] = field(default_factory=list)


def activation_sentences(text: str, kind: str, icon: str) -> list[str]:
    """The sentences of a Spell or Trap Card's text that speak of its activation: every one but a note in
    parentheses; on a card that stays face-up (PERSISTENT) the first (unless it opens as one of the face-up
    card's effects: "When ...", "Once per turn ...", "The equipped monster ...") and those that say how the
    card is activated ("Activate only ...", "... to activate this card")."""
    out: list[str] = []
    skipped = False         # a bullet ("● ...") belongs to the sentence before it: read or skipped with it
    for s in sentences(text):
        skipped = bool(NOT_AT_ACTIVATION.match(s)) or (skipped and s.startswith("●"))
        if not skipped and not s.startswith("("):
            out.append(s)
    if (kind, icon) not in PERSISTENT:
        return out
    return [s for i, s in enumerate(out) if not EFFECT_COST.search(s) and not _face_up_cost(out, i)
            and (ACTIVATES.search(s) or (i == 0 and not EFFECT_OPENING.match(s)))]


FACE_UP_COST_ALONE = re.compile(r"^discard \d+ cards? from your hand\.?$", re.I)
NEGATION_OPENING = re.compile(r"^negate\b", re.I)


def _face_up_cost(out: list[str], i: int) -> bool:
    """wp-ritual (issue 36): on a card that stays face-up, a sentence that is a cost alone, followed by one that negates
    other cards' effects ("Discard 1 card from your hand. Negate the effect of a Trap Card that targets 1 face-up
    Dragon-Type monster ...": "The Dragon's Bead"), is the cost of the face-up card's effect, paid each time it negates
    one, not of the card's activation (tests/test_patterns_ritual.py; docs/activation.md)."""
    return bool(FACE_UP_COST_ALONE.match(out[i])) and i + 1 < len(out) and bool(NEGATION_OPENING.match(out[i + 1]))


NOT_AT_ACTIVATION = re.compile(
    # wp-rest (issue 36, docs/design/activation.md section 1): sentences that open on a moment other than the card's
    # activation, so that nothing they say is asked when it is activated (tests/test_patterns_rest.py):
    r"^(?:after activation\b"                      # what is done with the card once it resolved ("Pharaoh's Treasure")
    r"|when you draw this card\b"                  # the card's own trigger when drawn later ("Pharaoh's Treasure")
    r"|when this face-down card is destroyed\b"    # the Set card's own trigger, before any activation ("Statue of the Wicked")
    r"|during the end phase of the turn this card was activated\b"   # a delayed effect ("Super Rejuvenation")
    r"|when activating this card, your opponent cannot check\b"      # how it resolves, not when ("Question")
    r"|when [^.]*\bas substitutes\b"            # a replacement it applies for the turn ("Spirit Elimination")
    # wp-auditB: "Swords of Revealing Light": how long the card stays once resolved, and an effect its resolution applies
    # only if a state holds then ("If your opponent controls a face-down monster, flip ..."): neither limits when it is
    # activated (tests/test_patterns_auditB.py)
    r"|after this card's activation, it remains on the field\b"
    r"|when this card is activated: if\b"
    r"|while this card is face-up on the field\b"     # what the face-up card does while it stays (the same card)
    # a permission the card grants for the rest of the turn, used once its condition holds, then or later ("Last Will")
    r"|if [^.:]*\bthis turn, you can [^.]*\bonce during this turn\b)",
    re.I)
"""Sentences of a Spell or Trap Card's text that say what happens at another moment than its activation (after it
resolved, when it is drawn or destroyed while Set, at a later End Phase, each time an event it replaces happens): the
survey reads none of them as asking something of the activation."""

CONDITION_OPENING = re.compile(r"^(?!during this turn\b)(?:when|if|during|at the start|while|only|each time|after)\b", re.I)
"""A sentence that opens with a condition ("When ...:", "If you control ...:") states one of the activation when it
is the card's first (the activation position, docs/design/activation.md section 1); a later one ("During the End
Phase of this turn, destroy those monsters.") is the resolution's own.  "During this turn, ..." ("Meteorain") opens
what the card does after it resolves for the rest of the turn, never when it may be activated (wp-conds)."""


def _says(text: str, first: bool = False) -> list[str]:
    said = [name for name, rx in ACTIVATION_SAYS.items() if rx.search(text)]
    if first and "a condition" not in said and CONDITION_OPENING.search(text):
        said.insert(0, "a condition")
    return said


def read_activation(text: str, kind: str, icon: str, patterns: Iterable[Pattern] | None = None,
                    voc: Vocabulary | None = None) -> Activation:
    """The activation entries the activation patterns (ACTIVATION_TOPIC) read in a Spell or Trap Card's
    activation sentences, and the sentences that ask something in a part they leave unread (each pattern
    reads the part it matches; what is left must ask nothing: ACTIVATION_SAYS)."""
    chosen = [p for p in (bundled_patterns() if patterns is None else patterns) if p.topic == ACTIVATION_TOPIC]
    effects: list[dict] = []
    says: list[str] = []
    unread: list[str] = []
    unread_says: list[str] = []
    read: list[tuple[str, str]] = []
    problems: list[str] = []
    if kind not in ("spell", "trap") or len(text or "") > MAX_TEXT_CHARS:
        return Activation([], [], [], [])
    for i, sentence in enumerate(activation_sentences(text, kind, icon)):
        first = i == 0 or bool(ACTIVATES.search(sentence))
        says += [w for w in _says(sentence, first) if w not in says]
        rest = sentence
        for p in chosen:
            for m in p.regex.finditer(sentence):
                read.append((p.id, sentence))
                rest = rest[:m.start()] + " " * (m.end() - m.start()) + rest[m.end():]
                for entry in p.entries(m):
                    bad = entry_problems(entry, f"pattern {p.id}", voc=voc)
                    if bad:
                        problems += [f"{path}: {msg}" for path, msg in bad]
                    elif entry not in effects:
                        effects.append(entry)
        left = _says(rest.strip(" .,;:"), first and rest[:1] != " ")
        if left:
            unread.append(sentence)
            unread_says += [w for w in left if w not in unread_says]
    return Activation(effects, says, unread, unread_says, read, problems)


# ---- loading ---------------------------------------------------------------------------
def _fill(value: Any, match: re.Match, number: int = 0) -> Any:
    if isinstance(value, dict):
        return {k: _fill(v, match, number) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, match, number) for v in value]
    if isinstance(value, str) and "{" in value:
        groups = {str(i): g for i, g in enumerate(match.groups(), 1)}
        groups.update({k: v for k, v in match.groupdict().items()})
        groups["number"] = str(number)
        whole = re.fullmatch(r"\{(\w+)\}", value)
        filled = re.sub(r"\{(\w+)\}", lambda m: groups.get(m.group(1)) or "", value)
        if whole and re.fullmatch(r"\d+", filled):
            return int(filled)
        return filled
    return value


def _entries_problems(entries: Any, where: str, applied: bool, voc: Vocabulary | None) -> list[Problem]:
    """The problems of a pattern's list of effect entries (those filled from groups are
    checked when the pattern fires)."""
    if not isinstance(entries, list):
        return [Problem(where, "a list of entries")]
    out = []
    for i, e in enumerate(entries or ()):
        if isinstance(e, dict) and any("{" in str(v) for v in e.values()):
            continue
        out += [Problem(p, m) for p, m in entry_problems(e, f"{where}[{i}]", applied=applied, voc=voc)]
    return out


def _problems_of(item: Any, where: str, voc: Vocabulary | None = None) -> list[Problem]:
    if not isinstance(item, dict):
        return [Problem(where, "expected a mapping (id, regex, effects, matches, near_misses)")]
    out = [Problem(f"{where}.{k}", "unknown key") for k in item if k not in PATTERN_KEYS]
    for key in ("id", "regex"):
        if not isinstance(item.get(key), str):
            out.append(Problem(f"{where}.{key}", "is required (a string)"))
    out += [Problem(f"{where}.{k}", "true or false") for k in ("numbered", "fallback")
            if k in item and not isinstance(item[k], bool)]
    if item.get("cards") is not None and item["cards"] not in ("monster", "spell", "trap"):
        out.append(Problem(f"{where}.cards", "one of monster, spell, trap"))
    if item.get("frame") is not None and item["frame"] not in FRAMES:
        out.append(Problem(f"{where}.frame", f"one of {', '.join(FRAMES)}"))
    for key in ("effects", "leaves"):
        out += _entries_problems(item.get(key, []), f"{where}.{key}", applied=key == "leaves", voc=voc)
    if not isinstance(item.get("effects"), list):
        out.append(Problem(f"{where}.effects", "is required (a list of entries, [] when covered_by says why)"))
    elif not (item["effects"] or item.get("leaves") or item.get("frame") or item.get("covered_by")):
        out.append(Problem(f"{where}.covered_by", "a pattern without effects says what models its sentence"))
    return out


def load_patterns(folder: str | Path | None = None, voc: Vocabulary | None = None) -> list[Pattern]:
    """Every pattern of facts/patterns/*.yaml (or of `folder`), in file then list order; their
    entries of the kinds of `voc` (default the shipped declaration)."""
    folder = Path(folder) if folder is not None else facts_dir() / "patterns"
    out: list[Pattern] = []
    problems: list[Problem] = []
    ids: set[str] = set()
    for path in sorted(folder.glob("*.yaml")):
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader) or []
        except (OSError, yaml.YAMLError, UnicodeDecodeError) as e:
            problems.append(Problem(path.name, f"cannot read the patterns: {e}"))
            continue
        if not isinstance(data, list):
            problems.append(Problem(path.name, "a pattern file holds a list of patterns"))
            continue
        for i, item in enumerate(data):
            where = f"{path.name}[{i}]"
            found = _problems_of(item, where, voc)
            if not found:
                try:
                    regex = re.compile(item["regex"], re.I)
                except re.error as e:
                    found = [Problem(f"{where}.regex", f"not a regular expression: {e}")]
            if not found and item["id"] in ids:
                found = [Problem(f"{where}.id", f"pattern id {item['id']!r} is used twice")]
            if found:
                problems += found
                continue
            ids.add(item["id"])
            out.append(Pattern(item["id"], regex, tuple(item["effects"]), _topic(path.stem),
                               tuple(item.get("matches") or ()), tuple(item.get("near_misses") or ()),
                               item.get("covered_by"), tuple(item.get("leaves") or ()), item.get("frame"),
                               bool(item.get("numbered")), bool(item.get("fallback")), item.get("cards"),
                               bool(item.get("aside"))))
    if problems:
        raise InvalidInput(problems)
    return out


def _topic(stem: str) -> str:
    """A pattern file's topic: its name, but activation_<part>.yaml (one file per helper's share of the activation
    patterns) reads activations too (ACTIVATION_TOPIC)."""
    return ACTIVATION_TOPIC if stem.startswith(ACTIVATION_TOPIC + "_") else stem


@lru_cache(maxsize=None)
def bundled_patterns() -> tuple[Pattern, ...]:
    return tuple(load_patterns())


# ---- reading a text --------------------------------------------------------------------
MAX_TEXT_CHARS = 3_000      # the longest card text of the two bundled databases has 852 characters


def derive(text: str, patterns: Iterable[Pattern] | None = None, voc: Vocabulary | None = None,
           kind: str | None = None) -> Derived:
    """The effects the patterns read in a card text, and the relevant sentences they do not read (with
    `kind`, the card's kind: only the patterns for that kind of card, or for any).
    A text of more than MAX_TEXT_CHARS characters is not read at all (the topic expressions take time
    growing with the square of a sentence's length): it counts as one unread sentence on every topic."""
    if len(text or "") > MAX_TEXT_CHARS:
        order = list(TOPICS)
        return Derived([], [], [f"(a text of {len(text):,} characters, more than the {MAX_TEXT_CHARS:,} read)"],
                       topics=order, unread_topics=order)
    chosen = bundled_patterns() if patterns is None else tuple(patterns)
    if kind is not None:
        chosen = tuple(p for p in chosen if p.cards in (None, kind))
    # a Spell or Trap Card's own activation is its effect 1 (CONTRACT 9): its face-up effects count from 2
    return _read(text, tuple(p for p in chosen if p.topic != ACTIVATION_TOPIC), voc,
                 1 if kind in ("spell", "trap") else 0)


def _read(text: str, patterns: tuple[Pattern, ...], voc: Vocabulary | None = None, first: int = 0) -> Derived:
    """derive() on a text of a readable length (entries checked against `voc`); `first`: the count of activated
    effects before the text's first numbered sentence (1 on a Spell or Trap Card: its own activation)."""
    out = Derived([], [], [])
    about: list[str] = []
    number = first
    for sentence in sentences(text):
        spoken = topics(sentence)
        about += [t for t in spoken if t not in about]
        hits = [(p, m) for p in patterns if not p.fallback and not p.aside and (m := p.regex.search(sentence))]
        if not hits:        # the first fallback that reads it, alone
            hits = [(p, m) for p in patterns if p.fallback and (m := p.regex.search(sentence))][:1]
        for p, m in ((p, m) for p in patterns if p.aside and (m := p.regex.search(sentence))):
            _take(out, p, m, sentence, number + any(q.numbered for q, _ in hits), voc)
        if any(p.numbered for p, _ in hits):
            number += 1
        elif (FACEUP_ACTIVATED.search(sentence) and not hits) if first else ACTIVATED.search(sentence):
            out.unread_activated.append(sentence)
        for p, m in hits:
            _take(out, p, m, sentence, number, voc)
        if not hits and spoken:
            out.unread.append(sentence)
            out.unread_topics.extend(t for t in spoken if t not in out.unread_topics)
    order = list(TOPICS)
    out.topics.extend(sorted(about, key=order.index))
    out.unread_topics.sort(key=order.index)
    return out


def _take(out: Derived, p: Pattern, m: re.Match, sentence: str, number: int, voc: Vocabulary | None) -> None:
    """What pattern `p` read in `sentence` (its match `m`), added to `out`."""
    out.read.append((p.id, sentence))
    if p.frame and p.frame not in out.frames:
        out.frames.append(p.frame)
    for applied, entries, into in ((False, p.entries(m, number), out.effects),
                                   (True, [_fill(e, m, number) for e in p.leaves], out.leaves)):
        for entry in entries:
            bad = entry_problems(entry, f"pattern {p.id}", applied=applied, voc=voc)
            if bad:
                out.problems.extend(f"{path}: {msg}" for path, msg in bad)
            elif entry not in into:
                into.append(entry)
