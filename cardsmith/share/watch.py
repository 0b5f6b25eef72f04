"""`cardsmith watch`: a live preview. Serve the gallery on localhost, re-render what changed, reload the page.

A save in the set folder, a layout or a font is validated first; an invalid set shows its errors in the
terminal and in the page and the watcher keeps running with the last good cards. A valid change is
traced to the cards it touches (a card's own data or art, a type's layout, or everything when set-wide
declarations, icons, fonts or shared layouts change), only those are re-rendered, the gallery is
rebuilt (its thumbnails only where images changed), and open pages reload themselves: they poll a
tiny status endpoint twice a second, which works in every browser and needs no extra library.
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import http.server
import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from cardsmith.base.untrusted import inside
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import Card, CardSet
from cardsmith.base.project import Project

STATUS_PATH = "/__cardsmith/status"
LIVE_JS_PATH = "/__cardsmith/live.js"
IGNORED_NAMES = ("~", ".swp", ".swx", ".tmp", ".part")

LIVE_JS = """(function () {
  "use strict";
  var seen = null, box = null, failures = 0;
  function banner(html, kind) {
    if (!box) {
      box = document.createElement("div");
      box.setAttribute("role", "alert");
      box.id = "cardsmith-live";
      box.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:99;max-height:45vh;overflow:auto;" +
        "padding:.75rem 1rem;font:14px/1.4 ui-monospace,monospace;white-space:pre-wrap;box-shadow:0 -2px 12px rgba(0,0,0,.3)";
      document.body.appendChild(box);
    }
    box.style.background = kind === "error" ? "#fde8e6" : "#eef1f7";
    box.style.color = kind === "error" ? "#7a1410" : "#1d2a44";
    box.textContent = html;
    box.hidden = !html;
  }
  function tick() {
    fetch("%(status)s", {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (s) {
      failures = 0;
      if (seen !== null && s.version !== seen && !s.errors.length) { location.reload(); return; }
      seen = s.version;
      banner(s.errors.length ? "cardsmith: the set has errors (showing the last good cards)\\n\\n" + s.errors.join("\\n") : "", "error");
    }).catch(function () {
      if (++failures > 2) banner("cardsmith watch has stopped; this page no longer updates.", "info");
    }).then(function () { setTimeout(tick, 500); });
  }
  tick();
})();
""" % {"status": STATUS_PATH}


@dataclass
class LiveState:
    """What open pages poll: a version that changes on every rebuild, and the current errors."""

    version: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def publish(self, errors: list[str]) -> None:
        with self.lock:
            self.version += 1
            self.errors = list(errors)

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return {"version": self.version, "errors": list(self.errors)}


class LiveHandler(http.server.SimpleHTTPRequestHandler):
    """Serves output/ without caching, adds the live-reload script to HTML pages, and the status endpoint."""

    def __init__(self, *args: Any, state: LiveState, start_page: str, **kwargs: Any):
        self.state = state
        self.start_page = start_page
        super().__init__(*args, **kwargs)

    def log_message(self, format: str, *args: Any) -> None:  # the terminal is for cardsmith's own messages
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def _send(self, body: bytes, content_type: str, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        """A page, or a short error status: a request is never a traceback and a dropped connection."""
        try:
            self._get()
        except (ValueError, OSError):  # `/%00` (a null byte in a path), an unreadable file
            self.send_error(400, "bad request")

    def _get(self) -> None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path == STATUS_PATH:
            return self._send(json.dumps(self.state.snapshot()).encode(), "application/json")
        if path == LIVE_JS_PATH:
            return self._send(LIVE_JS.encode(), "text/javascript; charset=utf-8")
        if path == "/":
            self.send_response(302)
            self.send_header("Location", self.start_page)
            self.end_headers()
            return
        local = Path(self.translate_path(path))
        if not inside(local, self.directory):  # a link under output/ to elsewhere is not served
            return self.send_error(404, "not found")
        if local.is_dir() and (local / "index.html").is_file() and path.endswith("/"):
            local = local / "index.html"
        if local.suffix == ".html":
            if local.is_file():
                text = local.read_text(encoding="utf-8", errors="replace")  # a page written elsewhere, in another encoding
            elif path == self.start_page:  # no good build yet: a page that shows the errors and waits
                text = "<!doctype html><meta charset=utf-8><title>cardsmith watch</title><body><p>Waiting for a valid set...</p></body>"
            else:
                return super().do_GET()
            tag = f'<script src="{LIVE_JS_PATH}"></script>'
            text = text.replace("</body>", tag + "</body>") if "</body>" in text else text + tag
            return self._send(text.encode("utf-8"), "text/html; charset=utf-8")
        return super().do_GET()


def serve(directory: Path, state: LiveState, start_page: str, host: str = "127.0.0.1",
          port: int = 8000) -> http.server.ThreadingHTTPServer:
    """Start serving `directory` in a background thread; a port in use is a clear error."""
    handler = functools.partial(LiveHandler, directory=str(directory), state=state, start_page=start_page)
    try:
        server = http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as e:
        if e.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)):
            raise CardsmithError(f"port {port} on {host} is already in use",
                                 hint=f"another program (perhaps another cardsmith watch) serves there; pick another "
                                      f"port with --port {port + 1}, or --port 0 for any free one") from None
        if e.errno == errno.EACCES:
            raise CardsmithError(f"not allowed to use port {port} on {host}", hint="use a port above 1024, e.g. --port 8000") from None
        raise CardsmithError(f"cannot serve on {host}:{port}: {e.strerror or e}", hint="check --host and --port") from None
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="cardsmith-watch-http", daemon=True).start()
    return server


# ------------------------------------------------------------------------------------------ what changed

def _without_source(card: Card) -> Card:
    return dataclasses.replace(card, source=None)


def _set_level(cardset: CardSet) -> tuple:
    """Everything of a set that every card's look may depend on."""
    return (cardset.card_size, cardset.bleed, cardset.safe, dict(cardset.types), dict(cardset.races),
            dict(cardset.factions), dict(cardset.keywords), dict(cardset.icons), dict(cardset.layouts), cardset.layout_folders,
            json.dumps(cardset.backs, sort_keys=True, default=str), cardset.name, cardset.version)


def _resolve(p: Path | str, base: Path) -> Path:
    p = Path(p)
    return (p if p.is_absolute() else base / p).resolve()


def cards_to_render(old: CardSet | None, new: CardSet, changed: Iterable[Path], *,
                    template_dirs: Iterable[Path] = (), font_dirs: Iterable[Path] = ()) -> set[str]:
    """Ids of the cards of `new` whose image may differ after these file changes."""
    every = {c.id for c in new.cards}
    if old is None or _set_level(old) != _set_level(new):
        return every
    set_dir = Path(new.path).resolve()
    changed = [Path(p).resolve() for p in changed]
    before = {c.id: _without_source(c) for c in old.cards}
    result = {c.id for c in new.cards if before.get(c.id) != _without_source(c)}
    art_of: dict[Path, set[str]] = {}
    for c in new.cards:
        if c.art:
            art_of.setdefault(_resolve(c.art, set_dir), set()).add(c.id)
    icons = {_resolve(p, set_dir) for p in new.icons.values()}
    templates = [Path(d).resolve() for d in template_dirs]
    fonts = [Path(d).resolve() for d in font_dirs]
    layout_types: dict[str, set[str]] = {}
    for type_id in new.types:
        layout_types.setdefault(str(new.layouts.get(type_id, type_id)), set()).add(type_id)
    for path in changed:
        if path in art_of:
            result |= art_of[path]
        elif path in icons or any(path.is_relative_to(f) for f in fonts):
            return every
        elif any(path.is_relative_to(t) for t in templates) or path.name.endswith(".j2"):
            layout = path.name.split(".")[0]
            types = layout_types.get(layout)
            if not types:  # a shared base or an include: any layout may use it
                return every
            result |= {c.id for c in new.cards if c.type in types}
        elif path.is_relative_to(set_dir) and path.suffix not in (".yaml", ".yml"):
            # an image in the set folder that no card names as art yet (a back, a frame): be safe
            if path.suffix.lower() in (".png", ".jpg", ".jpeg", ".svg", ".webp"):
                return every
    return result


# ------------------------------------------------------------------------------------------ the watcher

Checker = Callable[[Path], tuple[CardSet | None, list[Any]]]
Renderer = Callable[[Project, CardSet, list[str] | None], Any]


_last_read: dict = {}  # the cards the last check read (`cardsmith.sets._cardfile`): a save re-reads the edited card only


def _default_check(path: Path) -> tuple[CardSet | None, list[Any]]:
    from cardsmith.sets.validate import check_set

    used: dict = {}
    result = check_set(path, _last_read, used)
    _last_read.clear()
    _last_read.update(used)
    return result


def _default_render(project: Project, cardset: CardSet, only: list[str] | None) -> Any:
    from cardsmith.render.batch import render_set
    return render_set(project, cardset, only=only)


class Watcher:
    """Validate, render and rebuild the gallery of one set whenever its files change."""

    def __init__(self, project: Project, set_dir: Path, *, check: Checker = _default_check,
                 render: Renderer = _default_render, echo: Callable[[str], None] = print):
        self.project = project
        self.set_dir = Path(set_dir).resolve()
        self.check, self.render, self.echo = check, render, echo
        self.state = LiveState()
        self.cardset: CardSet | None = None
        self.last_rendered: set[str] = set()

    def watched_dirs(self) -> list[Path]:
        dirs = [self.set_dir, *self.project.template_dirs, *self.project.font_dirs]
        return [d for d in dict.fromkeys(Path(x).resolve() for x in dirs) if d.is_dir()]

    def rebuild(self, changed: Iterable[Path] | None = None) -> bool:
        """One cycle: validate, re-render what changed, rebuild the gallery, tell the pages. True if it worked."""
        from cardsmith.share.images import read_manifest
        from cardsmith.share.gallery import build_gallery

        started = time.monotonic()
        try:
            cardset, diagnostics = self.check(self.set_dir)
            errors = [d.format(self.project.root) for d in diagnostics if d.is_error]
            if cardset is None or errors:
                self._fail(errors or ["the set could not be read"])
                return False
            if changed is None or self.cardset is None:  # no good build yet: everything
                only = None
            else:
                only = sorted(cards_to_render(self.cardset, cardset, changed,
                                              template_dirs=self.project.template_dirs, font_dirs=self.project.font_dirs))
            warnings: list[str] = []
            if only != []:
                result = self.render(self.project, cardset, only)
                diagnostics = getattr(result, "diagnostics", None) or []
                failed = [d.format(self.project.root) for d in diagnostics if d.is_error]
                if failed:
                    self._fail(failed)
                    return False
                warnings = [d.format(self.project.root) for d in diagnostics if not d.is_error]
            rs = read_manifest(self.project.set_output(cardset.id))
            build_gallery(self.project, cardset, rs)
        except CardsmithError as e:
            self._fail([str(e)])
            return False
        self.cardset = cardset
        self.last_rendered = set(only) if only is not None else {c.id for c in cardset.cards}
        self.state.publish([])
        took = time.monotonic() - started
        for w in warnings:
            self.echo(w)
        if only is None:
            self.echo(f"built {len(cardset.cards)} cards of {cardset.id} in {took:.1f} s")
        elif only:
            shown = ", ".join(only[:6]) + (f" and {len(only) - 6} more" if len(only) > 6 else "")
            self.echo(f"re-rendered {len(only)} card(s) in {took:.1f} s: {shown}")
        else:
            self.echo(f"no card looks different; gallery refreshed in {took:.1f} s")
        return True

    def _fail(self, errors: list[str]) -> None:
        self.state.publish(errors)
        self.echo("the set has errors; showing the last good cards until they are fixed:\n" + "\n".join(errors))

    def run(self, host: str = "127.0.0.1", port: int = 8000, stop: threading.Event | None = None,
            on_ready: Callable[[str], object] | None = None) -> None:
        """Build once, serve, then rebuild on every change until `stop` is set (or Ctrl-C)."""
        import watchfiles

        self.project.output_dir.mkdir(parents=True, exist_ok=True)
        # Take the port before the first (slow) build, so a busy port is reported at once.
        first, _ = self.check(self.set_dir)
        page = f"/{first.id if first is not None else self.set_dir.name}/gallery/index.html"
        server = serve(self.project.output_dir, self.state, page, host, port)
        url = f"http://{host}:{server.server_address[1]}{page}"
        try:
            self.rebuild(None)
        except BaseException:
            server.shutdown()
            server.server_close()
            raise
        self.echo(f"serving {url}  (Ctrl-C stops)")
        if on_ready:
            on_ready(url)
        stop = stop or threading.Event()
        out = self.project.output_dir.resolve()
        try:
            for changes in watchfiles.watch(*self.watched_dirs(), stop_event=stop, step=50, rust_timeout=500,
                                            watch_filter=lambda _c, p: _interesting(Path(p), out), yield_on_timeout=False,
                                            raise_interrupt=False):
                self.rebuild({Path(p) for _, p in changes})
        finally:
            server.shutdown()
            server.server_close()


def _interesting(path: Path, output_dir: Path) -> bool:
    """Skip editor backups, hidden and temporary files (our own atomic writes included) and the output folder."""
    name = path.name
    if name.startswith((".", "#")) or name.endswith(IGNORED_NAMES) or "__pycache__" in path.parts:
        return False
    try:
        path.resolve().relative_to(output_dir)
        return False
    except ValueError:
        return True
