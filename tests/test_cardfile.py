"""Card files read card by card (cardsmith.sets._cardfile) give exactly what reading the whole file gives:
the same data, the same line and column for every value, the same schema errors; where a split
could change a meaning the whole file is read; and after an edit only the edited card is read again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardsmith.sets import _cardfile as cardfile
from cardsmith.sets import loader
from cardsmith.sets.loader import YamlError, load_yaml
from cardsmith.sets._schema_check import schema_diagnostics
from cardsmith.sets.validate import card_files, check_set

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "mini-empires"


def whole(path: Path) -> tuple:
    doc = load_yaml(path)
    return doc.data, doc.positions, doc.key_positions, sorted(map(repr, schema_diagnostics(doc, "card")))


def by_card(path: Path, items: dict | None = None, used: dict | None = None) -> tuple | None:
    got = cardfile.read_card_file(path, {} if items is None else items, {} if used is None else used)
    if got is None:
        return None
    doc, diags = got
    return doc.data, doc.positions, doc.key_positions, sorted(map(repr, diags))


def every_card_file() -> list[Path]:
    files = []
    for set_yaml in sorted([*(ROOT / "cards").glob("*/set.yaml"), *(ROOT / "tests" / "fixtures").glob("**/set.yaml")]):
        files += card_files(set_yaml.parent)
    return files


@pytest.mark.parametrize("path", every_card_file(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_card_file_reads_the_same_card_by_card(path):
    assert by_card(path) == whole(path)


EDITS = {
    "a schema error in one card": ("attack: 5", 'attack: "five"'),
    "an unknown key in one card": ("minerals: 2", "minerals: 2\n    minrals: 2"),
    "a card inserted (later cards move down)": ("  - id: longbow", "  - id: extra\n    name: Extra\n    type: ship\n  - id: longbow"),
    "comments and blank lines between cards": ("  - id: ion-storm", "\n# events\n\n  - id: ion-storm"),
    "defaults before the cards": ("cards:", "defaults:\n  race: terracorp\ncards:"),
    "defaults after the cards": ("", "defaults:\n  race: terracorp\n"),
    "a multi-line text": ('flavor: "Steady as a rock, and about as fast."', "flavor: >\n      Steady as a rock,\n      and about as fast."),
}


@pytest.mark.parametrize("edit", EDITS)
def test_edited_files_read_the_same_card_by_card(tmp_path, edit):
    old, new = EDITS[edit]
    text = (FIXTURE / "cards.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "cards.yaml"
    path.write_text(text.replace(old, new, 1) if old else text + new, encoding="utf-8")
    assert by_card(path) == whole(path)


SPLIT_UNSAFE = {
    "an alias to another card's anchor": "cards:\n- id: a\n  name: A\n  type: ship\n  tags: &t [x]\n- id: b\n  name: B\n  type: ship\n  tags: *t\n",
    "flow style": "cards: [{id: a, name: A, type: ship}]\n",
    "a quoted text whose next line looks like a card": 'cards:\n- id: a\n  name: "A\n- b"\n  type: ship\n',
    "no cards at all": "defaults:\n  type: ship\n",
}


@pytest.mark.parametrize("case", SPLIT_UNSAFE)
def test_what_a_split_could_misread_is_read_whole(tmp_path, case):
    path = tmp_path / "cards.yaml"
    path.write_text(SPLIT_UNSAFE[case], encoding="utf-8")
    assert by_card(path) is None
    try:
        whole(path)
    except YamlError:
        pass  # the whole-file reader words the error, as it always did


def test_yaml_errors_in_one_card_are_reported_by_the_whole_file_reader(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text((FIXTURE / "cards.yaml").read_text(encoding="utf-8").replace("attack: 5", "attack: 5\n   armour: 1", 1),
                    encoding="utf-8")
    with pytest.raises(YamlError):
        load_yaml(path)
    assert by_card(path) is None


def test_after_an_edit_only_the_edited_card_is_read_again_and_the_set_checks_the_same(tmp_path, monkeypatch):
    set_dir = tmp_path / "mini-empires"
    shutil.copytree(FIXTURE, set_dir)
    items: dict = {}
    first = check_set(set_dir, items, items)
    assert first[0] is not None and first == check_set(set_dir)

    cards = set_dir / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("attack: 5", 'attack: "five"', 1), encoding="utf-8")
    parsed: list[str] = []
    real = loader.parse_yaml

    def counting(text, path="<text>", **kw):
        parsed.append(text)
        return real(text, path, **kw)

    monkeypatch.setattr(cardfile, "parse_yaml", counting)
    used: dict = {}
    cached = check_set(set_dir, items, used)
    assert len(parsed) == 2 and '"five"' in parsed[1]  # the file's header, then the edited card only
    assert cached[0] is None and cached[1] == check_set(set_dir)[1]  # the same errors, at the same lines
    line = cards.read_text(encoding="utf-8").splitlines().index('    attack: "five"') + 1
    assert [(d.file, d.line) for d in cached[1] if d.is_error] == [(cards, line)]
    assert len(used) == len(items)  # every card and set.yaml, each kept once
