"""A render worker ends with the command that started it (killed by a timeout, say), not minutes later."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

SCRIPT = """
import os, sys, time
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    from cardsmith.render.draw import _end_with_parent
    _end_with_parent()
    os.write(w, b"ready")
    time.sleep(60)  # a worker still drawing
    os._exit(0)
os.read(r, 5)
print(pid, flush=True)
os._exit(0)  # the command dies; its worker must follow
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has ended (only nobody has reaped it yet)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_worker_whose_command_died_ends_too():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    worker = int(done.stdout.split()[0])
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = _alive(worker)
    if alive:
        os.kill(worker, 9)
    assert not alive
