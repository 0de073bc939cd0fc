"""`pyrules cards import`, load_card_pool and --cards: YGOPro cards.cdb, YGOPRODeck JSON, YAML."""
from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import GOAT, shared_absent     # ../shared/data/goat-format-en.cdb, or under PYRULES_SHARED
from pyrules import Engine
from pyrules.cards import OVERLAY_KEYS, rulings_cards
from pyrules.cli import main
from pyrules.errors import InvalidInput
from pyrules.effects import card_entries
from pyrules.importers import import_cards, load_card_pool, load_overlay

ROOT = Path(__file__).resolve().parent.parent

# (id, alias, type, atk, def, level, race, attribute, name)
ROWS = [
    (5053103, 0, 0x11, 1700, 1000, 4, 0x8000, 0x1, "Battle Ox"),
    (70781052, 0, 0x11, 2500, 1200, 6, 0x8, 0x20, "Summoned Skull"),
    (70781053, 70781052, 0x11, 2500, 1200, 6, 0x8, 0x20, "Summoned Skull"),      # alternate artwork
    (52077741, 0, 0x2000021, 2200, 2800, 7, 0x8, 0x20, "Dark Necrofear"),
    (73915052, 0, 0x4011, 0, 0, 1, 0x4000, 0x1, "Sheep Token"),
    (83764718, 0, 0x2, 0, 0, 0, 0, 0, "Monster Reborn"),
    (22702055, 0, 0x80002, 0, 0, 0, 0, 0, "Umi"),
    (44095762, 0, 0x4, 0, 0, 0, 0, 0, "Mirror Force"),
    (15629802, 0, 0x21, -2, -2, 3, 0x1, 0x10, "Question Mark"),
    (3643300, 0, 0x21, 1000, 1000, 4, 0x20, 0x1, "The Legendary Fisherman"),
    (1, 0, 0x800021, 2000, 2000, 4, 0x1, 0x1, "Some Xyz"),                      # no schema flag for Xyz
]


def make_cdb(path: Path, rows=ROWS, tables=("datas", "texts")) -> Path:
    con = sqlite3.connect(path)
    if "datas" in tables:
        con.execute("CREATE TABLE datas(id integer primary key,ot integer,alias integer,setcode integer,"
                    "type integer,atk integer,def integer,level integer,race integer,attribute integer,"
                    "category integer)")
    if "texts" in tables:
        con.execute("CREATE TABLE texts(id integer primary key,name text,desc text)")
    for r in rows:
        if "datas" in tables:
            con.execute("INSERT INTO datas VALUES (?,3,?,0,?,?,?,?,?,?,0)", r[:8])
        if "texts" in tables:
            con.execute("INSERT INTO texts VALUES (?,?,'')", (r[0], r[8]))
    con.commit()
    con.close()
    return path


YGOPRODECK = {"data": [
    {"id": 70781052, "name": "Summoned Skull", "type": "Normal Monster", "frameType": "normal", "desc": "...",
     "atk": 2500, "def": 1200, "level": 6, "race": "Fiend", "attribute": "DARK"},
    {"id": 52077741, "name": "Dark Necrofear", "type": "Effect Monster", "frameType": "effect",
     "desc": "Cannot be Normal Summoned/Set. Must first be Special Summoned ...", "atk": 2200, "def": 2800,
     "level": 7, "race": "Fiend", "attribute": "DARK"},
    {"id": 63977008, "name": "Junk Synchron", "type": "Tuner Monster", "frameType": "effect", "desc": "...",
     "atk": 1300, "def": 500, "level": 3, "race": "Warrior", "attribute": "DARK"},
    {"id": 60800381, "name": "Junk Warrior", "type": "Synchro Monster", "frameType": "synchro", "desc": "...",
     "atk": 2300, "def": 1300, "level": 5, "race": "Warrior", "attribute": "DARK"},
    {"id": 22702055, "name": "Umi", "type": "Spell Card", "frameType": "spell", "desc": "...", "race": "Field"},
    {"id": 62279055, "name": "Magic Cylinder", "type": "Trap Card", "frameType": "trap", "desc": "...",
     "race": "Normal"},
    {"id": 1, "name": "Some Link", "type": "Link Monster", "frameType": "link", "desc": "...", "atk": 1000,
     "race": "Cyberse", "attribute": "DARK"},
]}


def by_name(cards):
    return {c["name"]: c for c in cards}


def test_cdb_flags_and_aliases(tmp_path):
    res = import_cards(make_cdb(tmp_path / "cards.cdb"))
    cards = by_name(res.cards)
    assert res.skipped_aliases == 1 and len(cards) == 9
    assert [c["name"] for c in res.cards].count("Summoned Skull") == 1
    assert cards["Summoned Skull"] == {"name": "Summoned Skull", "passcode": 70781052, "kind": "monster",
                                       "level": 6, "attribute": "DARK", "type": "Fiend", "atk": 2500,
                                       "def": 1200, "normal": True, "source": "cards.cdb"}
    assert cards["Dark Necrofear"]["special_summon_only"] is True
    assert cards["Sheep Token"]["token"] and cards["Sheep Token"]["type"] == "Beast"
    assert cards["Umi"]["spell_type"] == "field" and "level" not in cards["Umi"]
    assert cards["Mirror Force"] == {"name": "Mirror Force", "passcode": 44095762, "kind": "trap",
                                     "trap_type": "normal", "source": "cards.cdb",
                                     "effects": [{"effect": "answers_attack", "by": "opponent"},
                                                 {"effect": "destroys_monsters"}]}   # the overlay's
    assert cards["Question Mark"]["atk_unknown"] and "atk" not in cards["Question Mark"]
    assert res.skipped_unsupported == ["Some Xyz: xyz frame"]
    # the overlay adds what no database holds
    assert cards["The Legendary Fisherman"]["effects"] == [{"effect": "cannot_be_attack_target",
                                                            "while": {"face_up_card": "Umi"}},
                                                           {"effect": "unaffected_by_spells",
                                                            "while": {"face_up_card": "Umi"}}]
    # (the overlay's entries, as curated: the revival restriction among them)
    assert cards["Dark Necrofear"]["effects"] == load_overlay()["Dark Necrofear"]["effects"]
    assert {"effect": "special_summon_restriction", "how": "proper_summon_first"} in cards["Dark Necrofear"]["effects"]


def test_ygoprodeck_json(tmp_path):
    path = tmp_path / "cardinfo.json"
    path.write_text(json.dumps(YGOPRODECK))
    cards = by_name(import_cards(path).cards)
    assert cards["Junk Synchron"]["tuner"] and cards["Junk Synchron"]["effect"] and "normal" not in cards["Junk Synchron"]
    assert cards["Junk Warrior"]["synchro"] and \
        cards["Junk Warrior"]["effects"] == [{"effect": "synchro_tuner", "name": "Junk Synchron"}]
    assert cards["Dark Necrofear"]["special_summon_only"] is True
    assert cards["Umi"] == {"name": "Umi", "passcode": 22702055, "kind": "spell", "spell_type": "field",
                            "source": "cardinfo.json"}
    assert cards["Magic Cylinder"]["trap_type"] == "normal"
    assert "Some Link" not in cards


def canonical(entries):
    return sorted(json.dumps(e, sort_keys=True) for e in entries)


def test_overlay_keys_are_the_curated_ones():
    overlay = load_overlay()
    assert set(OVERLAY_KEYS) >= {k for props in overlay.values() for k in props}
    bundled = by_name(yaml.safe_load((ROOT / "facts" / "cards.yaml").read_text()))
    rulings = by_name(rulings_cards())
    for name, props in overlay.items():
        assert props.get("effects") or props.get("unmodelled") or props.get("no_bearing"), name
        if name in bundled:
            # one definition per card: the overlay's effects, none in facts/cards.yaml
            assert "effects" not in bundled[name] or "effects" not in props, name
            assert rulings[name].get("effects") == props.get("effects", bundled[name].get("effects")), name
            assert bundled[name].get("special_summon_only") == props.get("special_summon_only"), name


def test_a_rulings_card_takes_its_effects_from_the_overlay_and_defines_them_once():
    """facts/cards.yaml's "Dark Necrofear" gives no effects: the overlay's are its effects; a rulings'
    card that gave effects of its own besides the overlay's would be defined twice: invalid input."""
    bundled = by_name(yaml.safe_load((ROOT / "facts" / "cards.yaml").read_text()))
    assert "effects" not in bundled["Dark Necrofear"]
    assert by_name(rulings_cards())["Dark Necrofear"]["effects"] == load_overlay()["Dark Necrofear"]["effects"]
    with pytest.raises(InvalidInput, match=r"cards.yaml: Jinzo #7.effects: its effects are curated in the overlay"):
        rulings_cards({"Jinzo #7": {"effects": [{"effect": "can_attack_directly"}], "note": "card text"}})


RETIRED = "a retired card key: write the effect instead, effects: "


def test_an_overlay_refuses_the_retired_card_keys(tmp_path):
    """The older card keys (attack_lock, ...) are retired: an overlay entry giving one is invalid
    input naming the field and the effect entry to write instead; the effect form is read as given."""
    old = tmp_path / "overlay.yaml"
    old.write_text("Gravity Bind: {attack_lock: {side: both, min_level: 4}, note: card text}\n"
                   "Umi: {colour: blue}\n")
    with pytest.raises(InvalidInput) as e:
        load_overlay(old)
    problems = [(p.path, p.message) for p in e.value.problems]
    assert [p for p in problems if "Gravity Bind" in p[0]] == [
        ("overlay.yaml: Gravity Bind.attack_lock",
         RETIRED + "[{effect: cannot_attack, to: {side: opponent|both, level_min: N}}] (pyrules effects)")]
    assert ("overlay.yaml: Umi.colour", "not an overlay key (effects, note, unmodelled, no_bearing, "
                                        "special_summon_only)") in problems
    old.write_text("Gravity Bind: {effects: [{effect: cannot_attack, to: {side: both, level_min: 4}}], note: card text}\n")
    assert load_overlay(old) == {"Gravity Bind": {
        "note": "card text", "effects": [{"effect": "cannot_attack", "to": {"side": "both", "level_min": 4}}]}}


def test_a_card_pool_or_snapshot_with_a_retired_card_key_is_invalid_input(tmp_path):
    """A card of a pool (--cards) or inline in a snapshot that still gives a retired key exits 2,
    naming the field and the effect to write instead (not a card silently without the effect)."""
    pool = tmp_path / "pool.yaml"
    pool.write_text("- {name: Old Lock, kind: trap, trap_type: continuous, attack_lock: {side: opponent}}\n")
    snap = tmp_path / "snap.yaml"
    snap.write_text(SNAP)
    r = CliRunner().invoke(main, ["check", str(snap), "draw", "--cards", str(pool)])
    assert r.exit_code == 2 and "pool.yaml[0].attack_lock: " + RETIRED + "[{effect: cannot_attack" in r.output
    inline = {"snapshot": 1, "players": {"A": {"monsters": [{"id": "j", "position": "attack", "card": {
        "name": "Old Jinzo", "kind": "monster", "level": 2, "can_attack_directly": True}}]}, "B": {}}}
    snap.write_text(json.dumps(inline))
    r = CliRunner().invoke(main, ["check", str(snap), "draw"])
    assert r.exit_code == 2
    assert "players.A.monsters[0].card.can_attack_directly: " + RETIRED + "[{effect: can_attack_directly}]" in r.output
    inline["players"]["A"]["monsters"][0]["can_attack_directly"] = True      # not a card key: not a card's message
    snap.write_text(json.dumps(inline))
    r = CliRunner().invoke(main, ["check", str(snap), "draw"])
    assert "players.A.monsters[0].can_attack_directly: unknown key" in r.output


def test_effects_come_from_texts_and_the_overlay_wins(tmp_path):
    items = [{"id": 77585513, "name": "Jinzo #7", "type": "Effect Monster", "frameType": "effect", "level": 2,
              "atk": 500, "def": 400, "race": "Machine", "attribute": "DARK",
              "desc": "This monster can attack your opponent's Life Points directly."},
             {"id": 2, "name": "Made Up", "type": "Effect Monster", "frameType": "effect", "level": 4,
              "atk": 1, "def": 1, "race": "Machine", "attribute": "DARK",
              "desc": "Cannot be Normal Summoned/Set. This card cannot declare an attack unless there are 3 or more "
                      "Spell Cards in your Graveyard. Level 4 or higher monsters cannot attack."},
             {"id": 3, "name": "Curated", "type": "Effect Monster", "frameType": "effect", "level": 4,
              "atk": 1, "def": 1, "race": "Machine", "attribute": "DARK",
              "desc": "This card cannot attack unless you pay 500 Life Points."}]
    path = tmp_path / "cardinfo.json"
    path.write_text(json.dumps({"data": items}))
    res = import_cards(path, overlay={"Curated": {"effects": [{"effect": "cannot_attack"}], "note": "made up"}})
    cards = by_name(res.cards)
    assert cards["Jinzo #7"]["effects"] == [{"effect": "can_attack_directly"}] and "unmodelled" not in cards["Jinzo #7"]
    made = cards["Made Up"]
    assert made["special_summon_only"] is True
    assert made["effects"] == [{"effect": "cannot_attack", "to": {"side": "both", "level_min": 4}}]
    assert made["unmodelled"] == "its text on attacks is not modelled (1 sentence no pattern reads)"
    assert cards["Curated"]["effects"] == [{"effect": "cannot_attack"}] and "unmodelled" not in cards["Curated"]
    assert res.audit["Made Up"] == {"speaks_of": ["Summons", "attacks"], "read_by": [
        "cannot_be_normal_summoned_or_set", "level_or_higher_cannot_attack"],
        "derived": made["effects"], "unmodelled": made["unmodelled"]}
    assert res.audit["Curated"]["curated"] == [{"effect": "cannot_attack"}]
    assert "desc" not in str(res.cards) and "Life Points" not in str(res.cards)     # facts, not texts


@pytest.mark.parametrize("make, message", [
    (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x07" * 200), "not a readable card database"),
    (lambda p: p.write_text("not a database at all"), "not a SQLite database"),
    (lambda p: make_cdb(p, tables=("datas",)), "missing table(s) texts"),
])
def test_bad_cdb_files(tmp_path, make, message):
    path = tmp_path / "bad.cdb"
    make(path)
    with pytest.raises(InvalidInput, match=message.replace("(", r"\(").replace(")", r"\)")):
        import_cards(path)
    result = CliRunner().invoke(main, ["cards", "import", str(path)])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("rows, message", [
    ([(5053103, 0, 0x11, 1700, 1000, -7, 0x8000, 0x1, "Battle Ox")], "cards.cdb[0].level: must be at least 0; got -7"),
    ([*ROWS, (5053104, 0, 0x11, 1800, 1000, 4, 0x8000, 0x1, "Battle Ox")],
     "cards.cdb: Battle Ox: two cards have this name (passcodes 5053103 and 5053104)"),
])
def test_cdb_rows_that_cannot_be_one_card(tmp_path, rows, message):
    path = make_cdb(tmp_path / "cards.cdb", rows)
    result = CliRunner().invoke(main, ["cards", "import", str(path)])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output, result.output
    assert "249" not in result.output                   # the value as the file gives it, not its low byte
    with pytest.raises(InvalidInput):
        Engine(cards=path)


def test_same_name_tokens_of_a_cdb_are_one_card(tmp_path):
    rows = [*ROWS, (73915053, 0, 0x4011, 0, 0, 1, 0x4000, 0x1, "Sheep Token")]   # as the Goat cdb's Ojama Tokens
    res = import_cards(make_cdb(tmp_path / "cards.cdb", rows))
    assert [c["passcode"] for c in res.cards if c["name"] == "Sheep Token"] == [73915052, 73915053]
    assert res.db()["Sheep Token"]["token"]


@pytest.mark.skipif(not GOAT.is_file(), reason=shared_absent(GOAT))
def test_same_name_tokens_keep_the_first_rows_facts_as_the_bundled_pool_does(tmp_path):
    # the Goat cdb's two "Soul Token" rows differ in Type and Attribute: --cards once kept the last
    # row's facts where the bundled pool keeps the first's
    rows = [*ROWS, (73915053, 0, 0x4011, 0, 0, 1, 0x8, 0x20, "Sheep Token")]   # a Fiend, DARK second row
    res = import_cards(make_cdb(tmp_path / "cards.cdb", rows))
    first = res.db()["Sheep Token"]
    assert first["passcode"] == 73915052 and first["type"] == "Beast" and first["attribute"] == "EARTH"
    goat = import_cards(GOAT)
    soul = [c for c in goat.cards if c["name"] == "Soul Token"]
    assert len(soul) == 2 and soul[0].get("attribute") != soul[1].get("attribute")     # (none, DARK)
    facts = [{k: card.get(k) for k in ("passcode", "type", "attribute")}
             for card in (goat.db()["Soul Token"], Engine().cards["Soul Token"], soul[0])]
    assert facts[0] == facts[1] == facts[2]


@pytest.mark.parametrize("text, message", [
    ('{"data": {"name": "x"}}', "not a YGOPRODeck card-info file"),
    ('{"data": [{"id": 1}]}', "needs a name and a type"),
    ('{"cards": 3}', "expected a YGOPRODeck file"),
    ('{"data": [', "not valid JSON"),
    ('{"data": []}', "holds no card"),
])
def test_bad_json_files(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    result = CliRunner().invoke(main, ["cards", "import", str(path)])
    assert result.exit_code == 2 and message in result.output


def test_cli_import_writes_the_card_schema(tmp_path):
    out = tmp_path / "pool.yaml"
    result = CliRunner().invoke(main, ["cards", "import", str(make_cdb(tmp_path / "cards.cdb")), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "imported 9 cards" in result.output and "1 alternate artworks skipped" in result.output
    assert len(load_card_pool(out)) == 9          # the written YAML is itself a card pool


SNAP = """
snapshot: 1
players:
  A:
    hand: [{id: skull, card: Summoned Skull}, {id: necro, card: Dark Necrofear}]
    monsters: [{id: fish, card: The Legendary Fisherman, position: attack}]
  B: {}
"""


@pytest.mark.parametrize("kind", ["cdb", "json", "yaml"])
def test_cards_option_takes_every_format(tmp_path, kind):
    cdb = make_cdb(tmp_path / "cards.cdb")
    if kind == "json":
        pool = tmp_path / "cardinfo.json"
        pool.write_text(json.dumps(YGOPRODECK))
    elif kind == "yaml":
        pool = tmp_path / "pool.yaml"
        CliRunner().invoke(main, ["cards", "import", str(cdb), "-o", str(pool)])
    else:
        pool = cdb
    snap = tmp_path / "snap.yaml"
    snap.write_text(SNAP)
    runner = CliRunner()
    ok = runner.invoke(main, ["check", str(snap), "normal_summon(skull,[fish])", "--cards", str(pool)])
    assert ok.exit_code == 0, ok.output
    no = runner.invoke(main, ["check", str(snap), "normal_summon(necro,[])", "--cards", str(pool), "--json"])
    assert no.exit_code == 1 and "special_summon_only" in no.output
    engine = Engine(cards=pool)
    assert engine.check(SNAP, "normal_summon(skull,[fish])").permitted


def test_engine_pool_alone(tmp_path):
    engine = Engine(cards=make_cdb(tmp_path / "cards.cdb"), extra_cards=False)
    assert "Battle Ox" in engine.cards and "Junk Warrior" not in engine.cards


COMPARED = ["kind", "level", "atk", "def", "atk_unknown", "attribute", "type", "spell_type", "trap_type",
            "normal", "effect", "fusion", "ritual", "synchro", "tuner", "token", "flip", "toon", "spirit",
            "special_summon_only", "trap_monster", "union", "gemini"]


@pytest.mark.skipif(not GOAT.is_file(), reason=shared_absent(GOAT))
def test_real_goat_database(capsys):
    start = time.perf_counter()
    res = import_cards(GOAT)
    took = time.perf_counter() - start
    assert len(res.cards) == 1788 and res.skipped_aliases == 105 and not res.skipped_unsupported
    assert len(res.db()) == 1784       # three token names are shared by several passcodes
    imported = {}
    for c in res.cards:
        imported.setdefault(c["name"], c)
    bundled = [c for c in rulings_cards() if c.get("source") == "goat-format-en.cdb"]
    assert len(bundled) > 100
    for card in bundled:
        got = imported[card["name"]]
        assert {k: got.get(k) for k in COMPARED} == {k: card.get(k) for k in COMPARED}, card["name"]
        assert canonical(card_entries(got)) == canonical(card_entries(card)), card["name"]
    with capsys.disabled():
        print(f"\n[goat-format-en.cdb: {len(res.cards)} cards imported in {took:.3f}s]")


def test_cards_option_with_a_bad_file(tmp_path):
    bad = tmp_path / "broken.cdb"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x01" * 100)
    snap = tmp_path / "snap.yaml"
    snap.write_text(SNAP)
    r = CliRunner().invoke(main, ["check", str(snap), "draw", "--cards", str(bad)])
    assert r.exit_code == 2 and "not a readable card database" in r.output
    with pytest.raises(InvalidInput):
        Engine(cards=bad)


def test_archetypes_come_from_the_setcode_or_the_archetype_field(tmp_path):
    """A cdb's setcode (up to four 16-bit codes; a sub-archetype's high bits ignored) names the archetypes
    SETCODE_ARCHETYPES lists, nothing for the others; YGOPRODeck's `archetype` is one name."""
    from pyrules.importers import cdb_archetypes
    assert cdb_archetypes(0x45) == ["Archfiend"] and cdb_archetypes(0) == []
    assert cdb_archetypes(0x450062) == ["Toon", "Archfiend"]       # "Toon Summoned Skull": Toon + Archfiend
    assert cdb_archetypes(0x450010) == ["Archfiend"]               # 0x10 is not listed: nothing for it
    assert cdb_archetypes(0x1045 | 0x4 << 16) == ["Archfiend", "Amazoness"]
    path = make_cdb(tmp_path / "cards.cdb")
    con = sqlite3.connect(path)
    con.execute("UPDATE datas SET setcode = 69 WHERE id = 70781052")
    con.commit()
    con.close()
    cards = by_name(import_cards(path).cards)
    assert cards["Summoned Skull"]["archetypes"] == ["Archfiend"] and list(cards["Summoned Skull"])[-1] == "source"
    assert "archetypes" not in cards["Battle Ox"]
    deck = {"data": [dict(YGOPRODECK["data"][0], archetype="Archfiend"), YGOPRODECK["data"][1]]}
    json_path = tmp_path / "cardinfo.json"
    json_path.write_text(json.dumps(deck))
    cards = by_name(import_cards(json_path).cards)
    assert cards["Summoned Skull"]["archetypes"] == ["Archfiend"] and "archetypes" not in cards["Dark Necrofear"]
