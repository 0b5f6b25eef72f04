"""Write files so that a reader never sees half of one: write beside the target, then rename."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO, Iterator

from cardsmith.base.errors import CardsmithError


@contextlib.contextmanager
def atomic_path(target: Path | str, suffix: str | None = None) -> Iterator[Path]:
    """Yield a temporary path next to `target`; on success it replaces `target`, on error it is removed.

    `suffix` defaults to the target's own, so libraries that pick a format by extension still work.
    """
    from cardsmith.base.untrusted import writable_file

    target = writable_file(target, "cannot write")  # a rename would replace a device, a pipe or a folder
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp_path = _new_file(target, suffix if suffix is not None else target.suffix)
    except OSError as e:
        raise CardsmithError(f"cannot write {target}: {e.strerror}", hint="check that the folder exists and is writable") from e
    try:
        yield tmp_path
        os.replace(tmp_path, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp_path.unlink()
        raise


_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _new_file(target: Path, suffix: str) -> Path:
    """A new, empty file beside `target` with an unguessable name, made as tempfile.mkstemp makes one
    (exclusively, never through a link) but with the permissions open() gives (0666 less the umask),
    and without importing tempfile (with shutil and random: a tenth of a quick command's start-up)."""
    for _ in range(100):
        tmp = target.with_name(f".{target.name}.{os.urandom(6).hex()}{suffix}")
        try:
            os.close(os.open(tmp, _FLAGS, 0o666))
            return tmp
        except FileExistsError:
            continue
    raise FileExistsError(17, "no free temporary name", str(target.parent))


@contextlib.contextmanager
def atomic_open(target: Path | str, mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO]:
    """Open a temporary file for writing that becomes `target` only when the block succeeds."""
    if "b" in mode:
        encoding = None
    with atomic_path(target) as tmp, open(tmp, mode, encoding=encoding) as fh:
        yield fh


def write_text(target: Path | str, text: str) -> Path:
    with atomic_open(target) as fh:
        fh.write(text)
    return Path(target)


def write_bytes(target: Path | str, data: bytes) -> Path:
    with atomic_open(target, "wb") as fh:
        fh.write(data)
    return Path(target)
