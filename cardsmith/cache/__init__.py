"""Everything kept to skip or speed up work: stamps, kept files and skip rules, behind one switch
(`CARDSMITH_NO_CACHE=1` turns every cache off: `off()`)."""

import os

SWITCH = "CARDSMITH_NO_CACHE"


def off() -> bool:
    """Whether caches are off (`CARDSMITH_NO_CACHE` set to anything but empty or 0): nothing kept is then
    read or written, and every result is made again. Asked on each use, so a test or a long-lived process
    can turn it on and off."""
    return os.environ.get(SWITCH, "").strip() not in ("", "0")
