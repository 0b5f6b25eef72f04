"""Sharing on top of the real renderer: commands end to end, compare with a git revision, watch re-rendering."""

from __future__ import annotations

import json
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("cardsmith.render.batch", reason="rendering lands from the render branch")

from cardsmith.base.project import Project  # noqa: E402
from cardsmith.share.watch import Watcher  # noqa: E402
from share_fixture import make_set  # noqa: E402


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.org", "-c", "user.name=t", *args], cwd=cwd, check=True,
                   capture_output=True)


def test_gallery_compare_with_a_git_revision(tmp_path, cli):
    set_dir, _ = make_set(tmp_path)
    _git(tmp_path, "init", "-q", ".")
    _git(tmp_path, "add", "cards")
    _git(tmp_path, "commit", "-qm", "v1")
    ships = set_dir / "ships.yaml"
    ships.write_text(ships.read_text().replace("    attack: 2\n", "    attack: 3\n"))
    events = set_dir / "events.yaml"
    events.write_text(events.read_text()[:events.read_text().index("  - id: blackest-night")])
    r = cli("gallery", "mini", "--compare", "HEAD", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "1 changed, 1 removed, 4 unchanged" in r.stdout
    page = (tmp_path / "output" / "mini" / "gallery" / "index.html").read_text()
    data = json.loads(page.split('id="cards-data">')[1].split("</script>")[0])
    status = {c["id"]: c["status"] for c in data}
    assert status["tcs-13-rapier"] == "changed" and status["blackest-night"] == "removed"
    rapier = next(c for c in data if c["id"] == "tcs-13-rapier")
    assert "attack: 2 -> 3" in rapier["changes"] and "image" in rapier["changes"]  # the printed number changed
    assert (tmp_path / "output" / "mini" / "gallery" / rapier["before"]["large"]).is_file()


def test_commands_end_to_end_with_real_images(tmp_path, cli):
    make_set(tmp_path)
    for args in (["gallery", "mini"], ["sheet", "mini"], ["export", "mini", "--tts", "--json", "--csv"]):
        r = cli(*args, cwd=tmp_path)
        assert r.returncode == 0, (args, r.stderr)
    out = tmp_path / "output" / "mini"
    assert (out / "cards" / "manifest.json").is_file() and (out / "gallery" / "thumbs" / "tcs-13-rapier.jpg").is_file()
    saved = json.loads((out / "tts" / "mini.json").read_text())
    assert {o["Nickname"] for o in saved["ObjectStates"]} == {"Ship", "Event"}


def test_watch_rerenders_exactly_the_changed_card(tmp_path):
    set_dir, _ = make_set(tmp_path)
    results = []

    def render(project, cardset, only):
        from cardsmith.render.batch import render_set
        result = render_set(project, cardset, only=only, jobs=1)
        results.append(result)
        return result

    watcher = Watcher(Project(tmp_path), set_dir, render=render, echo=lambda s: None)
    stop, ready = threading.Event(), []
    thread = threading.Thread(target=watcher.run, kwargs={"port": 0, "stop": stop, "on_ready": ready.append}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not ready and time.monotonic() < deadline:
            time.sleep(0.05)
        base = ready[0].split("/mini/")[0]
        status = lambda: json.loads(urllib.request.urlopen(base + "/__cardsmith/status", timeout=5).read())
        image = tmp_path / "output" / "mini" / "cards" / "chain-skiff.png"
        before = image.read_bytes()
        time.sleep(0.3)
        ships = set_dir / "ships.yaml"
        ships.write_text(ships.read_text().replace("    armour: 3\n", "    armour: 4\n"))
        started = time.monotonic()
        while status()["version"] < 2 and time.monotonic() - started < 30:
            time.sleep(0.05)
        assert status()["version"] == 2
        assert sorted(results[-1].rendered) == ["chain-skiff"]
        assert image.read_bytes() != before
    finally:
        stop.set()
        thread.join(10)
