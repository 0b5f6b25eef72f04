"""Hostile input, generated (issue 32): layouts, deck files, position files for each game, `--resume`
stores and `gallery --compare` folders. Whatever the input, cardsmith answers with a result or a
CardsmithError (exit 0 or 1), never a traceback or "a bug in cardsmith" (exit 3), writes nothing
outside output/, and stays within a bounded time (hypothesis' deadline). Examples are derandomized
and few, so the module keeps the suite's budget."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardsmith.base.errors import CardsmithError

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("alien-empires", "rm2k-anime", "solar-empires", "transwar", "trf")

# CARDSMITH_FUZZ_EXAMPLES=200 runs a deeper, random round (the suite runs a few fixed examples)
EXAMPLES = int(os.environ.get("CARDSMITH_FUZZ_EXAMPLES", "0")) or None
FUZZ = settings(max_examples=EXAMPLES or 12, deadline=4000, derandomize=EXAMPLES is None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# Values a hostile file puts where a number, a name or a list belongs.
HOSTILE = st.one_of(
    st.integers(min_value=-10 ** 30, max_value=10 ** 30), st.sampled_from([-1, 0, 10 ** 9, 2 ** 63]),
    st.floats(allow_nan=True, allow_infinity=True), st.none(), st.booleans(),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=12), st.sampled_from(["\x1b[2J", "=HYPERLINK(1)", "x" * 5000, "../../etc"]),
    st.lists(st.integers(-3, 12), max_size=4), st.dictionaries(st.text(max_size=4), st.integers(-2, 5), max_size=3),
    st.just([[[[[]]]]]), st.just({}), st.just([]),
)


def _paths(node: Any, at: tuple = ()) -> list[tuple]:
    """Every place in plain data a value can be put."""
    out = [at] if at else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, at + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:6]):
            out += _paths(v, at + (i,))
    return out


def _put(data: Any, path: tuple, value: Any, delete: bool) -> None:
    for key in path[:-1]:
        data = data[key]
    if delete and isinstance(data, dict):
        data.pop(path[-1], None)
    else:
        data[path[-1]] = value


def _files_outside(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if "output" not in p.relative_to(root).parts}


# ---- positions, for each game ----------------------------------------------------------------------

_STARTS: dict[str, tuple[Any, dict]] = {}


def _start(name: str) -> tuple[Any, dict]:
    """The game and a fresh game's position (made once per module)."""
    if name not in _STARTS:
        from cardsmith.engine.registry import load_game
        from cardsmith.sets.validate import load_set
        from cardsmith.simulation.sets import seat_decks

        cardset = load_set(ROOT / "cards" / name)
        game = load_game(cardset)
        try:
            decks = seat_decks(cardset, (), 2, game.rules.players)
        except CardsmithError:
            names = sorted(p.stem for p in (ROOT / "cards" / name / "decks").glob("*.yaml"))[:2]
            decks = seat_decks(cardset, tuple(names), None, game.rules.players)
        _STARTS[name] = (game, game.new_game(decks, 1).position())
    return _STARTS[name]


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_hostile_positions_are_read_or_refused_with_a_sentence(name, data, tmp_path):
    from cardsmith.simulation.sets import read_position

    game, start = _start(name)
    position = json.loads(json.dumps(start))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(position)
        if not paths:
            break
        _put(position, data.draw(st.sampled_from(paths)), data.draw(HOSTILE), data.draw(st.booleans()))
    file = tmp_path / "position.yaml"
    file.write_text(yaml.safe_dump(position, allow_unicode=True))
    try:
        read_position(file, game)
    except CardsmithError as e:
        assert str(e).startswith(str(file)) or "position" in str(e)


# ---- deck files ------------------------------------------------------------------------------------

_LINE = st.one_of(
    st.builds(lambda n, name: f"{n}x {name}", st.one_of(st.integers(-10 ** 6, 10 ** 6), st.just(int("9" * 400))),
              st.sampled_from(["Dawn Scout", "dawn-scout", "Nobody", "\x1b]0;t\x07", "=cmd|' /C calc'!A0", ""])),
    st.builds(lambda name, n: f"{name} x{n}", st.text(max_size=10), st.text(alphabet="0123456789\u0663\u06f5", min_size=1, max_size=6)),
    st.sampled_from(["[main]", "[side]", "[", "set: other", "name: \x1b[31m", "# comment", "\x00", "3x", "x3"]),
    st.text(max_size=30),
)


@FUZZ
@given(lines=st.lists(_LINE, max_size=12), as_yaml=st.booleans(), zones=HOSTILE)
def test_hostile_deck_files_are_read_or_refused_with_their_line(demo_set_module, lines, as_yaml, zones):
    from cardsmith.decks import load_deck

    cardset, decks = demo_set_module
    if as_yaml:
        deck = decks / "fuzz.yaml"
        deck.write_text(yaml.safe_dump({"main": {ln: zones for ln in lines} if lines else zones}, allow_unicode=True))
    else:
        deck = decks / "fuzz.txt"
        deck.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
    try:
        load_deck(deck, cardset)
    except CardsmithError as e:
        assert "fuzz." in str(e)
        assert "\x1b" not in _shown(e)


def _shown(e: CardsmithError) -> str:
    from cardsmith.base.untrusted import shown

    return shown(str(e))


@pytest.fixture(scope="module")
def demo_set_module(tmp_path_factory):
    from cardsmith.sets.scaffold import scaffold_set
    from cardsmith.sets.validate import load_set

    d = tmp_path_factory.mktemp("fuzzdecks") / "cards" / "demo"
    scaffold_set(d)
    return load_set(d), d / "decks"


# ---- --resume stores and gallery --compare folders ------------------------------------------------

_JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10 ** 12, 10 ** 12), st.floats(allow_nan=False),
                               st.text(max_size=8)),
                     lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                     max_leaves=12)
_RECORD_KEYS = ("index", "seed", "deck_ids", "decks", "agents", "ranks", "end_reason", "turns", "cards_played",
                "first_actor", "capped", "ceiling_hits", "decisions", "think_seconds", "summary")
_GOOD = {"index": 0, "seed": 7, "deck_ids": [0, 1], "decks": ["a", "b"], "agents": ["random", "random"], "ranks": [0, 1],
         "end_reason": "win", "turns": 3, "cards_played": [["x"], []], "first_actor": 0, "capped": False,
         "ceiling_hits": [], "decisions": [1, 1], "think_seconds": [0.1, 0.2], "summary": None}


@FUZZ
@given(edits=st.dictionaries(st.sampled_from(_RECORD_KEYS), st.one_of(HOSTILE, _JSON), max_size=3),
       run_json=st.one_of(st.just(None), _JSON))
def test_hostile_resume_stores_resume_or_are_refused_before_any_game(tmp_path_factory, edits, run_json):
    from cardsmith.simulation._taskstore import TaskStore

    folder = tmp_path_factory.mktemp("store") / ".tasks"
    folder.mkdir()
    (folder / "run.json").write_text(json.dumps({"key": "k", "games": 3} if run_json is None else run_json))
    (folder / "part-000000-000000.json").write_text(json.dumps([{**_GOOD, **edits}]))
    try:
        records = TaskStore(folder, "k", 3).start(resume=True)
    except CardsmithError as e:
        assert "--resume" in str(e)
        return
    assert all(0 <= r.index < 3 and len(r.ranks) == len(r.deck_ids) for r in records)


@FUZZ
@given(manifest=st.one_of(_JSON, st.fixed_dictionaries({"cards": _JSON, "set": _JSON, "dpi": _JSON, "trim_mm": _JSON})),
       file=st.sampled_from(["cards/x.png", "/etc/passwd", "../../secret.png", "cards/../../x", ""]))
def test_hostile_compare_manifests_are_read_or_refused(tmp_path_factory, manifest, file):
    from cardsmith.share.images import read_manifest

    out = tmp_path_factory.mktemp("old")
    (out / "cards").mkdir()
    if isinstance(manifest, dict) and isinstance(manifest.get("cards"), dict):
        manifest["cards"] = {"x": {"file": file}}
    (out / "cards" / "manifest.json").write_text(json.dumps(manifest))
    try:
        rs = read_manifest(out)
    except CardsmithError as e:
        assert "manifest.json" in str(e)
        return
    assert all(c.file.resolve().is_relative_to(out.resolve()) for c in rs.cards.values())


# ---- layouts ----------------------------------------------------------------------------------------

_LAYERS = [
    '  - rect: {box: [0mm, 0mm, -0mm, -0mm], fill: "{{ faction.color }}"}',
    '  - text: {box: [4mm, 4mm, -4mm, 12mm], value: "{{ card.name }}", size: 9pt}',
    "  - rect: {box: [.nan, 0mm, 10mm, 10mm]}", "  - rect: {box: [0, 0, 1e308mm, .inf]}",
    '  - text: {box: [0mm, 0mm, 9mm, 9mm], value: "x", size: 99999pt}',
    '  - image: {box: [0mm, 0mm, 9mm, 9mm], src: "/etc/hostname"}', '  - icon: {box: [0mm, 0mm, 9mm, 9mm], src: "../../x.svg"}',
    '  - text: {box: [0mm, 0mm, 9mm, 9mm], value: "{{ range(100000)|join("ab") }}"}',
    '  - text: {box: [0mm, 0mm, 9mm, 9mm], value: "{{ "x"|center(10**8) }}{{ "%*s" % (10**8, "") }}"}',
    '  - text: {box: [0mm, 0mm, 9mm, 9mm], value: "{{ "{:>99999999}".format(1) }}{{ "a".ljust(10**9) }}"}',
    "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    '{% set ns = namespace(s="ab") %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}',
    "{% for i in range(5000) %}  - rect: {box: [0mm, 0mm, 1mm, 1mm]}\n{% endfor %}",
    '{% include "/etc/passwd" %}', '{% extends "../../../etc/x" %}', "{{ self.__class__.__mro__ }}", "{{ lipsum(10**5) }}",
    "  - &a [1,1,1,1,1,1,1,1,1,1]\n  - &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n  - &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "  - &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n  - &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n  - [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]",
    "  - rect: {box: [0, 0, 1, 1], opacity: -5, radius: 1e300}", "  - 17", "  - {}", "layers: 5", "\x00\x1b",
]


@settings(max_examples=EXAMPLES or 10, deadline=8000, derandomize=EXAMPLES is None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.sampled_from(_LAYERS), min_size=1, max_size=4))
def test_hostile_layouts_are_drawn_or_refused_without_a_traceback_or_a_stray_file(layout_project, cli, parts):
    from cardsmith.layout import template

    project, set_dir = layout_project
    (set_dir / "layouts" / "card.yaml.j2").write_text("layers:\n" + "\n".join(parts) + "\n")
    shutil.rmtree(project / "output", ignore_errors=True)
    before = _files_outside(project)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(template, "LAYOUT_SECONDS", 0.3)  # the rule, at a cost a test can pay
        r = cli("render", "demo", "--jobs", "1", "--force", cwd=project)
    assert r.returncode in (0, 1), r.stderr
    assert "Traceback" not in r.stderr and "bug in cardsmith" not in r.stderr, r.stderr
    assert _files_outside(project) == before


@pytest.fixture(scope="module")
def layout_project(tmp_path_factory):
    from cardsmith.sets.scaffold import scaffold_set

    project = tmp_path_factory.mktemp("fuzzlayouts")
    set_dir = project / "cards" / "demo"
    scaffold_set(set_dir)
    (set_dir / "layouts").mkdir()
    return project, set_dir
