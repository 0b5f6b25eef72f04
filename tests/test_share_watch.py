"""Watch mode: the live server, re-rendering exactly what a save changed, errors shown while it keeps running."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.request

import pytest
from PIL import Image

from cardsmith.base.errors import CardsmithError
from cardsmith.base.project import Project
from cardsmith.sets.validate import load_set
from cardsmith.share.watch import LiveState, Watcher, cards_to_render, serve
from share_browser import Page, browser  # noqa: F401  (browser is a fixture)
from share_fixture import fake_render, make_set


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.status, r.read().decode("utf-8")


def _wait(predicate, timeout: float = 15.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


class Recorder:
    """Stands in for render_set: draws every card as the fixture does and remembers which ids were asked for."""

    def __init__(self):
        self.calls: list[list[str] | None] = []

    def __call__(self, project, cardset, only):
        self.calls.append(None if only is None else list(only))
        fake_render(project.set_output(cardset.id), cardset, dpi=40)


@contextlib.contextmanager
def running_watcher(project, set_dir, recorder):
    """A watcher serving on a free port in a thread: yields (gallery url, status(), thread); stops it after."""
    watcher = Watcher(project, set_dir, render=recorder, echo=lambda s: None)
    stop, ready = threading.Event(), []
    thread = threading.Thread(target=watcher.run, kwargs={"port": 0, "stop": stop, "on_ready": ready.append}, daemon=True)
    thread.start()
    try:
        url = _wait(lambda: ready and ready[0])
        base = url.split("/mini/")[0]
        yield url, lambda: json.loads(_get(base + "/__cardsmith/status")[1]), thread
    finally:
        stop.set()
        thread.join(10)


def test_a_save_rerenders_only_that_card_and_errors_show_while_it_keeps_running(tmp_path):
    set_dir, _ = make_set(tmp_path)
    project = Project(tmp_path)
    recorder = Recorder()
    with running_watcher(project, set_dir, recorder) as (url, status, thread):
        assert recorder.calls == [None] and status() == {"version": 1, "errors": []}
        code, html = _get(url)
        assert code == 200 and '<script src="/__cardsmith/live.js"></script></body>' in html and "TCS-13 Rapier" in html
        assert _get(url.split("/mini/")[0] + "/")[0] == 200  # redirects to the gallery
        time.sleep(0.3)  # let the file watcher settle before the first edit

        ships = set_dir / "ships.yaml"
        good = ships.read_text()
        ships.write_text(good.replace("    attack: 2\n", "    attack: 3\n"))
        _wait(lambda: status()["version"] >= 2)
        assert recorder.calls[-1] == ["tcs-13-rapier"]

        ships.write_text(good.replace("    attack: 2\n", "    attack: lots\n"))
        errors = _wait(lambda: status()["errors"])
        assert any("ships.yaml" in e and "attack" in e for e in errors), errors
        assert _get(url)[0] == 200  # still serving the last good gallery
        calls = len(recorder.calls)

        ships.write_text(good.replace("    attack: 2\n", "    attack: 5\n").replace("    armour: 20\n", "    armour: 21\n"))
        _wait(lambda: not status()["errors"])
        assert len(recorder.calls) == calls + 1
        assert sorted(recorder.calls[-1]) == ["chain-reaver", "tcs-13-rapier"]
        assert "attack 5" in _get(url)[1]  # the rebuilt gallery shows the new value
    assert not thread.is_alive()


def test_port_in_use_is_a_clear_error(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(CardsmithError) as e:
            serve(tmp_path, LiveState(), "/", "127.0.0.1", port)
    assert f"port {port} on 127.0.0.1 is already in use" in str(e.value) and "--port" in str(e.value)


def test_cli_watch_on_a_busy_port_exits_1_without_traceback(tmp_path, cli):
    make_set(tmp_path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = cli("watch", "mini", "--port", str(port), cwd=tmp_path)
    assert r.returncode == 1 and f"port {port} on 127.0.0.1 is already in use" in r.stderr
    assert "Traceback" not in r.stderr


def test_which_cards_a_change_touches(tmp_path):
    set_dir, old = make_set(tmp_path)
    templates = tmp_path / "templates" / "mini"
    fonts = tmp_path / "fonts"
    kw = {"template_dirs": [tmp_path / "templates"], "font_dirs": [fonts]}
    ships = {c.id for c in old.cards if c.type == "ship"}
    every = {c.id for c in old.cards}
    assert cards_to_render(old, old, [templates / "ship.yaml.j2"], **kw) == ships
    assert cards_to_render(old, old, [templates / "_frame.yaml.j2"], **kw) == every  # shared: anything may use it
    assert cards_to_render(old, old, [fonts / "Lato-Regular.ttf"], **kw) == every
    assert cards_to_render(None, old, [], **kw) == every
    (set_dir / "art").mkdir()
    Image.new("RGB", (8, 8), "orange").save(set_dir / "art" / "flare.png")  # validation opens art files
    events = set_dir / "events.yaml"
    events.write_text(events.read_text().replace("    energy: 2\n", "    energy: 2\n    art: art/flare.png\n"))
    new = load_set(set_dir)
    assert cards_to_render(old, new, [events], **kw) == {"solar-flare"}  # its data changed
    assert cards_to_render(new, new, [set_dir / "art" / "flare.png"], **kw) == {"solar-flare"}  # its art changed
    # a card inserted above others moves their line numbers, which is no change to them
    ships_file = set_dir / "ships.yaml"
    ships_file.write_text(ships_file.read_text().replace(
        "cards:\n", "cards:\n  - {id: scout, name: Scout, race: chain, class: fighter, attack: 0, armour: 1}\n", 1))
    assert cards_to_render(new, load_set(set_dir), [ships_file], **kw) == {"scout"}


def test_an_open_page_reloads_itself_and_shows_errors(tmp_path, browser):
    set_dir, _ = make_set(tmp_path)
    with running_watcher(Project(tmp_path), set_dir, Recorder()) as (url, _, _):
        p = Page(browser, url)
        page = p.page
        assert page.inner_text("#grid li[data-id=chain-skiff] .name") == "Chain Skiff"
        time.sleep(0.3)
        ships = set_dir / "ships.yaml"
        good = ships.read_text()
        ships.write_text(good.replace("name: Chain Skiff", "name: Chain Skimmer"))
        page.wait_for_function("document.querySelector('#grid li[data-id=chain-skiff] .name').textContent === 'Chain Skimmer'",
                               timeout=15000)
        ships.write_text(good.replace("    armour: 3\n", "    armour: many\n"))
        page.wait_for_selector("#cardsmith-live:not([hidden])", timeout=15000)
        assert "ships.yaml" in page.inner_text("#cardsmith-live") and "armour" in page.inner_text("#cardsmith-live")
        ships.write_text(good)
        page.wait_for_function("document.querySelector('#grid li[data-id=chain-skiff] .name').textContent === 'Chain Skiff'",
                               timeout=15000)
        assert [m for m in p.problems if "favicon" not in m] == []
        p.close()


def test_starting_on_a_broken_set_serves_a_waiting_page_until_it_is_fixed(tmp_path):
    set_dir, _ = make_set(tmp_path)
    ships = set_dir / "ships.yaml"
    good = ships.read_text()
    ships.write_text(good.replace("    armour: 3\n", "    armour: many\n"))
    recorder = Recorder()
    with running_watcher(Project(tmp_path), set_dir, recorder) as (url, status, _):
        assert any("armour" in e for e in status()["errors"]) and recorder.calls == []
        code, html = _get(url)
        assert code == 200 and "Waiting for a valid set" in html and "/__cardsmith/live.js" in html
        time.sleep(0.3)
        ships.write_text(good)
        _wait(lambda: not status()["errors"])
        assert recorder.calls == [None]  # the first good build renders everything
        assert "Chain Skiff" in _get(url)[1]
