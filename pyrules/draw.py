"""Boards as pictures: a snapshot as SVG (`pyrules show --svg`), and a counterexample search as an
HTML page with each counterexample's board and verdicts (`pyrules diff --html`).

Plain SVG and HTML written with the standard library (xml.etree, html): no drawing dependency.
Only the validated snapshot (Engine.game) and results already decided (Verdicts, a SearchResult)
are drawn; nothing here judges.  Each card is a group (class "card") with data-id, data-name,
data-position and data-face, so that tools and tests can read the picture back.
"""
from __future__ import annotations

import html
import textwrap
import xml.etree.ElementTree as ET
from typing import Any

from .model import Entry, Game
from .schema import PHASE_NAMES
from .sentences import applied_words, event_sentence

SVG_NS = "http://www.w3.org/2000/svg"
CELL = 132                    # a zone's cell, square
LONG, SHORT = 116, 88         # a card's sides: upright in Attack Position, sideways in Defense Position
LABEL = 120                   # the column of row labels
LINE = 15                     # a line of text
ZONES = 5                     # Monster Zones and Spell & Trap Zones a side
WIDTH = LABEL + (ZONES + 1) * CELL + 10
WRAP = 150                    # characters of a line of words (about the width at 11 px)
FILL = {"monster": "#f3e2c7", "spell": "#cfeee6", "trap": "#f1d3e6"}
POSITION_WORDS = {"attack": "Attack Position", "defense": "Defense Position"}


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _text(parent: ET.Element, x: float, y: float, text: str, **attrs: Any) -> ET.Element:
    t = ET.SubElement(parent, "text", {"x": str(round(x, 1)), "y": str(round(y, 1)), **{k.replace("_", "-"): str(v)
                                                                                       for k, v in attrs.items()}})
    t.text = text
    return t


class _Board:
    """One picture being drawn: the SVG root and the game's marks (attack, chain)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.svg = ET.Element("svg", {"xmlns": SVG_NS, "width": str(WIDTH), "font-family": "sans-serif",
                                      "font-size": "11", "class": "board"})
        ET.SubElement(self.svg, "title").text = "pyrules board: " + self.heading()
        attack = game.attack or {}
        self.attacker, self.target = attack.get("attacker"), attack.get("target")
        self.links = {card: (k, player) for k, (card, player, _effect) in enumerate(game.links, start=1)}
        self.y = 0.0

    def heading(self) -> str:
        g = self.game
        step = f", {g.battle_step} step" if g.phase == "battle" and g.battle_step else ""
        return f"Turn {g.turn}: {g.turn_player}'s turn, {PHASE_NAMES.get(g.phase, g.phase)}{step}"

    # ---- cards and rows ---------------------------------------------------------------------
    def card(self, e: Entry, x: float, y: float) -> None:
        """A card centred in the cell at (x, y): upright in Attack Position, sideways in Defense
        Position; face-down cards shaded; the attacker, the attack's target and chain links marked."""
        c = e.card
        w, h = (SHORT, LONG) if e.position != "defense" else (LONG, SHORT)
        left, top = x + (CELL - w) / 2, y + (CELL - h) / 2
        face = e.face or "up"
        g = ET.SubElement(self.svg, "g", {"class": "card", "data-id": e.id, "data-name": c["name"],
                                          "data-zone": e.zone, "data-face": face,
                                          "data-position": e.position or ""})
        ET.SubElement(g, "title").text = f"{c['name']} (id {e.id})"
        stroke, dash = "#333", ""
        if e.id == self.attacker:
            stroke = "#c0392b"
        elif e.id == self.target:
            stroke, dash = "#c0392b", "5,3"
        rect = {"x": str(left), "y": str(top), "width": str(w), "height": str(h), "rx": "5",
                "fill": "#9a9a9a" if face == "down" else FILL.get(c.get("kind", ""), "#eeeeee"),
                "stroke": stroke, "stroke-width": "2.5" if stroke != "#333" else "1"}
        if dash:
            rect["stroke-dasharray"] = dash
        ET.SubElement(g, "rect", rect)
        for n, line in enumerate(self.card_lines(e)):
            _text(g, left + 4, top + 13 + n * 12, _clip(line, 18 if w == SHORT else 24),
                  font_weight="bold" if n == 0 else "normal")

    def card_lines(self, e: Entry) -> list[str]:
        c = e.card
        lines = [c["name"], f"id {e.id}"]
        if e.zone == "monster_zone":
            lines.append(f"face-{e.face or 'up'} {'Attack' if e.position == 'attack' else 'Defense'}")
            stats = "?/?" if c.get("atk_unknown") else f"{c.get('atk', '-')}/{c.get('def', '-')}"
            lines.append(f"ATK/DEF {stats}")
        else:
            kind = c.get("spell_type") or c.get("trap_type") or ""
            lines += [f"{c.get('kind', '')} {kind}".strip(), f"face-{e.face or 'up'}"]
            if e.equipped_to:
                lines.append(f"equips {e.equipped_to}")
        if e.owner != e.player:
            lines.append(f"owner {e.owner}")
        if e.id == self.attacker:
            lines.append(f"attacking {self.target}")
        elif e.id == self.target:
            lines.append("attack target")
        if e.id in self.links:
            k, player = self.links[e.id]
            lines.append(f"chain link {k} ({player})")
        return lines

    def row(self, label: str, entries: list[Entry], extra: list[Entry] | None = None) -> None:
        """A row of zones: the label, five cells (cards by their place in the zone list) and, for
        the Spell & Trap row, the Field Zone."""
        _text(self.svg, 6, self.y + CELL / 2, label, font_weight="bold")
        for k in range(ZONES + (extra is not None)):
            x = LABEL + k * CELL
            ET.SubElement(self.svg, "rect", {"x": str(x + 2), "y": str(self.y + 2), "width": str(CELL - 4),
                                             "height": str(CELL - 4), "fill": "none", "stroke": "#bbbbbb",
                                             "stroke-dasharray": "3,3"})
        for e in entries:
            self.card(e, LABEL + min(e.slot, ZONES - 1) * CELL, self.y)
        if extra is not None:
            x = LABEL + ZONES * CELL
            _text(self.svg, x + 6, self.y + CELL - 2, "Field Zone", fill="#666666", font_size=9)
            for e in extra:
                self.card(e, x, self.y)
        self.y += CELL

    def lines(self, lines: list[str], x: float = 6, **attrs: Any) -> None:
        """Lines of text, each wrapped to the picture's width (continuations indented)."""
        for line in lines:
            for part in textwrap.wrap(line, WRAP, subsequent_indent="    ", break_on_hyphens=False) or [""]:
                self.y += LINE
                _text(self.svg, x, self.y, part, **attrs)
        self.y += 4

    # ---- the sides --------------------------------------------------------------------------
    def side(self, p: str, top: bool) -> None:
        g = self.game
        mine = [e for e in g.entries if e.player == p]
        zone = {z: sorted((e for e in mine if e.zone == z), key=lambda e: e.slot) for z in
                ("hand", "extra_deck", "monster_zone", "spell_trap_zone", "field_zone", "graveyard", "banished")}
        who = f"Player {p}{' (turn player)' if p == g.turn_player else ''}: LP {g.life[p]}, Deck {g.deck[p]}"
        piles = [f"{label}: " + (", ".join(f"{e.card['name']} ({e.id})" for e in zone[z]) or "-")
                 for label, z in (("Hand", "hand"), ("Graveyard", "graveyard"), ("Banished", "banished"),
                                  ("Extra Deck", "extra_deck"))]
        if top:
            self.lines([who], font_weight="bold")
            self.lines(piles)
            self.row("Spells & Traps", zone["spell_trap_zone"], zone["field_zone"])
            self.row("Monsters", zone["monster_zone"])
        else:
            self.row("Monsters", zone["monster_zone"])
            self.row("Spells & Traps", zone["spell_trap_zone"], zone["field_zone"])
            self.lines([who], font_weight="bold")
            self.lines(piles)

    def draw(self) -> ET.Element:
        g = self.game
        self.lines([self.heading()], font_size=14, font_weight="bold")
        if g.readings:
            self.lines(["Readings: " + ", ".join(f"{k}={v}" for k, v in sorted(g.readings.items()))])
        for p in [p for p in g.players if p != g.turn_player]:
            self.side(p, top=True)
        ET.SubElement(self.svg, "line", {"x1": "0", "x2": str(WIDTH), "y1": str(self.y + 4), "y2": str(self.y + 4),
                                         "stroke": "#333", "stroke-width": "2"})
        self.y += 8
        self.side(g.turn_player, top=False)
        self.lines(self.notes())
        self.svg.set("height", str(int(self.y + 10)))
        self.svg.set("viewBox", f"0 0 {WIDTH} {int(self.y + 10)}")
        return self.svg

    def notes(self) -> list[str]:
        """The chain, the attack in progress, this turn's events and the applied effects, in words."""
        g = self.game
        out = []
        if g.links:
            out.append("Chain: " + "; ".join(f"link {k}: {g.by_id[c].card['name'] if c in g.by_id else c} ({c}) by {p}"
                                             for k, (c, p, _x) in enumerate(g.links, start=1)))
        else:
            out.append("Chain: empty (open game state)")
        if g.attack:
            out.append(f"Attack in progress: {g.attack['attacker']} -> {g.attack['target']}")
        out.append("This turn:" + ("" if g.events else " nothing yet"))
        out += [f"  {k}. {event_sentence(g, k)}" for k in range(1, len(g.events) + 1)]
        out += [f"Applied effect: {applied_words(e)}" for e in g.effects]
        return out


def board_svg(game: Game) -> ET.Element:
    """The board of a validated snapshot as an SVG element: both sides' zones, each card with its
    name, id, position and face (and ATK/DEF), the attack in progress, the chain, this turn's events."""
    return _Board(game).draw()


def svg_text(game: Game) -> str:
    """board_svg as the text of an .svg file."""
    ET.register_namespace("", SVG_NS)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(board_svg(game), encoding="unicode") + "\n"


# ---- the HTML page of a diff ---------------------------------------------------------------------
_STYLE = """body{font-family:sans-serif;margin:2em;max-width:1000px}section{border-top:2px solid #333;margin-top:2em}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:4px 8px;vertical-align:top;text-align:left}
.permitted{color:#1e7a34;font-weight:bold}.forbidden{color:#b02a1a;font-weight:bold}.source{color:#555;font-size:90%}"""


def _verdict_cells(world: dict) -> tuple[bool, list[tuple[str, str, str]]]:
    """A world's verdict and its reasons (id, sentence, source), from the Verdict Engine.check gave,
    or from the search's model when the snapshot could not be checked."""
    v = world.get("verdict")
    if v is not None:
        return v.permitted, [(r.rule, r.text, r.source) for r in v.reasons]
    permitted, reasons = world["model"]
    return permitted, [(r, "", "") for r in reasons]


def _section(engine, n: int, cx: Any) -> list[str]:
    out = [f'<section class="counterexample" id="counterexample-{n}">',
           f"<h2>Counterexample {n} ({cx.cards} card{'s' * (cx.cards != 1)}, {cx.events} event"
           f"{'s' * (cx.events != 1)}{', minimal' if cx.optimal else ''})</h2>"]
    game = engine.game(cx.snapshot)
    ET.register_namespace("", SVG_NS)
    out.append(ET.tostring(board_svg(game), encoding="unicode"))
    term = cx.action.term() if cx.action is not None else "(the snapshot itself)"
    out.append(f'<p class="action">Action: <code>{html.escape(term)}</code></p>')
    out.append('<table class="verdicts"><tr><th>reading</th><th>verdict</th><th>reasons</th></tr>')
    for label, world in cx.worlds.items():
        readings = ", ".join(f"{k}={v}" for k, v in world["readings"].items()) or html.escape(label)
        permitted, reasons = _verdict_cells(world)
        word = "permitted" if permitted else "forbidden"
        items = "".join(f"<li>{html.escape(text)} <code>{html.escape(rid)}</code>"
                        + (f' <span class="source">({html.escape(src)})</span>' if src else "") + "</li>"
                        for rid, text, src in reasons)
        out.append(f'<tr><td>{html.escape(readings)}</td><td class="{word}">{word.upper()}</td>'
                   f"<td>{f'<ul>{items}</ul>' if items else ''}</td></tr>")
    out.append("</table>")
    out.append(f'<p>Reproduced by <code>pyrules check</code>: {"yes" if cx.reproduced else "NO"}</p></section>')
    return out


def diff_page(engine, title: str, result: Any) -> str:
    """The HTML page of a counterexample search (a SearchResult): each counterexample's board, the
    action, each reading value's verdict and reasons, then the search's summary."""
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
           f"<h1>{html.escape(title)}</h1>"]
    for n, cx in enumerate(result.found, start=1):
        out += _section(engine, n, cx)
    if not result.found:
        out.append("<p>No counterexample.</p>")
    out.append(f'<p class="summary">{html.escape(result.summary())}.</p></body></html>')
    return "\n".join(out) + "\n"
