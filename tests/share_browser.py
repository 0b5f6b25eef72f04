"""A headless chromium for the gallery tests: Debian's package driven by playwright (never `playwright install`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "output" / "test-screenshots"
BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def browser_path() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.fail("no headless chromium found: install the Debian package chromium-headless-shell "
                "(bash scripts/test.sh installs what scripts/system-packages.txt lists)")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install '.[test]' brings playwright")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=browser_path(), args=ARGS)
        yield b
        b.close()


class Page:
    """A page plus everything it said on the console and every request it made."""

    def __init__(self, browser, url: str, width: int = 1280, height: int = 900):
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(url)
        self.page.wait_for_load_state("load")

    def visible_ids(self) -> list[str]:
        return self.page.eval_on_selector_all("#grid li:not([hidden])", "els => els.map(e => e.dataset.id)")

    def close(self) -> None:
        self.context.close()


def shot(page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    page.screenshot(path=str(path))
    with Image.open(path) as im:
        colours = im.convert("RGB").resize((64, 64)).getcolors(64 * 64)
    assert colours is not None and len(colours) > 20, "the screenshot is blank"
    return path
