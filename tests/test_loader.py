"""YAML loading: positions for every value, and a clear message for every kind of bad file."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardsmith.sets.loader
from cardsmith.sets.loader import YamlError, load_yaml, parse_yaml


@pytest.fixture(autouse=True, params=["libyaml", "pure-python"])
def which_parser(request, monkeypatch):
    """Every test here runs with libyaml composing (where PyYAML has it) and with the fallback."""
    if request.param == "libyaml" and cardsmith.sets.loader._CLoader is None:
        pytest.skip("PyYAML without libyaml")
    if request.param == "pure-python":
        monkeypatch.setattr(cardsmith.sets.loader, "_CLoader", None)
    return request.param


def test_positions_for_every_node():
    doc = parse_yaml("name: X\ncards:\n  - id: a\n    attack: 3\n  - id: b\n")
    assert doc.data == {"name": "X", "cards": [{"id": "a", "attack": 3}, {"id": "b"}]}
    assert doc.position(("cards", 0, "attack")) == (4, 13)
    assert doc.position(("cards", 0, "attack"), key=True) == (4, 5)
    assert doc.position(("cards", 1)) == (5, 5)
    # a path below a value falls back to the nearest node that exists
    assert doc.position(("cards", 1, "missing")) == (5, 5)


def test_yaml_12_booleans_keep_words_as_text():
    doc = parse_yaml("a: no\nb: yes\nc: on\nd: true\ne: False\n")
    assert doc.data == {"a": "no", "b": "yes", "c": "on", "d": True, "e": False}


def test_merge_keys_and_dates_are_plain_data():
    doc = parse_yaml("base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\nwhen: 2009-12-01\n")
    assert doc.data["c"] == {"x": 1, "y": 3}
    assert doc.data["when"] == "2009-12-01"


@pytest.mark.parametrize("text, line, words", [
    ("a: 1\nb: 2\na: 3\n", 3, "duplicate key 'a' (first written on line 1)"),
    ("cards:\n\t- id: x\n", 2, "'\\t'"),
    ("cards:\n  - id: a\n   name: b\n", 3, "invalid YAML"),
    ("a: [1, 2\n", 2, "invalid YAML"),
    ("a: b: c\n", 1, "mapping values are not allowed"),
    ("a: !!python/object/apply:os.system [ls]\n", 1, "is not allowed"),
    ("a: !!python/name:os.system x\n", 1, "could not determine a constructor"),
    ("[a, b]: 1\n", 1, "key"),
])
def test_malformed_yaml_gets_file_and_line(text, line, words):
    with pytest.raises(YamlError) as e:
        parse_yaml(text, "f.yaml")
    assert e.value.line == line
    assert words in str(e.value)
    assert str(e.value).startswith(f"f.yaml:{line}:")


def test_tab_indentation_has_a_plain_hint():
    with pytest.raises(YamlError) as e:
        parse_yaml("cards:\n\t- id: x\n", "f.yaml")
    assert "indent with spaces" in e.value.hint


def test_alias_bomb_is_refused():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i, name in enumerate("bcdefgh"):
        prev = "abcdefgh"[i]
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    with pytest.raises(YamlError) as e:
        parse_yaml("\n".join(lines) + "\n", "bomb.yaml")
    assert "alias" in str(e.value)


@pytest.mark.parametrize("text", ["name: " + "[" * 2000 + "x" + "]" * 2000 + "\n",
                                  "a:\n" + "".join("  " * i + "- \n" for i in range(1, 300))])
def test_thousands_of_nested_levels_are_refused_with_a_line(text):
    with pytest.raises(YamlError) as e:
        parse_yaml(text, "deep.yaml")
    assert "more than 100 levels deep" in e.value.message
    assert str(e.value).startswith("deep.yaml:")


def test_a_hundred_levels_are_fine():
    doc = parse_yaml("a: " + "[" * 99 + "1" + "]" * 99 + "\n")
    inner = doc.data["a"]
    for _ in range(98):
        inner = inner[0]
    assert inner == [1]


def test_empty_file(tmp_path: Path):
    f = tmp_path / "empty.yaml"
    f.write_text("# only a comment\n")
    with pytest.raises(YamlError) as e:
        load_yaml(f)
    assert "empty" in str(e.value)


def test_not_utf8_names_the_line(tmp_path: Path):
    f = tmp_path / "latin.yaml"
    f.write_bytes("name: ok\ntext: caf\xe9\n".encode("latin-1"))
    with pytest.raises(YamlError) as e:
        load_yaml(f)
    assert (e.value.line, e.value.column) == (2, 10)
    assert "UTF-8" in str(e.value)


def test_utf8_bom_is_accepted(tmp_path: Path):
    f = tmp_path / "bom.yaml"
    f.write_bytes(b"\xef\xbb\xbfname: caf\xc3\xa9\n")
    assert load_yaml(f).data == {"name": "café"}


def test_huge_file_is_refused_before_reading(tmp_path: Path):
    f = tmp_path / "big.yaml"
    with open(f, "wb") as fh:
        fh.truncate(50 * 1024 * 1024)
    with pytest.raises(YamlError) as e:
        load_yaml(f)
    assert "52.4 MB" in str(e.value) and "at most 10 MB" in str(e.value)


def test_binary_file_is_refused(tmp_path: Path):
    f = tmp_path / "image.yaml"
    f.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    with pytest.raises(YamlError) as e:
        load_yaml(f)
    assert "binary" in str(e.value)


def test_both_parsers_give_the_same_data_and_positions_for_the_bundled_set(which_parser, monkeypatch):
    if which_parser != "libyaml":
        pytest.skip("compares libyaml against the fallback once")
    files = sorted((Path(__file__).resolve().parent.parent / "cards" / "solar-empires").rglob("*.yaml"))
    files.append(Path(__file__))  # not YAML: both must refuse it the same way
    fast = []
    for f in files:
        try:
            d = load_yaml(f)
            fast.append((d.data, d.positions, d.key_positions))
        except YamlError as e:
            fast.append(str(e))
    monkeypatch.setattr(cardsmith.sets.loader, "_CLoader", None)
    for f, got in zip(files, fast):
        try:
            d = load_yaml(f)
            assert got == (d.data, d.positions, d.key_positions), f
        except YamlError as e:
            assert got == str(e), f
    assert sum(isinstance(g, tuple) for g in fast) >= 5
