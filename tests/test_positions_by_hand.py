"""Positions written by hand, the route an outside checker takes: each game's docs/rules page shows
one (read from the page here, so the page stays true); it loads through the API and through
`cardsmith play SET --from FILE`, plays as the page says, and a position with a mistake gets an
error naming the file and the entry, never a traceback."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import yaml
from conftest import main_in_process

from cardsmith import ScriptedChance
from cardsmith.engine.contract import PositionError
from cardsmith.engine.kit import parse_position
from cardsmith.engine.registry import get_rules
from tests.bundled_set import BundledSet

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def _bundled(folder: str) -> BundledSet:
    rules = get_rules(folder.replace("-", "_"))
    assert rules is not None
    return BundledSet(folder, rules)


def doc_position(folder: str) -> str:
    """The YAML example under the Positions heading of docs/rules/<folder>.md."""
    text = (ROOT / "docs" / "rules" / f"{folder}.md").read_text(encoding="utf-8")
    section = re.split(r"^#+ Positions$", text, flags=re.M)[1]
    return re.search(r"```yaml\n(.*?)```", section, flags=re.S).group(1)


def from_doc(folder: str):
    return _bundled(folder).game.from_position(parse_position(doc_position(folder)))


def play(st, *actions) -> None:
    for a in actions:
        st.apply(a)


def test_trf_example_the_homeworld_falls_to_exactly_its_homeworld_value():
    st = from_doc("trf")
    play(st, ("attack",), ("declare", 1), ("declare", 2), ("done",), ("done",), ("fight",),
         ("assign", 1, 20), ("assign", 2, 20), ("done",))
    assert st.outcome().winner == 0 and st.outcome().reason == "homeworld taken"
    assert "seat 0 captures Calder (9 against 9)" in st.log


def test_transwar_example_a_form_at_exactly_zero_goes_out_into_another():
    st = from_doc("transwar")
    play(st, ("attack", 1), ("mode", "claw"))
    assert st.damage[1] == 13 and set(st.legal_actions()) == {("reform", "rat"), ("reform", "rabbit"), ("give_up",)}
    play(st, ("reform", "rat"))
    assert st.forms[1] == "rat" and st.damage[1] == 0 and st.hands[1] == ["rabbit"]


def test_alien_empires_example_a_tie_goes_to_the_defender():
    st = from_doc("alien-empires")
    play(st, ("done",), ("done",), ("attack", "1,0", 1))
    assert "force 5 (P0) against 5 (P1): P1 wins" in st.log
    assert st.outcome().winner == 1 and st.outcome().reason == "last race standing"


def test_rm2k_anime_example_an_attack_challenge_eight_to_two():
    st = from_doc("rm2k-anime")
    play(st, ("challenge", 1), ("attacker", 0), ("defender", 0), ("pass",), ("pass",))
    assert "  8 to 2: player 0 wins" in st.log
    seats = st.position()["seats"]
    assert seats[0]["vp"] == 1 and seats[1]["users"][0]["lag"] == 2


def test_solar_empires_example_the_smaller_point_ship_fires_first_and_a_lost_point_withdraws():
    st = _bundled("solar-empires").game.from_position(parse_position(doc_position("solar-empires")),
                                                      chance=ScriptedChance(rolls=[3, 4, 1]))

    def act(verb: str, *named) -> None:  # the legal action of this verb naming these cards/positions
        seat = st.to_act()[0]
        st.apply(next(a for a in st.legal_actions(seat) if a[0] == verb and all(n in a for n in named)), seat)

    act("deploy", "tcs-35-broadsword", 2)
    act("done")
    act("deploy", "drone", 2)
    act("deploy", "control-cruiser", 2)  # (then "done" is seat 1's only action, taken at once)
    assert [a[2] for a in st.legal_actions(1)] == ["drone", "control-cruiser"]  # seat 0's point was forced
    act("point", "drone")
    act("damage", "drone")
    log = "\n".join(st.log)
    for line in ("P1 fires first", "P1 fires: d6 3 + 2 = 5", "P0 fires: d6 4 + 6 = 10", "P1 puts 6 damage on Drone",
                 "P1 puts 4 damage on Control Cruiser", "P1 has no ship to take the point and withdraws",
                 "P0 wins the combat and controls position 2", "P0 rolls 1 to save Mines (3+): destroyed"):
        assert line in log
    pos = st.position()
    assert pos["planets"][1] == {"card": "gas-giant", "controller": 0, "building": None}
    assert pos["players"][1]["discard"] == ["drone", "mines"]


FOLDERS = ("trf", "transwar", "alien-empires", "rm2k-anime", "solar-empires")


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_documented_position_plays_from_the_command_line(folder, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pos.yaml").write_text(doc_position(folder))
    code, out, err = main_in_process("play", str(ROOT / "cards" / folder), "--from", "pos.yaml", "--games", "2",
                                     "--agents", "random", "--jobs", "1")
    assert code == 0, err
    assert "seat 0" in out


def _edit(folder: str, how) -> str:
    data = yaml.safe_load(doc_position(folder))
    how(data)
    return yaml.safe_dump(data, sort_keys=False)


# (game, what the mistake does, words the error must hold)
MISTAKES = [
    ("trf", lambda d: d["p"][1].__setitem__("hand", ["militai"]), ["p[1].hand[0]", "'militai'", "did you mean 'militia'"]),
    ("trf", lambda d: d["chars"][0].__setitem__("owner", 2), ["chars[0].owner is 2", "a seat (0 to 1)"]),
    ("trf", lambda d: d["p"][0].__setitem__("hnad", []), ["`hnad:` is not an entry", "did you mean 'hand'"]),
    ("trf", lambda d: d["p"][0].__setitem__("account", "calder"), ["p[0].account", "not an account card"]),
    ("trf", lambda d: d.__setitem__("turn", "five"), ["turn is 'five'", "a whole number"]),
    ("trf", lambda d: d["p"][0].pop("planets"), ["p[0]", "`planets:` is missing"]),
    ("trf", lambda d: d["p"][1]["planets"][0].__setitem__("home", False), ["p[1].planets", "homeworld in play"]),
    ("trf", lambda d: d["chars"][1].__setitem__("fleet", 99), ["chars[1].fleet: 99", "not a character of seat 0"]),
    ("trf", lambda d: d["chars"][0].__setitem__("card", "omnae"), ["chars[0].card", "not a character card"]),
    ("trf", lambda d: d.update(declared=[7], phase="block"), ["declared: 7 is not the uid of a character in play"]),
    ("transwar", lambda d: d.__setitem__("damage", [0]), ["damage", "one per seat"]),
    ("transwar", lambda d: d["forms"].__setitem__(1, "sheeep"), ["forms[1]", "did you mean 'sheep'"]),
    ("transwar", lambda d: d.__setitem__("active", 3), ["active is 3", "a seat (0 to 1)"]),
    ("transwar", lambda d: d["forms"].__setitem__(1, None), ["forms[1] is null", "started: false"]),
    ("transwar", lambda d: d.__setitem__("stack", [{"kind": "cards", "seat": 1}]), ["stack", "`attack:` is null"]),
    ("alien-empires", lambda d: d["tokens"].__setitem__("1,0", [0]), ["tokens.1,0", "one per seat"]),
    ("alien-empires", lambda d: d["tokens"].__setitem__("9,9", [1, 0]), ["hex '9,9'"]),
    ("alien-empires", lambda d: d["worlds"].__setitem__("0,0", "siruis"), ["worlds.0,0 is 'siruis'"]),
    ("alien-empires", lambda d: d.__setitem__("order", [0, 0]), ["order"]),
    ("alien-empires", lambda d: d.__setitem__("destiny", [["force-1"], []]), ["destiny[0]", "not a Race card"]),
    ("rm2k-anime", lambda d: d["seats"][0]["users"][1].__setitem__("syncing", "pm-wars"),
     ["seats[0].users[1].syncing", "did you mean 'pm-war'"]),
    ("rm2k-anime", lambda d: d["seats"][1].__setitem__("user", []), ["`user:` is not an entry", "did you mean 'users'"]),
    ("rm2k-anime", lambda d: d.__setitem__("decision", "challange"), ["decision is 'challange'"]),
    ("rm2k-anime", lambda d: d["seats"][0]["users"][0].__setitem__("lag", -1), ["seats[0].users[0].lag is -1"]),
    ("rm2k-anime", lambda d: d["seats"][0]["users"][0].__setitem__("card", "pm-war"), ["users[0].card", "not a User card"]),
    ("solar-empires", lambda d: d["players"][0]["ships"][0].__setitem__("card", "tcs-35-broadsord"),
     ["players[0].ships[0].card", "'tcs-35-broadsord'", "did you mean 'tcs-35-broadsword'"]),
    ("solar-empires", lambda d: d["decision"].__setitem__("seat", 3), ["decision.seat is 3", "a seat (0 to 1)"]),
    ("solar-empires", lambda d: d["players"][1].__setitem__("shipz", []), ["`shipz:` is not an entry", "did you mean 'ships'"]),
    ("solar-empires", lambda d: d["planets"][1]["building"].__setitem__("card", "drone"),
     ["planets[1].building.card", "'drone' is a ship card", "holds a building"]),
    ("solar-empires", lambda d: d["players"][0]["ships"].append({"card": "mines"}), ["players[0].ships[2].card", "a building card"]),
    ("solar-empires", lambda d: d.__setitem__("planets", [{"card": "sol-like-star"}]), ["planets[0].card", "a star card"]),
    ("solar-empires", lambda d: d["players"][0]["ships"][0].__setitem__("at", 7), ["players[0].ships[0].at is 7", "1 to 6"]),
    ("solar-empires", lambda d: d.__setitem__("priority", 99), ["priority is 99", "a seat (0 to 1)"]),
    ("solar-empires", lambda d: d.__setitem__("stage", "combat"), ["decision.kind 'deploy'", "'deploy' stage"]),
    ("solar-empires", lambda d: d.__setitem__("decision", {"kind": "choose_cards", "seat": 0}), ["choose_cards", "pick"]),
    ("solar-empires", lambda d: d.update(stage="combat", decision={"kind": "point_ship", "seat": 0},
                                         combat={"position": 2, "step": "point"}), ["seat 0 has no ship there"]),
    ("solar-empires", lambda d: d.update(pick={"kind": "discard", "seat": 0, "left": 1, "chosen": [[1, "ships", 5]]},
                                         decision={"kind": "choose_cards", "seat": 0}, stage="construct1"),
     ["pick.chosen[0]", "players[1].ships has 2 entries"]),
    ("solar-empires", lambda d: d["players"][0]["ships"][0].__setitem__("damage", 10),
     ["players[0].ships[0].damage is 10", "0 to 9"]),
]


@pytest.mark.parametrize("folder,how,words", MISTAKES, ids=[f"{m[0]}-{i}" for i, m in enumerate(MISTAKES)])
def test_a_mistake_in_a_hand_written_position_is_named(folder, how, words):
    text = _edit(folder, how)
    with pytest.raises(PositionError) as caught:
        _bundled(folder).game.from_position(parse_position(text))
    for w in words:
        assert w in str(caught.value)


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_command_line_names_the_file_and_the_entry(folder, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    mistake = next(m for m in MISTAKES if m[0] == folder)
    (tmp_path / "mine.yaml").write_text(_edit(folder, mistake[1]))
    code, out, err = main_in_process("play", str(ROOT / "cards" / folder), "--from", "mine.yaml", "--games", "1",
                                     "--jobs", "1")
    assert code == 1 and "mine.yaml" in err and mistake[2][0] in err
    assert "docs/rules" in err and "Traceback" not in err and "bug in cardsmith" not in err


def test_a_position_read_again_is_remembered_but_never_shared():
    """The kit remembers positions that passed (a run from one position reads it once per game), and
    hands every caller its own copy: a game that fills in or changes one cannot change the next."""
    from cardsmith.engine.kit.shape import check_position, count, obj

    schema = obj({"turn": count(1)}, {"hand": {"type": "array", "items": {"type": "string"}, "default": []}})
    cards = {"x"}
    for _ in range(3):  # the first reading checks; the next ones are remembered
        got = check_position({"turn": 3}, schema, cards)
        assert got == {"turn": 3, "hand": []}
        got["hand"].append("x")
        got["turn"] = 99
