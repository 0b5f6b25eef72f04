"""A `--cluster` address checked before a run relies on it (issue 32): a scheme Dask can reach here,
a port, and a peer that speaks first as a Dask scheduler does, within a few seconds. An HTTP port
otherwise hung the run, `local:10000` ran out of file handles, and `file://` and the like ended in
"a bug in cardsmith"."""

from __future__ import annotations

import re
import socket

from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.base.limits import CLUSTER_HANDSHAKE_SECONDS, cores

_REFUSED = {
    "file": "names a file, not a scheduler",
    "inproc": "is Dask's in-process transport, which another process cannot reach",
    "tls": "needs certificates cardsmith does not configure",
    "ws": "is Dask's websocket transport, which cardsmith does not configure",
    "wss": "is Dask's websocket transport, which cardsmith does not configure",
    "ucx": "needs UCX networking, which cardsmith does not configure",
}
_HINT = "give a scheduler's tcp://HOST:PORT (start one with `dask scheduler`), or local[:N]"


def check_cluster(spec: str, handshake: bool = True) -> None:
    """A UsageError unless `spec` is `local[:N]` with N at most the cores, or a tcp:// scheduler's
    address (with `handshake`, one that answers as a scheduler; one that cannot be reached is a
    CardsmithError, exit 1, as when the run loses it)."""
    text = spec.strip()
    if text == "local" or text.startswith("local:"):
        n = text.partition(":")[2]
        if n.isdigit() and int(n) > cores():
            raise UsageError(f"--cluster {spec}: {int(n):,} workers is more than the {cores()} cores here",
                             hint=f"--cluster local:{cores()}")
        return  # the rest is the cluster module's to judge
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    scheme = scheme.lower()
    if scheme in _REFUSED:
        raise UsageError(f"--cluster {spec}: {scheme}:// {_REFUSED[scheme]}", hint=_HINT)
    m = re.fullmatch(r"\[?([A-Za-z0-9.\-:]+?)\]?:(\d{1,5})/?", rest)
    if scheme != "tcp" or not m or not 0 < int(m.group(2)) < 65536:
        raise UsageError(f"--cluster {spec}: not a scheduler address", hint=_HINT)
    if handshake:
        _handshake(spec, m.group(1), int(m.group(2)))


def _handshake(spec: str, host: str, port: int) -> None:
    """A Dask scheduler writes its handshake as soon as a connection opens; a web server or an SSH
    daemon waits for the client or greets in text."""
    try:
        with socket.create_connection((host, port), timeout=CLUSTER_HANDSHAKE_SECONDS) as s:
            first = s.recv(8)
    except socket.timeout:
        raise UsageError(f"--cluster {spec}: the server there did not answer as a Dask scheduler within "
                         f"{CLUSTER_HANDSHAKE_SECONDS:g} s (a web server's port?)", hint=_HINT) from None
    except OSError as e:
        raise CardsmithError(f"cannot reach the Dask scheduler at {spec}: {e.strerror or e}",
                             hint="start one with `dask scheduler` and workers with `dask worker ADDRESS` "
                                  "(docs/distributed.md), or use --cluster local:N") from None
    if not first or first[:4] in (b"HTTP", b"SSH-") or first[:1].isalpha():
        raise UsageError(f"--cluster {spec}: the server there is not a Dask scheduler", hint=_HINT)
