"""Write files so that a reader never sees half of one: write beside the target, then rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
TYPE_CHECKING = False  # typing is not imported at run time (on the path of a `pdf` answered by cardsmith.quick)
if TYPE_CHECKING:
    from typing import IO, Iterator

from cardsmith.errors import CardsmithError

# Read once at import: os.umask can only be read by setting it, which is not safe once threads run.
_UMASK = os.umask(0o022)
os.umask(_UMASK)


@contextlib.contextmanager
def atomic_path(target: Path | str, suffix: str | None = None) -> Iterator[Path]:
    """Yield a temporary path next to `target`; on success it replaces `target`, on error it is removed.

    `suffix` defaults to the target's own, so libraries that pick a format by extension still work.
    """
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=suffix if suffix is not None else target.suffix)
    except OSError as e:
        raise CardsmithError(f"cannot write {target}: {e.strerror}", hint="check that the folder exists and is writable") from e
    os.close(fd)
    tmp_path = Path(tmp)
    os.chmod(tmp_path, 0o666 & ~_UMASK)  # mkstemp makes files private (0600); give what open() would
    try:
        yield tmp_path
        os.replace(tmp_path, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp_path.unlink()
        raise


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
