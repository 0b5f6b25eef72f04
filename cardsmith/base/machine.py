"""What the machine gives a run: the cores it may use. Standard library only, so that a command can
ask before it imports anything heavy (`cardsmith.cli._aside` decides to fork on it)."""

from __future__ import annotations

import os


def available_cores() -> int:
    """The cores this process may run on (fewer than the machine has in a container or under taskset)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
