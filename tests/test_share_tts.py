"""Tabletop Simulator export: the documented saved-object shape, card ids, sheet limits, RGB images."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from cardsmith.share.images import read_manifest
from cardsmith.share.tts import PER_SHEET, export_tts, grid
from cardsmith.sets.model import Deck, frozen_map
from cardsmith.sets.validate import load_set
from share_fixture import fake_render, make_set


def _big_set(root: Path, n: int) -> Path:
    set_dir, _ = make_set(root)
    lines = ["defaults: {type: ship, race: chain, class: fighter, attack: 1, armour: 2}", "cards:"]
    lines += [f"  - {{id: drone-{i:03d}, name: Drone {i}}}" for i in range(n)]
    (set_dir / "drones.yaml").write_text("\n".join(lines) + "\n")
    return set_dir


def _check_saved_object(data: dict, sheets_dir: Path) -> None:
    """Every documented rule: keys, CardID = N*100+index within the sheet's grid, ids matching DeckIDs."""
    assert isinstance(data["ObjectStates"], list) and data["ObjectStates"]
    for obj in data["ObjectStates"]:
        assert obj["Name"] in ("DeckCustom", "Card")
        assert set(obj["Transform"]) >= {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
        cards = obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]
        if obj["Name"] == "DeckCustom":
            assert obj["DeckIDs"] == [c["CardID"] for c in cards]
        for card in cards:
            assert card["Name"] == "Card" and card["Nickname"]
            number, index = divmod(card["CardID"], 100)
            entry = card["CustomDeck"][str(number)]
            assert entry == (obj["CustomDeck"][str(number)] if obj["Name"] == "DeckCustom" else entry)
            assert 1 <= entry["NumWidth"] <= 10 and 1 <= entry["NumHeight"] <= 7
            assert 0 <= index < entry["NumWidth"] * entry["NumHeight"]  # BackIsHidden: every slot may hold a card
            assert entry["Type"] == 0 and entry["BackIsHidden"] is True and entry["UniqueBack"] is False
            for key in ("FaceURL", "BackURL"):
                assert entry[key].startswith("file:///")
                image = Path(entry[key][len("file://"):])
                assert image.parent == sheets_dir and image.is_file()


def test_grid_uses_all_seventy_slots_and_fits_ten_by_seven():
    assert PER_SHEET == 70
    assert grid(70) == (10, 7) and grid(1) == (2, 2) and grid(9) == (9, 2) and grid(3) == (3, 2)
    for n in range(1, PER_SHEET + 1):
        cols, rows = grid(n)
        assert cols <= 10 and rows <= 7 and n <= cols * rows
    with pytest.raises(ValueError):
        grid(71)


@pytest.mark.parametrize("total,per_sheet", [(70, [70]), (71, [70, 1])])
def test_a_pile_of_seventy_fills_one_sheet_and_sheets_of_one_back_share_one_back_image(tmp_path, total, per_sheet):
    base = len([c for c in make_set(tmp_path / "probe")[1].cards if c.type == "ship"])  # ships print with the fleet back
    cs = load_set(_big_set(tmp_path, total - base))
    out = fake_render(tmp_path / "output" / "mini", cs, dpi=30)
    result = export_tts(cs, read_manifest(out), out / "tts")
    fleet = [s for s in result.sheets if s.back == "fleet"]
    assert [len(s.card_ids) for s in fleet] == per_sheet
    assert len({s.back_file for s in fleet}) == 1  # a lone card on a second sheet has the same back as the rest
    assert len({s.size[0] // s.cols for s in fleet}) == 1


def test_whole_set_export_matches_the_documented_shape(tmp_path):
    set_dir, cs = make_set(tmp_path)
    out = fake_render(tmp_path / "output" / "mini", cs, dpi=100)
    result = export_tts(cs, read_manifest(out), out / "tts")
    data = json.loads(result.json_file.read_text())
    _check_saved_object(data, out / "tts")
    decks = {o["Nickname"]: o for o in data["ObjectStates"]}
    assert set(decks) == {"Ship", "Event"}
    ships = decks["Ship"]
    assert len(ships["DeckIDs"]) == 5  # the broadsword has two copies
    names = [c["Nickname"] for c in ships["ContainedObjects"]]
    assert names.count("TCS-40 Broadsword") == 2
    rapier = next(c for c in ships["ContainedObjects"] if c["Nickname"] == "TCS-13 Rapier")
    assert "Shield 3" in rapier["Description"] and "Interceptor of the home fleet." in rapier["Description"]
    # Ships print with the "fleet" back, events with none: two sheets, each with its own back.
    assert len(result.sheets) == 2 and {s.back for s in result.sheets} == {"fleet", None}


def test_sheets_are_rgb_within_4096_and_faces_land_in_their_slots(tmp_path):
    set_dir = _big_set(tmp_path, 150)
    cs = load_set(set_dir)
    out = fake_render(tmp_path / "output" / "mini", cs, dpi=60)
    result = export_tts(cs, read_manifest(out), out / "tts")
    assert all(len(s.card_ids) <= PER_SHEET for s in result.sheets)
    assert sum(len(s.card_ids) for s in result.sheets) == len(cs.cards)
    for sheet in result.sheets:
        with Image.open(sheet.face_file) as im:
            assert im.mode == "RGB" and im.width <= 4096 and im.height <= 4096
            assert im.size == (sheet.size[0], sheet.size[1])
            w, h = im.width // sheet.cols, im.height // sheet.rows
            # The card in slot i is drawn in row-major cell i: sample its centre for the card's colour.
            for i, cid in enumerate(sheet.card_ids):
                r, g, b = im.getpixel(((i % sheet.cols) * w + w // 2, (i // sheet.cols) * h + h // 3))
                race = cs.card(cid).race
                if race == "chain":
                    assert r > 150 and g < 100, (cid, (r, g, b))
                elif race == "terracorp":
                    assert b > 150 and r < 100, (cid, (r, g, b))
        with Image.open(sheet.back_file) as back:
            assert back.mode == "RGB" and back.size == (w, h)
    _check_saved_object(json.loads(result.json_file.read_text()), out / "tts")


def test_full_resolution_sheet_stays_under_4096(tmp_path):
    set_dir = _big_set(tmp_path, 69)
    cs = load_set(set_dir)
    out = fake_render(tmp_path / "output" / "mini", cs, dpi=170)  # trim 425 px wide: more than 4096 / 10
    result = export_tts(cs, read_manifest(out), out / "tts")
    big = max(result.sheets, key=lambda s: len(s.card_ids))
    assert (big.cols, big.rows) == (10, 7)
    with Image.open(big.face_file) as im:
        assert im.width <= 4096 and im.height <= 4096 and im.width >= 4000  # not needlessly small


def test_deck_export_makes_one_pile_per_zone_and_a_single_card_stays_a_card(tmp_path):
    set_dir, cs = make_set(tmp_path)
    out = fake_render(tmp_path / "output" / "mini", cs)
    deck = Deck("Chain starter", "mini", frozen_map({"fleet": {"chain-reaver": 2, "chain-skiff": 3},
                                                      "events": {"blackest-night": 1}}))
    result = export_tts(cs, read_manifest(out), out / "tts", deck=deck, base_url="https://example.org/cards/")
    assert result.json_file.name == "chain-starter.json"
    data = json.loads(result.json_file.read_text())
    fleet, events = data["ObjectStates"]
    assert fleet["Name"] == "DeckCustom" and fleet["Nickname"] == "Fleet" and len(fleet["DeckIDs"]) == 5
    assert events["Name"] == "Card" and events["Nickname"] == "Blackest Night"
    entry = fleet["CustomDeck"][str(fleet["DeckIDs"][0] // 100)]
    assert entry["FaceURL"].startswith("https://example.org/cards/chain-starter-sheet-")
    assert (out / "tts" / "chain-starter.png").is_file()  # thumbnail beside the saved object


def test_unknown_deck_card_and_bad_base_url_are_clear_errors(tmp_path):
    from cardsmith.base.errors import CardsmithError
    set_dir, cs = make_set(tmp_path)
    out = fake_render(tmp_path / "output" / "mini", cs)
    rs = read_manifest(out)
    with pytest.raises(CardsmithError, match="names cards not in mini: ghost"):
        export_tts(cs, rs, out / "tts", deck=Deck("x", "mini", frozen_map({"fleet": {"ghost": 1}})))
    with pytest.raises(CardsmithError, match="base-url"):
        export_tts(cs, rs, out / "tts", base_url="example.org")


def test_a_solar_empires_deck_file_becomes_fleet_and_solar_body_piles(tmp_path):
    from cardsmith.decks import load_deck
    root = Path(__file__).resolve().parent.parent
    cs = load_set(root / "cards" / "solar-empires")
    deck = load_deck(root / "cards" / "solar-empires" / "decks" / "chain.yaml", cs)
    out = fake_render(tmp_path / "output" / cs.id, cs, dpi=40)
    result = export_tts(cs, read_manifest(out), out / "tts", deck=deck)
    data = json.loads(result.json_file.read_text())
    _check_saved_object(data, out / "tts")
    piles = {o["Nickname"]: o for o in data["ObjectStates"]}
    assert set(piles) == {"Fleet", "Solar Bodies"}
    assert len(piles["Fleet"]["DeckIDs"]) == deck.count("fleet") == 48
    assert len(piles["Solar Bodies"]["DeckIDs"]) == deck.count("solar_bodies")
    names = [c["Nickname"] for c in piles["Fleet"]["ContainedObjects"]]
    assert names[:4] == ["Drone"] * 4  # the deck's stacking order, top card first


def test_a_set_without_cards_is_a_clear_error_not_a_crash(tmp_path):
    from cardsmith.base.errors import CardsmithError
    set_dir, _ = make_set(tmp_path)
    for f in ("ships.yaml", "events.yaml"):
        (set_dir / f).unlink()
    cs = load_set(set_dir)
    out = fake_render(tmp_path / "output" / "mini", cs)
    with pytest.raises(CardsmithError, match="set mini has no cards") as e:
        export_tts(cs, read_manifest(out), out / "tts")
    assert "cards:" in e.value.hint
    assert not (out / "tts").exists() or not any((out / "tts").iterdir())


@pytest.mark.parametrize("where", ["../../../../usr/share/pixmaps/x.png", "/etc/passwd"])
def test_a_manifest_naming_files_outside_its_folder_is_refused(tmp_path, where):
    """An 'earlier build' handed over for `gallery --compare` could pull any picture on the disk into
    the gallery through its manifest; manifests now name files inside their folder only."""
    from cardsmith.base.errors import CardsmithError
    _, cs = make_set(tmp_path)
    out = fake_render(tmp_path / "output" / "mini", cs)
    manifest = out / "cards" / "manifest.json"
    data = json.loads(manifest.read_text())
    next(iter(data["cards"].values()))["file"] = where
    manifest.write_text(json.dumps(data))
    with pytest.raises(CardsmithError, match="outside its folder"):
        read_manifest(out)
