"""`pyrules play`: deck files read in both forms, bad decks refused naming the file and line,
and a whole duel played from `legal` and `next` alone (every successor valid, every chosen
action listed by `legal`)."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from pyrules import Engine
from pyrules.cli import main
from pyrules.errors import InvalidInput
from pyrules.paths import checkout_root
from pyrules.play import duel, opening, read_deck

ROOT = checkout_root()
DECK_A, DECK_B = ROOT / "facts/decks/normal_a.txt", ROOT / "facts/decks/normal_b.yaml"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


def test_the_bundled_decks_read_as_forty_cards(engine):
    for path in (DECK_A, DECK_B):
        deck = read_deck(path, engine.cards)
        assert len(deck.main) == 40 and deck.extra == []
    assert read_deck(DECK_A, engine.cards).main.count("Battle Ox") == 3


def test_a_text_deck_counts_copies_and_reads_an_extra_deck(engine, tmp_path):
    f = tmp_path / "d.txt"
    f.write_text("# comment\n2x Battle Ox\nMystical Elf  # one copy\n\nextra:\nThousand Dragon\n")
    deck = read_deck(f, engine.cards)
    assert deck.main == ["Battle Ox", "Battle Ox", "Mystical Elf"] and deck.extra == ["Thousand Dragon"]


@pytest.mark.parametrize("text, where", [
    ("Battle Ox\n3 Batle Ox\n", "d.txt:2"),
    ("extra:\nThousand Dragon\n", "d.txt"),
])
def test_a_bad_text_deck_names_the_file_and_line(engine, tmp_path, text, where):
    f = tmp_path / "d.txt"
    f.write_text(text)
    with pytest.raises(InvalidInput) as e:
        read_deck(f, engine.cards)
    assert [p.path.rsplit("/", 1)[-1] for p in e.value.problems] == [where]


@pytest.mark.parametrize("text, where", [
    ("main: [Battle Ox, 3]\n", "d.yaml: main[1]"),
    ("main: [Battle Ox]\nside: []\n", "d.yaml"),
    ("[Battle Ox, Nobody Named This]\n", "d.yaml: main[1]"),
    ("main: [Battle Ox\n", "d.yaml"),
])
def test_a_bad_yaml_deck_names_the_entry(engine, tmp_path, text, where):
    f = tmp_path / "d.yaml"
    f.write_text(text)
    with pytest.raises(InvalidInput) as e:
        read_deck(f, engine.cards)
    assert [p.path.rsplit("/", 1)[-1] for p in e.value.problems] == [where]


def test_the_opening_deals_five_cards_from_a_shuffled_deck(engine):
    a, b = read_deck(DECK_A, engine.cards), read_deck(DECK_B, engine.cards)
    snap = opening(a, b, random.Random(3))
    hand, deck = snap["players"]["A"]["hand"], snap["players"]["A"]["deck"]
    assert len(hand) == 5 and len(deck) == 35
    assert sorted([c["card"] for c in hand] + deck) == sorted(a.main)
    assert [c["id"] for c in hand] == [f"A.hand.{k}" for k in range(1, 6)]
    assert opening(a, b, random.Random(3)) == snap != opening(a, b, random.Random(4))


def test_a_duel_plays_from_legal_and_next_alone(engine):
    """Every action taken is one `legal` listed in the snapshot it was taken in, and every
    snapshot after it is one `next` gave (valid, or next would have raised)."""
    a, b = read_deck(DECK_A, engine.cards), read_deck(DECK_B, engine.cards)
    steps = list(duel(engine, a, b, seed=5, max_actions=150))
    taken = [s for s in steps if s.action is not None]
    assert len(taken) >= 30
    for s in taken[:40]:
        assert s.action in engine.legal(s.snapshot).permitted
    turns = {s.snapshot.get("turn", 1) for s in steps}
    assert max(turns) >= 2, "the duel never reached turn 2"


def test_play_prints_a_log_and_json_lines():
    r = CliRunner().invoke(main, ["play", str(DECK_A), str(DECK_B), "--seed", "2", "--max-actions", "25"])
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) >= 25 and "turn  1 A draw" in lines[0]
    r = CliRunner().invoke(main, ["play", str(DECK_A), str(DECK_B), "--seed", "2", "--max-actions", "5", "--json"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in r.output.strip().splitlines()]
    assert [row["step"] for row in rows] == list(range(1, len(rows) + 1))
    assert rows[0]["action"] and rows[0]["snapshot"]["turn"] == 1


def test_play_refuses_a_bad_deck_with_status_2(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("Nobody Named This\n")
    r = CliRunner().invoke(main, ["play", str(f), str(DECK_B)])
    assert r.exit_code == 2 and "bad.txt:1" in r.output
