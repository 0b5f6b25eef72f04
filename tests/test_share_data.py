"""JSON and CSV export, and CSV import: round trips, updates in place, and bad spreadsheets refused per cell."""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from cardsmith.share.csv_import import CsvImportError, import_csv
from cardsmith.share.data import csv_text, export_csv, export_json
from cardsmith.sets.validate import load_set
from share_fixture import make_set

ROOT = Path(__file__).resolve().parent.parent


def _plain(card):
    return dataclasses.replace(card, source=None)


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(text.lstrip("\ufeff").splitlines(keepends=True)))


def _empty_copy(set_dir: Path, dest: Path) -> Path:
    """The same set declarations (and icons, art) with no card files."""
    dest.mkdir(parents=True)
    shutil.copy(set_dir / "set.yaml", dest / "set.yaml")
    for folder in ("icons", "art"):
        if (set_dir / folder).is_dir():
            shutil.copytree(set_dir / folder, dest / folder)
    (dest / "placeholder-free.yaml").write_text("cards: []\n")
    return dest


def test_csv_has_one_row_per_card_with_flattened_fields(tmp_path):
    _, cs = make_set(tmp_path)
    rows = _rows(csv_text(cs))
    assert [r["id"] for r in rows] == [c.id for c in cs.cards]
    reaver = next(r for r in rows if r["id"] == "chain-reaver")
    assert reaver["attack"] == "9" and reaver["class"] == "battleship" and reaver["race"] == "chain"
    assert reaver["keywords"] == "Accurate; Shield 1"
    flare = next(r for r in rows if r["id"] == "solar-flare")
    assert flare["attack"] == "" and flare["text"] == "Every fighter loses 1 armour.\nThen draw a card."


def test_json_export_holds_declarations_and_every_card(tmp_path):
    _, cs = make_set(tmp_path)
    data = json.loads(export_json(cs, tmp_path / "out" / "mini.json").read_text())
    assert data["id"] == "mini" and len(data["cards"]) == len(cs.cards)
    rapier = next(c for c in data["cards"] if c["id"] == "tcs-13-rapier")
    assert rapier["fields"] == {"class": "fighter", "attack": 2, "armour": 6, "energy": 1}
    assert rapier["keywords"] == ["Shield 3"] and rapier["group_name"] == "Terracorp"
    assert data["keywords"]["shield"]["param"] == "int"


@pytest.mark.parametrize("set_name", ["mini", "solar-empires"])
def test_csv_export_then_import_into_an_empty_set_gives_the_same_cards(tmp_path, set_name):
    if set_name == "mini":
        set_dir, cs = make_set(tmp_path / "a")
    else:
        set_dir = ROOT / "cards" / "solar-empires"
        cs = load_set(set_dir)
    csv_file = export_csv(cs, tmp_path / f"{set_name}.csv")
    fresh = _empty_copy(set_dir, tmp_path / "b" / "cards" / set_name)
    result = import_csv(csv_file, load_set(fresh))
    assert sorted(result.created) == sorted(c.id for c in cs.cards)
    again = load_set(fresh)
    assert {c.id: _plain(c) for c in again.cards} == {c.id: _plain(c) for c in cs.cards}


def test_import_updates_cards_where_they_live_and_adds_new_ones(tmp_path):
    set_dir, cs = make_set(tmp_path)
    events_before = (set_dir / "events.yaml").read_text()
    rows = _rows(csv_text(cs))
    for r in rows:
        if r["id"] == "tcs-13-rapier":
            r["attack"] = "4"
            r["class"] = "Fighter"  # case differs, value does not: no change
    rows.append({**dict.fromkeys(rows[0], ""), "id": "chain-drone", "name": "Chain Drone", "type": "Ship",
                 "race": "The Chain", "class": "fighter", "attack": "1", "armour": "2", "keywords": "shield 2"})
    sheet = tmp_path / "edited.csv"
    with sheet.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    result = import_csv(sheet, cs)
    assert result.updated == ["tcs-13-rapier"] and result.created == ["chain-drone"]
    assert (set_dir / "events.yaml").read_text() == events_before  # untouched: nothing in it changed
    after = load_set(set_dir)
    assert after.card("tcs-13-rapier")["attack"] == 4
    drone = after.card("chain-drone")
    assert drone.race == "chain" and drone.keyword_value("shield") == 2
    assert Path(drone.source.file).name == "edited.yaml"
    assert {c.id for c in after.cards} == {c.id for c in cs.cards} | {"chain-drone"}


def test_partial_columns_update_only_those_keys(tmp_path):
    set_dir, cs = make_set(tmp_path)
    sheet = tmp_path / "armour.csv"
    sheet.write_text("id;Armour\nchain-reaver;21\n", encoding="utf-8")  # semicolons, label-cased header
    import_csv(sheet, cs)
    reaver = load_set(set_dir).card("chain-reaver")
    assert reaver["armour"] == 21 and reaver["attack"] == 9 and reaver.flavor == "Nothing escapes the Chain."


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_bad_csv_is_reported_per_row_and_column_and_nothing_is_written(tmp_path):
    set_dir, cs = make_set(tmp_path)
    before = _snapshot(set_dir)
    sheet = tmp_path / "bad.csv"
    sheet.write_text(
        "id,name,type,race,class,attack,armour,powr\n"
        "good-one,Good,ship,chain,fighter,1,2,\n"
        ",No Id,ship,chain,fighter,1,2,\n"
        "bad-num,Bad,ship,terracorp,fightr,x1,99,\n"
        "good-one,Twice,ship,chain,fighter,1,2,\n", encoding="utf-8")
    with pytest.raises(CsvImportError) as e:
        import_csv(sheet, cs)
    text = str(e.value)
    assert "row 1, column H (powr): unknown column 'powr'" in text
    assert "row 3, column A (id): missing id" in text
    assert "row 4, column E (class): 'fightr' is not allowed; did you mean 'fighter'?" in text
    assert "row 4, column F (attack): 'x1' is not a whole number" in text
    assert "row 4, column G (armour): 99 is outside 1..30" in text
    assert "row 5, column A (id): id 'good-one' is also on row 2" in text
    assert _snapshot(set_dir) == before
    assert not (set_dir / "bad.yaml").exists()


def test_set_validation_errors_name_the_csv_row(tmp_path):
    set_dir, cs = make_set(tmp_path)
    sheet = tmp_path / "new.csv"
    sheet.write_text("id,name,type,class,attack,armour\nlone-ship,Lone,ship,fighter,1,\n", encoding="utf-8")
    with pytest.raises(CsvImportError) as e:
        import_csv(sheet, cs)
    assert "new.csv row 2 (card lone-ship)" in str(e.value) and "armour" in str(e.value)
    assert not (set_dir / "new.yaml").exists()


def test_csv_that_is_not_utf8_gets_a_hint(tmp_path):
    _, cs = make_set(tmp_path)
    sheet = tmp_path / "latin.csv"
    sheet.write_bytes("id,name\nx,Caf\xe9\n".encode("latin-1"))
    with pytest.raises(Exception) as e:
        import_csv(sheet, cs)
    assert "not UTF-8" in str(e.value) and "CSV UTF-8" in str(e.value)


def test_cli_export_and_import_as_a_user_runs_them(tmp_path, cli):
    set_dir, _ = make_set(tmp_path)
    r = cli("export", "mini", "--json", "--csv", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "output" / "mini" / "mini.json").is_file()
    r = cli("import-csv", str(tmp_path / "output" / "mini" / "mini.csv"), "--set", "mini", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "0 new, 0 updated, 6 unchanged" in r.stdout
    (tmp_path / "bad.csv").write_text("id,attack\ntcs-13-rapier,lots\n")
    r = cli("import-csv", "bad.csv", "--set", "mini", cwd=tmp_path)
    assert r.returncode == 1 and "column B (attack): 'lots' is not a whole number" in r.stderr
    assert "Traceback" not in r.stderr
    r = cli("export", "mini", cwd=tmp_path)
    assert r.returncode == 2 and "--tts, --json or --csv" in r.stderr


def test_updates_keep_the_files_comments_and_layout(tmp_path):
    set_dir, cs = make_set(tmp_path)
    ships = set_dir / "ships.yaml"
    ships.write_text("# Ships of the mini set.\n" + ships.read_text().replace(
        "  - id: chain-reaver\n", "  # The big one\n  - id: chain-reaver\n"))
    cs = load_set(set_dir)
    sheet = tmp_path / "edit.csv"
    sheet.write_text("id,attack,keywords,flavor\n"
                     "chain-reaver,10,Accurate,\n"          # attack changed, a keyword and the flavour removed
                     "chain-skiff,1,Shield 1,Fast.\n", encoding="utf-8")  # keyword and flavour added
    import_csv(sheet, cs)
    text = ships.read_text()
    assert text.startswith("# Ships of the mini set.\n") and "  # The big one\n  - id: chain-reaver\n" in text
    assert "    attack: 10\n" in text and "Nothing escapes" not in text
    after = load_set(set_dir)
    assert [str(k) for k in after.card("chain-reaver").keywords] == ["accurate"]
    skiff = after.card("chain-skiff")
    assert skiff.keyword_value("shield") == 1 and skiff.flavor == "Fast."
    assert _plain(after.card("tcs-13-rapier")) == _plain(cs.card("tcs-13-rapier"))


def test_a_spreadsheet_too_large_for_a_set_is_refused_before_any_row_is_read(tmp_path, monkeypatch):
    """600,000 rows kept import-csv busy for over 20 minutes (about 2 ms a row); like a YAML card
    file, a spreadsheet has bounds, said before the work starts."""
    import cardsmith.share.csv_import as csv_import
    from cardsmith.base.errors import CardsmithError

    _, cs = make_set(tmp_path)
    monkeypatch.setattr(csv_import, "_match", lambda *a: pytest.fail("rows were read"))
    many = tmp_path / "many.csv"
    many.write_text("id,name,type\n" + "".join(f"c{i},C {i},ship\n" for i in range(10_001)))
    with pytest.raises(CardsmithError, match="10,001 rows; cardsmith imports at most 10,000") as e:
        import_csv(many, cs)
    assert "split" in e.value.hint
    big = tmp_path / "big.csv"
    big.write_text("id,name,type,text\nc1,C1,ship," + "x" * (11 * 1024 * 1024) + "\n")
    with pytest.raises(CardsmithError, match="at most 10 MB"):
        import_csv(big, cs)
