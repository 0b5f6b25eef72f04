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
