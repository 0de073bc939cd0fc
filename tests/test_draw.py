"""Boards as pictures (pyrules/draw.py): `pyrules show --svg` and `pyrules diff --html`, tested by
parsing what they write (xml.etree for the SVG, html.parser for the page)."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
import yaml
from click.testing import CliRunner

from pyrules import Engine
from pyrules.cli import main
from pyrules.draw import SVG_NS, board_svg, diff_page
from pyrules.search import Scope, SearchResult

S = f"{{{SVG_NS}}}"
BOARD = {
    "snapshot": 1, "turn": 3, "turn_player": "A", "phase": "battle", "battle_step": "damage", "chain": ["mf"],
    "players": {
        "A": {"hand": [{"id": "h1", "card": "Dark Magician"}],
              "monsters": [{"id": "tss", "card": "Toon Summoned Skull", "position": "attack"},
                           {"id": "ox", "card": "Battle Ox", "position": "defense", "face": "down"}],
              "spells_traps": [{"id": "tw", "card": "Toon World", "face": "up"}],
              "graveyard": [{"id": "g1", "card": "Man-Eater Bug"}]},
        "B": {"monsters": [{"id": "elf", "card": "Mystical Elf", "position": "defense"}],
              "spells_traps": [{"id": "mf", "card": "Mirror Force", "face": "up"}],
              "field_spell": {"id": "umi", "card": "Umi", "face": "up"}}},
    "attack": {"attacker": "tss", "target": "elf", "targets_at_declaration": ["elf"]},
    "this_turn": [{"event": "attack", "card": "tss", "target": "elf"}],
}


def _cards(root: ET.Element) -> dict[str, dict]:
    """Each card group of the picture: its data attributes and its lines of text."""
    return {g.get("data-id"): {**g.attrib, "lines": [t.text for t in g.iter(f"{S}text")],
                               "title": g.find(f"{S}title").text}
            for g in root.iter(f"{S}g") if g.get("class") == "card"}


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{S}text")]


def test_show_svg_draws_both_sides_with_positions_attack_and_chain(tmp_path):
    snap, out = tmp_path / "board.yaml", tmp_path / "board.svg"
    snap.write_text(yaml.safe_dump(BOARD))
    r = CliRunner().invoke(main, ["show", str(snap), "--svg", str(out), "--no-actions"])
    assert r.exit_code == 0, r.output
    assert "Turn 3" in r.output                            # the terminal picture as well
    root = ET.parse(out).getroot()
    assert root.tag == f"{S}svg" and root.get("viewBox")
    cards = _cards(root)
    assert set(cards) == {"tss", "ox", "tw", "elf", "mf", "umi"}      # the field of both sides; hand and
    names = {i: c["data-name"] for i, c in cards.items()}           # Graveyard are listed in words
    assert names == {"tss": "Toon Summoned Skull", "ox": "Battle Ox", "tw": "Toon World", "elf": "Mystical Elf",
                     "mf": "Mirror Force", "umi": "Umi"}
    assert all(c["title"].startswith(c["data-name"]) for c in cards.values())
    assert (cards["tss"]["data-position"], cards["tss"]["data-face"]) == ("attack", "up")
    assert (cards["ox"]["data-position"], cards["ox"]["data-face"]) == ("defense", "down")
    assert "face-up Attack" in cards["tss"]["lines"] and "face-down Defense" in cards["ox"]["lines"]
    assert "face-up Defense" in cards["elf"]["lines"]
    assert "ATK/DEF 2500/1200" in cards["tss"]["lines"] and "ATK/DEF 800/2000" in cards["elf"]["lines"]
    assert "attacking elf" in cards["tss"]["lines"] and "attack target" in cards["elf"]["lines"]
    assert "chain link 1 (B)" in cards["mf"]["lines"]
    texts = _texts(root)
    assert "Chain: link 1: Mirror Force (mf) by B" in texts
    assert "Attack in progress: tss -> elf" in texts
    assert "Player A (turn player): LP 8000, Deck 30" in texts and "Player B: LP 8000, Deck 30" in texts
    assert "Hand: Dark Magician (h1)" in texts and "Graveyard: Man-Eater Bug (g1)" in texts
    # the upright card (Attack Position) is taller than wide, the sideways one (Defense Position) wider
    rects = {g.get("data-id"): g.find(f"{S}rect") for g in root.iter(f"{S}g") if g.get("class") == "card"}
    assert float(rects["tss"].get("height")) > float(rects["tss"].get("width"))
    assert float(rects["ox"].get("width")) > float(rects["ox"].get("height"))
    # the opponent's side is drawn above the turn player's
    assert float(rects["elf"].get("y")) < float(rects["tss"].get("y"))


def test_show_svg_to_standard_output_and_a_bad_file(tmp_path):
    snap = tmp_path / "board.yaml"
    snap.write_text(yaml.safe_dump(BOARD))
    r = CliRunner().invoke(main, ["show", str(snap), "--svg", "-"])
    assert r.exit_code == 0
    assert set(_cards(ET.fromstring(r.output.split("\n", 1)[1]))) >= {"tss", "mf"}
    r = CliRunner().invoke(main, ["show", str(snap), "--svg", str(tmp_path / "no" / "such" / "dir.svg")])
    assert r.exit_code == 2 and "--svg" in r.output


class _Page(HTMLParser):
    """The page read back: its sections, each with its text and the number of SVG pictures in it."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[dict] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.sections.append({"id": a.get("id"), "text": [], "svg": 0, "cards": []})
        elif self.sections and tag == "svg":
            self.sections[-1]["svg"] += 1
        elif self.sections and tag == "g" and a.get("class") == "card":
            self.sections[-1]["cards"].append((a.get("data-name"), a.get("data-position"), a.get("data-face")))

    def handle_data(self, data):
        if data.strip():
            self.text.append(data.strip())
            if self.sections:
                self.sections[-1]["text"].append(data.strip())


def test_diff_html_shows_each_counterexample_board_verdicts_and_reasons(tmp_path):
    out = tmp_path / "diff.html"
    r = CliRunner().invoke(main, ["diff", "position_change_limit", "--count", "2", "--html", str(out)])
    assert r.exit_code == 0, r.output
    page = _Page()
    page.feed(out.read_text())
    assert page.text[0] == "pyrules diff position_change_limit: manual_only vs any_change"
    assert [s["id"] for s in page.sections] == ["counterexample-1", "counterexample-2"]
    actions = set()
    for s in page.sections:
        assert s["svg"] == 1
        assert s["cards"] and all(name == "Battle Ox" for name, _, _ in s["cards"])
        text = " ".join(s["text"])
        assert "position_change_limit=manual_only PERMITTED" in text
        assert "position_change_limit=any_change FORBIDDEN" in text
        assert "already_changed_this_turn" in text and "battle-position-changes: Exception #3" in text
        assert "had its battle position changed by a card effect" in text     # the event, in words
        actions |= {t for t in s["text"] if t.startswith(("flip_summon(", "change_position("))}
    assert "flip_summon(battle_ox)" in actions and len(actions) == 2      # and a change by hand, to either position
    assert actions & {"change_position(battle_ox,attack)", "change_position(battle_ox,defense)"}
    faces = {s["cards"][0][2] for s in page.sections}
    assert faces == {"up", "down"}                          # the Flip Summon's monster is face-down
    assert any("found within scope" in t for t in page.text)


def test_diff_page_without_a_counterexample():
    engine = Engine()
    result = SearchResult([], True, Scope(), 0.1, ("Battle Ox",), "diff x")
    page = _Page()
    page.feed(diff_page(engine, "pyrules diff x: a vs b", result))
    assert page.sections == [] and "No counterexample." in page.text
    assert any("the scope was exhausted" in t for t in page.text)


@pytest.mark.parametrize("face", ["up", "down"])
def test_board_svg_of_a_small_game(face):
    engine = Engine()
    game = engine.game({"snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
                        "players": {"A": {"monsters": [{"id": "x", "card": "Battle Ox", "position": "defense",
                                                        "face": face}]}, "B": {}}})
    root = ET.fromstring(ET.tostring(board_svg(game)))        # as a file carries it (xmlns: SVG)
    cards = _cards(root)
    assert cards["x"]["data-face"] == face and f"face-{face} Defense" in cards["x"]["lines"]
    assert "Chain: empty (open game state)" in _texts(root)
