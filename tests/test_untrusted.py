"""Issue 32: untrusted sets, caches and command lines. No code runs from data, nothing is read from
outside the set, nothing is written where it was not asked, nothing runs without a bound."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from pathlib import Path

import pytest

from cardsmith.base.project import Project
from cardsmith.cache import freshness, setcache


class _WritesAFile:
    """What an attacker plants: unpickling it would create `target`."""

    def __init__(self, target: Path):
        self.target = target

    def __reduce__(self):
        return (open, (str(self.target), "w"))


def _planted_json(payload) -> bytes:
    body = json.dumps(payload).encode()
    return b"cardsmith-cache-json 1\n" + hashlib.sha256(body).hexdigest().encode() + b"\n" + body


# ---- 1. no code from data ---------------------------------------------------------------------------

def test_a_planted_pickle_in_the_set_cache_writes_nothing(demo_set, cli, tmp_path):
    project = demo_set.parent.parent
    assert cli("render", "demo", cwd=project).returncode == 0
    stamp = freshness.stamp_for(Project(project), demo_set, "set").path
    target = tmp_path / "pwned"
    evil = pickle.dumps(_WritesAFile(target))
    cache_files = [stamp.with_name(stamp.stem + "-model.json"), stamp.with_name(stamp.stem + "-items.json"),
                   stamp.with_suffix(".pickle"), stamp.with_name(stamp.stem + "-items.pickle")]
    assert cache_files[0].is_file() and cache_files[1].is_file()
    for f in cache_files:
        f.write_bytes(evil)
    for args in (("render", "demo"), ("build", "demo")):
        r = cli(*args, cwd=project)
        assert r.returncode == 0, r.stderr
    assert not target.exists()
    # and the caches were rewritten as JSON, readable again
    assert setcache.loads(cache_files[0].read_bytes())[0].id == "demo"


@pytest.mark.parametrize("cls", ["subprocess:Popen", "cardsmith.engine.runner:ProcessPoolExecutor",
                                 "cardsmith.base.project:Path", "builtins:open", "cardsmith.nothere:X"])
def test_a_cache_file_with_a_good_digest_builds_only_model_dataclasses(cls, tmp_path):
    import cardsmith.engine.runner  # noqa: F401  (a module that imports a class with side effects)

    data = _planted_json({"c": cls, "v": {"args": str(tmp_path / "pwned")}})
    with pytest.raises(ValueError):
        setcache.loads(data)
    assert not (tmp_path / "pwned").exists()


def test_a_damaged_cache_file_fails_its_digest():
    good = setcache.dumps({"code": "x", "items": {("a", 1): (1, 2)}})
    assert setcache.loads(good) == {"code": "x", "items": {("a", 1): (1, 2)}}
    with pytest.raises(ValueError, match="digest"):
        setcache.loads(good[:-3] + b"9}}")


# ---- 2. a set reads only inside its folder ------------------------------------------------------------

def _outside_layout(tmp_path: Path) -> Path:
    """A private file elsewhere on the disk, shaped so a layout would draw its line on a card."""
    src = (Path(__file__).resolve().parent.parent / "templates" / "default" / "card.yaml.j2").read_text()
    secret = tmp_path / "private" / "card.yaml.j2"
    secret.parent.mkdir()
    secret.write_text(src)
    return secret


def _assert_refused(cli, project: Path, where: str) -> None:
    r = cli("validate", "demo", cwd=project)
    assert r.returncode == 1 and where in r.stderr and "outside the set folder" in r.stderr, r.stderr
    r = cli("render", "demo", cwd=project)
    assert r.returncode == 1 and "Traceback" not in r.stderr and "outside" in r.stderr, r.stderr
    assert not list((project / "output").rglob("*.png"))


def test_a_layout_file_linked_to_outside_the_set_is_refused(demo_set, cli, tmp_path):
    secret = _outside_layout(tmp_path)
    (demo_set / "layouts").mkdir()
    (demo_set / "layouts" / "card.yaml.j2").symlink_to(secret)
    _assert_refused(cli, demo_set.parent.parent, "layouts/card.yaml.j2:1")


def test_a_layouts_folder_linked_to_outside_the_set_is_refused(demo_set, cli, tmp_path):
    secret = _outside_layout(tmp_path)
    (demo_set / "layouts").symlink_to(secret.parent, target_is_directory=True)
    _assert_refused(cli, demo_set.parent.parent, "demo/layouts:1")


def test_a_layout_link_that_stays_inside_the_set_is_fine(demo_set, cli, tmp_path):
    secret = _outside_layout(tmp_path)
    (demo_set / "layouts").mkdir()
    (demo_set / "mine.yaml.j2").write_text(secret.read_text())
    (demo_set / "layouts" / "card.yaml.j2").symlink_to(demo_set / "mine.yaml.j2")
    assert cli("validate", "demo", cwd=demo_set.parent.parent).returncode == 0


_SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">{}</svg>'


@pytest.mark.parametrize("body,words", [
    ('<image href="/etc/hostname.png" width="10" height="10"/>', "outside file '/etc/hostname.png'"),
    ('<image xlink:href="file:///tmp/x.png" width="10" height="10"/>', "outside file"),
    ('<image href="../art/x.png" width="10" height="10"/>', "outside file"),
    ('<rect width="10" height="10" style="fill: url(http://example.com/p.svg#g)"/>', "outside resource"),
    ('<style>@import url(/tmp/x.css);</style>', "outside style sheet"),
    ('<filter id="f"><feTurbulence numOctaves="100000000"/></filter>', "octaves"),
    ('<filter id="f"><feConvolveMatrix order="500" kernelMatrix="1"/></filter>', "order 500"),
    ('<filter id="f"><feMorphology radius="1e9"/></filter>', "radius"),
    ("".join(f'<filter id="f{i}"><feFlood/></filter>' for i in range(80)), "filter steps"),
    ('<g id="a0"><rect width="1" height="1"/></g>' + "".join(
        f'<g id="a{i}">' + f'<use href="#a{i - 1}"/>' * 10 + "</g>" for i in range(1, 8)), "<use>"),
])
def test_an_icon_svg_that_reaches_outside_or_costs_without_bound_is_refused_at_its_line(demo_set, cli, body, words):
    (demo_set / "icons").mkdir()
    (demo_set / "icons" / "sun.svg").write_text(_SVG.format(body))
    text = (demo_set / "set.yaml").read_text().replace("\nfactions:", "\nicons:\n  sun: icons/sun.svg\n\nfactions:", 1)
    (demo_set / "set.yaml").write_text(text)
    line = text.splitlines().index("  sun: icons/sun.svg") + 1
    r = cli("validate", "demo", cwd=demo_set.parent.parent)
    assert r.returncode == 1 and f"set.yaml:{line}" in r.stderr and words in r.stderr, r.stderr


def test_a_layers_svg_picture_is_held_to_the_same_rule_when_drawn(tmp_path):
    from cardsmith.layout.paint import ArtError, _icon_raster

    svg = tmp_path / "p.svg"
    svg.write_text(_SVG.format('<image href="/etc/passwd" width="10" height="10"/>'))
    with pytest.raises(ArtError, match="outside file"):
        _icon_raster(str(svg), 20)


def test_a_font_linked_to_outside_the_fonts_folder_is_refused(tmp_path):
    from cardsmith.base.errors import CardsmithError
    from cardsmith.base.project import BUNDLED_FONTS
    from cardsmith.layout.fonts import FontLibrary

    fonts = tmp_path / "fonts"
    fonts.mkdir()
    elsewhere = tmp_path / "elsewhere.ttf"
    elsewhere.write_bytes(next(BUNDLED_FONTS.rglob("*.ttf")).read_bytes())
    (fonts / "x.ttf").symlink_to(elsewhere)
    with pytest.raises(CardsmithError, match="outside"):
        FontLibrary([fonts])


def test_a_csv_import_into_a_card_file_linked_outside_is_refused(demo_set, cli, tmp_path):
    (tmp_path / "victim.yaml").write_text("cards: []\n")
    (demo_set / "more.yaml").symlink_to(tmp_path / "victim.yaml")
    csv = tmp_path / "more.csv"
    csv.write_text("id,name,type,cost,power,health\nnew_one,New One,creature,1,1,1\n")
    r = cli("import-csv", str(csv), "--set", "demo", "--file", "more.yaml", cwd=demo_set.parent.parent)
    assert r.returncode == 1 and "not inside the set folder" in r.stderr, r.stderr
    assert (tmp_path / "victim.yaml").read_text() == "cards: []\n"


# ---- 3. writes only where asked ---------------------------------------------------------------------

@pytest.mark.parametrize("option", ["--log", "--log-position"])
@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_play_refuses_to_replace_a_pipe_or_a_folder(option, kind, cli, tmp_path):
    target = tmp_path / "target"
    os.mkfifo(target) if kind == "fifo" else target.mkdir()
    r = cli("play", "transwar", "--games", "1", option, str(target))
    # a folder is refused by the option's own check (a usage error), a pipe by cardsmith's
    assert r.returncode in (1, 2) and ("is a pipe" if kind == "fifo" else "is a directory") in r.stderr, r.stderr
    assert (target.is_fifo() if kind == "fifo" else target.is_dir())


def test_a_device_is_never_replaced(tmp_path):
    from cardsmith.base.atomic import write_text
    from cardsmith.base.errors import CardsmithError
    from cardsmith.base.untrusted import writable_file

    for device in ("/dev/null", "/dev/full"):
        if os.path.exists(device):
            with pytest.raises(CardsmithError, match="is a device"):
                writable_file(device, "--log-position")
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    with pytest.raises(CardsmithError, match="is a pipe"):
        write_text(fifo, "x")  # every atomic write holds the rule, not only the command-line options
    assert fifo.is_fifo() and writable_file(tmp_path / "new.yaml", "--out") == tmp_path / "new.yaml"


def test_deck_random_out_refuses_a_folder(demo_set, cli):
    (demo_set.parent.parent / "here").mkdir()
    r = cli("deck", "random", "demo", "--out", "here", cwd=demo_set.parent.parent)
    assert r.returncode != 0 and "Traceback" not in r.stderr


_FORMULAS = ["=HYPERLINK(\"http://x\")", "+1+2", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]


def test_exported_csv_cells_never_start_a_formula_and_import_reads_them_back(demo_set, cli, tmp_path):
    import csv
    import io

    from cardsmith.share.data import csv_text
    from cardsmith.sets.validate import load_set

    text = (demo_set / "cards.yaml").read_text()
    assert "name: Dawn Scout" in text
    (demo_set / "cards.yaml").write_text(text.replace("name: Dawn Scout", 'name: "=HYPERLINK(\\"http://x\\")"', 1))
    rows = list(csv.DictReader(io.StringIO(csv_text(load_set(demo_set)))))
    assert any(r["name"] == "'=HYPERLINK(\"http://x\")" for r in rows)
    assert all(not v.startswith(("=", "+", "@", "\t", "\r")) for r in rows for v in r.values() if v)
    assert all(not v.startswith("-") or v.lstrip("-").replace(".", "").isdigit() for r in rows for v in r.values() if v)
    from cardsmith.base.untrusted import csv_cell, csv_text_of

    for f in _FORMULAS:
        assert csv_cell(f).startswith("'") and csv_text_of(csv_cell(f)) == f
    assert csv_cell("-3") == "-3" and csv_cell(-3) == -3 and csv_cell("Dawn") == "Dawn"


def test_print_shop_order_csv_names_are_text(demo_set, cli):
    import csv

    project = demo_set.parent.parent
    text = (demo_set / "cards.yaml").read_text()
    (demo_set / "cards.yaml").write_text(text.replace("name: Dawn Scout", "name: \"@SUM(1+1)\"", 1))
    assert cli("render", "demo", cwd=project).returncode == 0
    r = cli("export", "demo", "--shop", "makeplayingcards", cwd=project)
    assert r.returncode == 0, r.stderr
    (order,) = (project / "output").rglob("order.csv")
    names = [row["name"] for row in csv.DictReader(order.open())]
    assert "'@SUM(1+1)" in names and not any(n.startswith(("=", "+", "-", "@")) for n in names)


def test_control_characters_in_a_deck_files_card_names_are_shown_escaped(demo_set, cli):
    deck = demo_set / "decks" / "esc.txt"
    deck.write_text("2x Dawn\x1b]0;owned\x07Scout\x1b[2J\n")
    r = cli("deck", "check", str(deck), cwd=demo_set.parent.parent)
    assert r.returncode == 1 and "\x1b" not in r.stderr + r.stdout and "\\x1b]0;owned" in r.stderr


# ---- 4. bounded everything ------------------------------------------------------------------------------

_HEAD = 'layers:\n  - rect: {x: 0mm, y: 0mm, w: 10mm, h: 10mm, fill: "#000000"}\n'
_BOMB = "".join(f"{c}: &{c} [" + ",".join([f"*{p}"] * 10 if p else ['"x"'] * 10) + "]\n"
                for p, c in zip(["", "a", "b", "c", "d", "e", "f", "g", "h"], "abcdefghi"))


@pytest.mark.parametrize("body,words", [
    ('{{ range(100000)|join("x" * 50000) }}', "joining"),
    ('{{ "a".ljust(10**9) }}', "width of 1,000,000,000"),
    ('{{ "a"|center(1000000000) }}', "center filter"),
    ('{{ "%1000000000s"|format("a") }}', "% format"),
    ('{{ "%*s" % (1000000000, "a") }}', "% format"),
    ('{{ "{:>1000000000}".format("a") }}', "a format"),
    ('{{ "ab"|replace("", "x" * 90000) }}', "replace"),
    ('{% set ns = namespace(s="ab") %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}', "made with +"),
    (_BOMB, "expands to more than"),
    ("{% for i in range(3000) %}  - rect: {x: 0mm, y: 0mm, w: 1mm, h: 1mm}\n{% endfor %}", "3,001 layers"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", "took more than 0.3 s"),
    ('{% set ns = namespace(s="ab") %}{% for i in range(26) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}', "made with ~"),
    ('{% set ns = namespace(s=[]) %}{% for i in range(3000) %}{% set ns.s = ns.s + [ns.s] %}{% endfor %}'
     '{{ ns.s|string|length }}', "grew the memory"),
])
def test_a_layout_over_its_budget_is_an_error_naming_the_card_in_validate_and_render(demo_set, cli, monkeypatch, body, words):
    from cardsmith.layout import template

    monkeypatch.setattr(template, "LAYOUT_SECONDS", 0.3 if "took" in words else 5.0)
    monkeypatch.setattr(template, "MAX_LAYOUT_MEMORY", 24 * 1024 * 1024)
    (demo_set / "layouts").mkdir()
    text = (_HEAD + body) if "layers" not in body and "&" not in body else body.replace("\n  - rect", "\n  - rect", 1)
    if "range(3000)" in body:
        text = _HEAD + body
    elif "&a" in body:
        text = body + _HEAD
    (demo_set / "layouts" / "card.yaml.j2").write_text(text)
    project = demo_set.parent.parent
    r = cli("validate", "demo", cwd=project)
    assert r.returncode == 1 and words in r.stderr and "card '" in r.stderr and "card.yaml.j2" in r.stderr, r.stderr
    assert r.stderr.count("card.yaml.j2") <= 2  # one error for the layout, not one per card
    r = cli("render", "demo", cwd=project)
    assert r.returncode == 1 and words in r.stderr and "Traceback" not in r.stderr, r.stderr


def _add_to_set(demo_set: Path, yaml_text: str) -> int:
    text = (demo_set / "set.yaml").read_text() + "\n" + yaml_text
    (demo_set / "set.yaml").write_text(text)
    return len(text.splitlines()) - len(yaml_text.splitlines()) + 1


def test_tokens_come_under_the_print_limit(demo_set, cli):
    items = ", ".join(f"{{id: t{i}}}" for i in range(21))
    line = _add_to_set(demo_set, f"tokens:\n  chip: {{shape: round, size: 20mm, copies: 999, items: [{items}]}}\n")
    r = cli("validate", "demo", cwd=demo_set.parent.parent)
    assert r.returncode == 1 and f"set.yaml:{line + 1}" in r.stderr and "20,979 pieces" in r.stderr, r.stderr


@pytest.mark.parametrize("size", ["0mm", "0"])
def test_a_token_of_size_zero_is_an_error_at_its_line(demo_set, cli, size):
    line = _add_to_set(demo_set, f"tokens:\n  chip:\n    shape: round\n    size: {size}\n")
    r = cli("validate", "demo", cwd=demo_set.parent.parent)
    assert r.returncode == 1 and f"set.yaml:{line + 3}" in r.stderr and "size of 0 mm" in r.stderr, r.stderr


def test_jobs_are_capped_at_the_cores(demo_set, cli):
    from cardsmith.base.limits import cores

    r = cli("render", "demo", "--jobs", "10000", cwd=demo_set.parent.parent)
    assert r.returncode == 0 and f"using {cores()}" in r.stderr, r.stderr


@pytest.mark.parametrize("option", ["--search-decks", "--budget"])
def test_balance_game_counts_have_a_cap(cli, option):
    r = cli("balance", "transwar", option, str(10 ** 12))
    assert r.returncode == 2 and "give 0 to 100,000 games" in r.stderr, r.stderr


@pytest.mark.parametrize("address,words", [
    ("file:///etc/passwd", "names a file"), ("inproc://x", "in-process"), ("tls://127.0.0.1:8786", "certificates"),
    ("ws://127.0.0.1:8786", "websocket"), ("ucx://127.0.0.1:8786", "UCX"), ("tcp://127.0.0.1", "not a scheduler address"),
    ("tcp://127.0.0.1:99999", "not a scheduler address"), ("local:10000", "more than the"),
])
def test_cluster_addresses_are_checked_with_a_sentence(cli, address, words):
    r = cli("play", "transwar", "--games", "1", "--cluster", address)
    assert r.returncode == 2 and words in r.stderr and "bug in cardsmith" not in r.stderr, r.stderr


def test_a_cluster_address_that_is_a_web_server_is_refused_within_the_handshake_time(cli, monkeypatch):
    import socket
    import threading

    from cardsmith.cli import _cluster_address

    monkeypatch.setattr(_cluster_address, "CLUSTER_HANDSHAKE_SECONDS", 0.5)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held = []
    threading.Thread(target=lambda: held.append(server.accept()), daemon=True).start()  # accepts, never speaks
    try:
        r = cli("play", "transwar", "--players", "2", "--games", "1", "--cluster", f"tcp://127.0.0.1:{server.getsockname()[1]}")
    finally:
        server.close()
    assert r.returncode == 2 and "did not answer as a Dask scheduler" in r.stderr, r.stderr


def test_a_huge_deck_file_and_many_unknown_cards_are_quick_errors(demo_set):
    from cardsmith.base.errors import CardsmithError
    from cardsmith.decks import load_deck
    from cardsmith.decks.files import DeckFileError
    from cardsmith.sets.validate import load_set

    cardset = load_set(demo_set)
    big = demo_set / "decks" / "big.txt"
    big.write_text("1x Dawn Scout\n" * 100_000)
    with pytest.raises(CardsmithError, match="more than a deck file needs"):
        load_deck(big, cardset)
    unknown = demo_set / "decks" / "unknown.txt"
    unknown.write_text("".join(f"1x Dawn Scout{i}\n" for i in range(5_000)))
    with pytest.raises(DeckFileError) as e:
        load_deck(unknown, cardset)
    hints = [d.hint or "" for d in e.value.diagnostics]
    assert len(hints) == 5_000 and e.value.diagnostics[-1].line == 5_000
    assert "Dawn Scout" in hints[0] and sum("Dawn Scout" in h for h in hints) == 20  # suggestions cost a scan each


def test_a_huge_position_is_refused_before_it_is_checked(tmp_path, monkeypatch):
    from cardsmith.base import limits
    from cardsmith.base.errors import CardsmithError
    from cardsmith.engine.registry import load_game
    from cardsmith.simulation.sets import read_position
    from cardsmith.sets.validate import load_set

    game = load_game(load_set(Path(__file__).resolve().parent.parent / "cards" / "transwar"))
    pos = tmp_path / "p.yaml"
    from cardsmith.engine.kit.positions import FORMAT

    monkeypatch.setattr(limits, "MAX_POSITION_VALUES", 1_000)  # the rule, at a size a test reads quickly
    pos.write_text(f"game: transwar\nformat: {FORMAT}\nseats:\n  - deck: [" + ",".join(["x"] * 2_000) + "]\n")
    with pytest.raises(CardsmithError, match="more than 1,000 values"):
        read_position(pos, game)
    pos.write_bytes(b"# " + b"x" * 600_000)
    with pytest.raises(CardsmithError, match="bytes"):
        read_position(pos, game)


# ---- 5. internal errors become sentences -------------------------------------------------------------

@pytest.mark.parametrize("line,words", [
    ("9" * 5000 + "x Dawn Scout", "more than any deck holds"),
    ("Dawn Scout x" + "9" * 5000, "more than any deck holds"),
    ("\u0663x Dawn Scout", "no card named"),  # Arabic-Indic three: not a count
    ("\u0663 Dawn Scout", "main holds 1 cards"),  # the name, once: not three copies
])
def test_deck_counts_of_thousands_of_digits_or_other_scripts_are_clear_errors(demo_set, cli, line, words):
    deck = demo_set / "decks" / "odd.txt"
    deck.write_text(line + "\n")
    r = cli("deck", "check", str(deck), cwd=demo_set.parent.parent)
    out = r.stdout + r.stderr
    assert r.returncode == 1 and words in out and "odd.txt:1" in out and "bug" not in out, out


@pytest.mark.parametrize("value,words", [(".nan", "beyond any card"), (".inf", "beyond any card"),
                                         ("-.inf", "beyond any card"), ("1e308mm", "beyond any card")])
def test_layout_lengths_that_are_no_number_are_errors_naming_the_layer(demo_set, cli, value, words):
    (demo_set / "layouts").mkdir()
    (demo_set / "layouts" / "card.yaml.j2").write_text(
        f'layers:\n  - rect: {{box: [{value}, 0mm, 10mm, 10mm], fill: "#000000"}}\n')
    r = cli("render", "demo", cwd=demo_set.parent.parent)
    assert r.returncode == 1 and words in r.stderr and "layer 1 (rect)" in r.stderr and "bug" not in r.stderr, r.stderr


def test_a_text_size_beyond_reason_blames_the_layout_not_the_font(demo_set, cli):
    (demo_set / "layouts").mkdir()
    (demo_set / "layouts" / "card.yaml.j2").write_text(
        'layers:\n  - text: {box: [0mm, 0mm, 10mm, 10mm], value: "hi", size: 100000pt}\n')
    r = cli("render", "demo", cwd=demo_set.parent.parent)
    assert r.returncode == 1 and "more than 1000 pt" in r.stderr and ".ttf" not in r.stderr, r.stderr


def test_the_watch_server_answers_a_null_byte_and_a_non_utf8_page(tmp_path):
    import socket
    import urllib.error
    import urllib.request

    from cardsmith.share.watch import LiveState, serve

    (tmp_path / "latin1.html").write_bytes("<p>caf\u00e9</p>".encode("latin-1"))
    (tmp_path / "leak.html").symlink_to(Path("/etc/hostname") if Path("/etc/hostname").exists() else tmp_path / "x")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = serve(tmp_path, LiveState(), "/", "127.0.0.1", port)
    try:
        statuses = []
        for path in ("/%00", "/latin1.html", "/leak.html", "/a%00b.html"):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
                    statuses.append((r.status, r.read().decode("utf-8")))
            except urllib.error.HTTPError as e:
                statuses.append((e.code, ""))
    finally:
        server.shutdown()
    assert statuses[0][0] in (400, 404) and statuses[3][0] in (400, 404)
    assert statuses[1][0] == 200 and "caf" in statuses[1][1]
    assert statuses[2][0] == 404


def _store_with_one_game(tmp_path: Path, total: int = 3):
    from cardsmith.engine.runner import GameRecord
    from cardsmith.simulation._taskstore import TaskStore

    store = TaskStore(tmp_path / ".tasks", "key", total)
    store.start(resume=False)
    store.save([GameRecord(index=0, seed=7, deck_ids=(0, 1), decks=("a", "b"), agents=("random", "random"),
                           ranks=(0, 1), end_reason="win", turns=3, cards_played=(("x",), ()),
                           decisions=(1, 1), think_seconds=(0.1, 0.2))])
    return store


@pytest.mark.parametrize("edit,words", [
    (lambda d: d.__setitem__("index", 10 ** 9), "index 1000000000 is not one of this run's 3 games"),
    (lambda d: d.__setitem__("index", -5), "index -5"),
    (lambda d: d.__setitem__("ranks", ["first", "second"]), "wrong type"),
    (lambda d: d.__setitem__("deck_ids", "01"), "deck_ids"),
    (lambda d: d.pop("turns"), "not a game record"),
    (lambda d: d.__setitem__("first_actor", 9), "wrong type"),
])
def test_a_damaged_resume_record_is_refused_before_any_game_is_played(tmp_path, edit, words):
    from cardsmith.base.errors import CardsmithError

    store = _store_with_one_game(tmp_path)
    assert [r.index for r in store.start(resume=True)] == [0]  # as written, it resumes
    (part,) = store.folder.glob("part-*.json")
    data = json.loads(part.read_text())
    edit(data[0])
    part.write_text(json.dumps(data))
    with pytest.raises(CardsmithError) as e:
        store.start(resume=True)
    assert words in str(e.value) and part.name in str(e.value) and "entry 0" in str(e.value)


@pytest.mark.parametrize("run_json", ["[]", "5", "{", '{"key": []}'])
def test_a_damaged_run_json_is_a_sentence(tmp_path, run_json):
    from cardsmith.base.errors import CardsmithError

    store = _store_with_one_game(tmp_path)
    (store.folder / "run.json").write_text(run_json)
    with pytest.raises(CardsmithError, match="--resume"):
        store.start(resume=True)


@pytest.mark.parametrize("manifest", ['{"cards": 5}', '{"cards": [{"id": 3}]}', '{"cards": {"x": 1}}', "[]", "{"])
def test_gallery_compare_with_a_damaged_manifest_is_a_sentence(demo_set, cli, tmp_path, manifest):
    import shutil

    project = demo_set.parent.parent
    assert cli("render", "demo", cwd=project).returncode == 0
    old = tmp_path / "old"
    shutil.copytree(project / "output" / "demo", old)
    (old / "cards" / "manifest.json").write_text(manifest)
    r = cli("gallery", "demo", "--compare", str(old), cwd=project)
    assert r.returncode == 1 and "manifest.json is damaged" in r.stderr and "bug" not in r.stderr, r.stderr


@pytest.mark.parametrize("records", ["[]", '{"records": 5}', '{"records": {"dawn-scout": 7}}', '{"records": []}'])
def test_gallery_compare_with_damaged_records_compares_the_images(demo_set, cli, tmp_path, records):
    import shutil

    project = demo_set.parent.parent
    assert cli("gallery", "demo", cwd=project).returncode == 0
    old = tmp_path / "old"
    shutil.copytree(project / "output" / "demo", old)
    (old / "gallery" / "gallery.json").write_text(records)
    r = cli("gallery", "demo", "--compare", str(old), cwd=project)
    assert r.returncode == 0 and "bug" not in r.stderr, r.stderr


@pytest.mark.parametrize("game,edit,words", [
    ("alien-empires", {"out": [0, 1]}, "every seat is out"),
    ("alien-empires", {"worlds": {}}, "holds no worlds"),
    ("transwar", {"attack": {"attacker": 0, "defender": 0}}, "attacks itself"),
])
def test_positions_the_rules_cannot_mean_are_errors_naming_the_entry(cli, tmp_path, game, edit, words):
    import yaml

    pos = tmp_path / "start.yaml"
    assert cli("play", game, "--players", "2", "--games", "1", "--jobs", "1", "--log-position", str(pos)).returncode == 0
    data = yaml.safe_load(pos.read_text())
    data.update(edit)
    pos.write_text(yaml.safe_dump(data))
    r = cli("play", game, "--games", "1", "--jobs", "1", "--from", str(pos))
    assert r.returncode == 1 and words in r.stderr and "start.yaml" in r.stderr and "bug" not in r.stderr, r.stderr
