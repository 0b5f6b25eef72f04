"""Outputs are written whole or not at all, with the permissions a plain open() would give."""

from __future__ import annotations

import os
import stat

import pytest

from cardsmith.base.atomic import atomic_path, write_bytes, write_text


def test_a_write_replaces_the_file_whole_and_leaves_nothing_beside_it(tmp_path):
    target = tmp_path / "deep" / "card.json"
    write_text(target, "one")
    write_bytes(target, b"two")
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["card.json"]


def test_a_failed_write_keeps_the_old_file_and_removes_its_temporary(tmp_path):
    target = tmp_path / "card.png"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            assert tmp.parent == tmp_path and tmp.suffix == ".png" and tmp.name.startswith(".card.png.")
            tmp.write_bytes(b"half")
            raise RuntimeError("crash")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["card.png"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_files_get_the_permissions_open_would_give(tmp_path):
    old = os.umask(0o027)
    try:
        target = write_text(tmp_path / "a.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_temporary_names_do_not_collide(tmp_path):
    names = set()
    for _ in range(50):
        with atomic_path(tmp_path / "x.pdf") as tmp:
            names.add(tmp.name)
            tmp.write_bytes(b"%PDF")
    assert len(names) == 50


# ---- spare_path: a large file rewritten into its previous version's file -----------------------------

from cardsmith.base import atomic


def _write_spare(target, data: bytes) -> None:
    with atomic.spare_path(target) as f:
        f.write(data)


def test_a_spare_write_replaces_the_target_and_keeps_the_old_version_as_the_next_spare(tmp_path):
    target = tmp_path / "deck.pdf"
    spare = tmp_path / ".deck.pdf.spare"
    _write_spare(target, b"first version, long" * 100)
    _write_spare(target, b"second")
    assert target.read_bytes() == b"second"
    if not atomic.exchange(spare, target):  # no swap on this system: renamed over, nothing kept
        assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.pdf"]
        return
    atomic.exchange(spare, target)  # (swap back)
    old_inode = spare.stat().st_ino
    assert spare.read_bytes() == b"first version, long" * 100
    _write_spare(target, b"third")  # written over the first version's file, cut to length
    assert target.read_bytes() == b"third" and target.stat().st_ino == old_inode
    assert spare.read_bytes() == b"second"
    assert not [p for p in tmp_path.iterdir() if p.name not in ("deck.pdf", ".deck.pdf.spare")]


def test_a_failed_spare_write_keeps_the_target_and_removes_the_spare(tmp_path):
    target = tmp_path / "deck.pdf"
    _write_spare(target, b"old")
    _write_spare(target, b"older?")
    before = target.read_bytes()
    with pytest.raises(KeyboardInterrupt):
        with atomic.spare_path(target) as f:
            f.write(b"half")
            raise KeyboardInterrupt
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["deck.pdf"]


def test_without_a_swap_the_spare_is_renamed_over_the_target(tmp_path, monkeypatch):
    monkeypatch.setattr(atomic, "exchange", lambda a, b: False)
    target = tmp_path / "deck.pdf"
    _write_spare(target, b"one")
    _write_spare(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.pdf"]


@pytest.mark.skipif(os.name != "posix", reason="symbolic and hard links, flock")
@pytest.mark.parametrize("planted", ["symlink", "hardlink", "locked"])
def test_a_spare_that_is_not_ours_alone_is_left_alone(tmp_path, planted):
    import fcntl

    target = tmp_path / "deck.pdf"
    target.write_bytes(b"old")
    spare = tmp_path / ".deck.pdf.spare"
    other = tmp_path / "someone-elses.pdf"
    other.write_bytes(b"keep me")
    held = None
    if planted == "symlink":
        spare.symlink_to(other)
    elif planted == "hardlink":
        os.link(other, spare)
    else:
        spare.write_bytes(b"another pdf run is writing this")
        held = open(spare, "rb")
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
    try:
        _write_spare(target, b"new")
    finally:
        if held:
            held.close()
    assert target.read_bytes() == b"new"
    assert other.read_bytes() == b"keep me"
    if planted == "locked":
        assert spare.read_bytes() == b"another pdf run is writing this"


def test_without_file_locks_a_spare_write_is_a_plain_atomic_write(tmp_path, monkeypatch):
    """Windows has no fcntl: the spare is never used there, and the write is `atomic_open`'s."""
    import builtins

    real_import = builtins.__import__

    def no_fcntl(name, *args, **kwargs):
        if name == "fcntl":
            raise ImportError("No module named 'fcntl'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_fcntl)
    target = tmp_path / "deck.pdf"
    _write_spare(target, b"one")
    _write_spare(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.pdf"]
