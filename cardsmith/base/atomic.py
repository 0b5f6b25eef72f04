"""Write files so that a reader never sees half of one: write beside the target, then rename.

`spare_path` is the same promise for a large file rewritten again and again (a PDF brought up to
date by appending a few images): it rewrites the previous version's file in place and swaps it
with the target in one step, so the old version is never freed and a new one never allocated.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path
TYPE_CHECKING = False  # typing is not imported at run time (on the path of a `pdf` answered by cardsmith.cli._quick)
if TYPE_CHECKING:
    from typing import IO, Iterator

from cardsmith.base.errors import CardsmithError


@contextlib.contextmanager
def atomic_path(target: Path | str, suffix: str | None = None) -> Iterator[Path]:
    """Yield a temporary path next to `target`; on success it replaces `target`, on error it is removed.

    `suffix` defaults to the target's own, so libraries that pick a format by extension still work.
    """
    target = Path(target)
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


# ---- large files rewritten often: write into the previous version's file, then swap ----------------

RENAME_EXCHANGE = 2  # linux/fs.h
AT_FDCWD = -100


@contextlib.contextmanager
def spare_path(target: Path | str) -> Iterator[IO[bytes]]:
    """A binary file that replaces `target` when the block succeeds, as `atomic_open` gives, but
    written over the spare file beside it (`.<name>.spare`, the previous version of `target`)
    instead of a new one. Swapped with the target in one step where the system can (Linux's
    RENAME_EXCHANGE), the old version becomes the next spare; else it is renamed over the target.

    Why: replacing a 30 MB PDF makes the file system free the old file's pages and allocate the new
    one's blocks at once, about 35 ms of a one-card rebuild's 110; overwriting the spare's pages
    costs neither. The spare is written from its start, not emptied first (that too frees its
    pages), and cut to length at the end. Another process writing the same target, a spare that
    is linked elsewhere (a second name a user gave an old PDF) or not a plain file: a new
    temporary file, as `atomic_open`. On error the spare is removed and `target` left as it was.
    """
    target = Path(target)
    spare = target.with_name(f".{target.name}.spare")
    fh = _open_spare(spare)
    if fh is None:
        with atomic_open(target, "wb") as plain:
            yield plain
        return
    try:
        with fh:
            yield fh
            fh.truncate()
        if not exchange(spare, target):
            os.replace(spare, target)
    except BaseException:
        with contextlib.suppress(OSError):
            spare.unlink()
        raise


def _open_spare(spare: Path) -> IO[bytes] | None:
    """The spare, open for writing from its start and locked for this process; None when it cannot be used
    (Windows has no flock: a new temporary file each time there)."""
    try:
        import fcntl
    except ImportError:
        return None
    import stat

    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(spare, flags, 0o666)
    except OSError:
        return None  # a link planted as the spare (ELOOP), or a folder that cannot be written: the plain way
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
            raise OSError("not a spare")
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a second `pdf` of the same file writes its own
        return os.fdopen(fd, "r+b")
    except OSError:
        os.close(fd)
        return None


def exchange(a: Path | str, b: Path | str) -> bool:
    """Swap the files named `a` and `b` in one step: a reader of either name sees one file or the
    other, never neither. False, with nothing changed, where the system or file system cannot."""
    if sys.platform != "linux":
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2  # glibc 2.28 and later
    except (ImportError, OSError, AttributeError):
        return False
    renameat2.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint)
    if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EXDEV, errno.ENOENT, getattr(errno, "ENOTSUP", errno.EINVAL)):
        return False  # an older kernel, a file system without it (NFS, overlay), or no target yet
    raise OSError(err, os.strerror(err), str(b))
