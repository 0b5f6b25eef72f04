"""What the machine gives a run: the cores it may use (standard library only)."""

from __future__ import annotations

import os


def available_cores() -> int:
    """The cores this process may run on (fewer than the machine has in a container or under taskset)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
