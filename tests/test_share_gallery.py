"""The HTML gallery in a real headless browser (Debian's chromium, driven by playwright; nothing downloads a browser).

Checks what a playtester does: filter, search, sort, open a card, move with the keyboard, on a desktop
and on a phone-sized screen, with no console errors and no network requests. Screenshots are written
to output/test-screenshots/ so a person can look at them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardsmith.share.compare import compare, earlier_build
from cardsmith.share.images import read_manifest
from cardsmith.share.gallery import build_gallery
from cardsmith.base.project import Project
from cardsmith.sets.validate import load_set
from share_browser import Page, browser, shot  # noqa: F401  (browser is a fixture)
from share_fixture import fake_render, make_set


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("gallery")
    set_dir, cs = make_set(root)
    project = Project(root)
    fake_render(project.set_output("mini"), cs)
    page = build_gallery(project, cs, read_manifest(project.set_output("mini")))
    return project, cs, page


def test_filters_search_sort_and_large_view(browser, built):
    project, cs, page_file = built
    p = Page(browser, page_file.as_uri())
    page = p.page
    try:
        assert page.title() == "Mini Empires - card gallery"
        assert page.inner_text("#count").startswith("All 6 cards (7 copies")
        # every thumbnail loaded and has alt text that says what the card is
        imgs = page.eval_on_selector_all("#grid img", "els => els.map(e => [e.alt, e.naturalWidth])")
        assert len(imgs) == 6 and all(alt and width > 0 for alt, width in imgs)
        assert any(alt.startswith("Chain Reaver: Ship, The Chain. class battleship, attack 9") for alt, _ in imgs)

        page.select_option("#f-type", "event")
        assert sorted(p.visible_ids()) == ["blackest-night", "solar-flare"]
        assert page.inner_text("#count").startswith("Showing 2 of 6 cards")
        page.select_option("#f-g-race", "chain")
        assert p.visible_ids() == ["blackest-night"]
        # facet counts follow the other filters: with race=chain, 2 ships and 1 event remain
        assert page.inner_text("#f-type option[value=ship]") == "Ship (2)"
        page.click("#reset")
        assert len(p.visible_ids()) == 6

        # declared fields filter too: the enum `class`
        page.select_option("#f-field-class", "fighter")
        assert sorted(p.visible_ids()) == ["chain-skiff", "tcs-13-rapier"]
        page.click("#reset")
        page.fill("#q", "battleship")  # a field's value
        assert p.visible_ids() == ["chain-reaver"]
        page.fill("#q", "enemy damage")  # a keyword's reminder text
        assert sorted(p.visible_ids()) == ["chain-reaver", "tcs-13-rapier"]
        page.fill("#q", "draw")  # rules text
        assert sorted(p.visible_ids()) == ["chain-reaver", "solar-flare"]
        page.fill("#q", "home interceptor")  # every word, any order
        assert p.visible_ids() == ["tcs-13-rapier"]
        page.fill("#q", "zzz")
        assert p.visible_ids() == [] and page.is_visible("#empty")
        page.fill("#q", "")

        page.select_option("#f-keyword", "shield")
        assert sorted(p.visible_ids()) == ["chain-reaver", "tcs-13-rapier"]
        page.select_option("#f-keyword", "*")

        page.select_option("#sort", "n:attack")
        page.click("#dir")  # descending
        assert p.visible_ids()[:4] == ["chain-reaver", "tcs-40-broadsword", "tcs-13-rapier", "chain-skiff"]
        assert set(p.visible_ids()[4:]) == {"solar-flare", "blackest-night"}  # no attack: last either way
        page.select_option("#sort", "name")
        page.click("#dir")
        assert p.visible_ids()[0] == "blackest-night"

        page.click("#grid li[data-id=chain-reaver] button")
        assert page.is_visible("#view")
        assert page.inner_text("#v-name") == "Chain Reaver"
        fields = page.inner_text("#v-fields")
        assert "Attack" in fields and "9" in fields and "battleship" in fields
        assert "Shield 1: Reduce enemy damage rolls by 1." in page.inner_text("#v-keywords")
        assert page.inner_text("#v-flavor") == "Nothing escapes the Chain."
        # The large image loads after the click: wait for it (a picture that never loads times out and fails).
        page.wait_for_function("() => { const e = document.querySelector('#v-images img');"
                               " return e !== null && e.complete && e.naturalWidth > 0; }", timeout=10_000)
        shot(page, "gallery-large-view.png")
        page.keyboard.press("ArrowRight")
        assert page.inner_text("#v-name") == "Chain Skiff"  # next in the current (name) order
        page.keyboard.press("Escape")
        assert not page.is_visible("#view")
        # focus returns to the card last shown (the dialog's close event runs as its own task: wait for it)
        page.wait_for_function("document.activeElement.dataset.id === 'chain-skiff'", timeout=5000)

        assert p.problems == []
        assert all(u.startswith("file://") for u in p.requests), [u for u in p.requests if not u.startswith("file://")]
        shot(page, "gallery-desktop.png")
    finally:
        p.close()


def test_keyboard_only(browser, built):
    _, _, page_file = built
    p = Page(browser, page_file.as_uri())
    page = p.page
    try:
        page.keyboard.press("/")
        assert page.evaluate("document.activeElement.id") == "q"
        page.keyboard.type("chain")
        page.keyboard.press("Escape")  # clears the search
        assert page.input_value("#q") == "" and len(p.visible_ids()) == 6
        page.click("#reset")  # after Clear, "/" still jumps to the search box and is not typed into it
        page.keyboard.press("/")
        assert page.evaluate("document.activeElement.id") == "q" and page.input_value("#q") == ""
        page.keyboard.press("/")
        assert page.input_value("#q") == ""
        page.focus("#grid li[data-id=solar-flare] button")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.id") == "blackest-night"
        page.keyboard.press("End")
        assert page.evaluate("document.activeElement.dataset.id") == "chain-skiff"
        page.keyboard.press("Enter")
        assert page.is_visible("#view") and page.inner_text("#v-name") == "Chain Skiff"
        assert page.inner_text("#v-pos") == "6 of 6"
        assert p.problems == []
    finally:
        p.close()


def test_links_to_a_card_and_filters_survive_a_reload(browser, built):
    _, _, page_file = built
    p = Page(browser, page_file.as_uri() + "#type=ship&card=tcs-13-rapier")
    try:
        assert p.page.is_visible("#view") and p.page.inner_text("#v-name") == "TCS-13 Rapier"
        assert len(p.visible_ids()) == 4 and p.page.input_value("#f-type") == "ship"
    finally:
        p.close()


def test_phone_sized_screen(browser, built):
    _, _, page_file = built
    p = Page(browser, page_file.as_uri(), 390, 844)
    page = p.page
    try:
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390  # nothing sticks out sideways
        lefts = page.eval_on_selector_all("#grid li", "els => els.slice(0, 3).map(e => [e.offsetLeft, e.offsetTop])")
        assert lefts[0][1] == lefts[1][1] and lefts[2][1] > lefts[0][1]  # two cards a row
        shot(page, "gallery-phone.png")
        page.click("#grid li[data-id=chain-reaver] button")
        box = page.eval_on_selector("#view", "e => e.getBoundingClientRect().toJSON()")
        assert box["width"] <= 390 and page.is_visible("#v-close")
        shot(page, "gallery-phone-large-view.png")
        assert p.problems == []
    finally:
        p.close()


def test_index_page_links_every_set(browser, built):
    project, cs, page_file = built
    import json

    from cardsmith.share.gallery import GALLERY_JSON, build_index

    meta_file = project.set_output("mini") / "gallery" / GALLERY_JSON
    meta = json.loads(meta_file.read_text())
    meta["description"] = "A set whose description runs to several lines beside its cover. " * 2
    meta_file.write_text(json.dumps(meta))
    index = build_index(project)
    p = Page(browser, index.as_uri())
    try:
        assert "Mini Empires" in p.page.inner_text(".sets") and "6 cards" in p.page.inner_text(".sets")
        assert p.page.eval_on_selector(".sets img", "e => e.naturalWidth") > 0  # the cover thumbnail
        shown, natural = p.page.eval_on_selector(
            ".sets img", "e => [e.getBoundingClientRect().height / e.getBoundingClientRect().width, e.naturalHeight / e.naturalWidth]")
        assert shown == pytest.approx(natural, rel=0.02)  # the cover keeps its shape, not the row's height
        p.page.click(".sets a")
        p.page.wait_for_load_state("load")
        assert p.page.url == page_file.as_uri() and p.page.title() == "Mini Empires - card gallery"
        p.page.click("text=All sets")
        assert p.page.url == index.as_uri()
        assert p.problems == []
    finally:
        p.close()


def _changed_build(root: Path):
    """A set built once (the 'earlier build', copied aside), then edited: one card changed, one removed, one added."""
    set_dir, cs = make_set(root)
    project = Project(root)
    out = project.set_output("mini")
    fake_render(out, cs)
    build_gallery(project, cs, read_manifest(out))
    old = root / "old-build"
    shutil.copytree(out, old)
    ships = set_dir / "ships.yaml"
    text = ships.read_text().replace("    attack: 2\n    armour: 6", "    attack: 3\n    armour: 6")
    text = text[:text.index("  - id: chain-skiff")]
    ships.write_text(text + "  - id: chain-lancer\n    name: Chain Lancer\n    race: chain\n    class: cruiser\n"
                            "    attack: 4\n    armour: 9\n")
    cs2 = load_set(set_dir)
    shutil.rmtree(out / "cards")
    fake_render(out, cs2, changed={"tcs-13-rapier": (40, 160, 90)})
    return project, cs2, old


def test_compare_with_a_folder_of_an_earlier_build(browser, tmp_path):
    project, cs, old = _changed_build(tmp_path)
    rs = read_manifest(project.set_output("mini"))
    with earlier_build(project, cs, str(old)) as before:
        comparison = compare(cs, rs, before)
        page_file = build_gallery(project, cs, rs, comparison=comparison)
    statuses = {cid: ch.status for cid, ch in comparison.changes.items()}
    assert statuses["tcs-13-rapier"] == "changed" and statuses["chain-skiff"] == "removed"
    assert statuses["chain-lancer"] == "added" and statuses["chain-reaver"] == "same"
    assert "attack: 2 -> 3" in comparison.changes["tcs-13-rapier"].what and "image" in comparison.changes["tcs-13-rapier"].what

    p = Page(browser, page_file.as_uri())
    page = p.page
    try:
        assert "1 added" in page.inner_text(".compare-summary") and "1 removed" in page.inner_text(".compare-summary")
        page.select_option("#f-status", "changed")
        assert p.visible_ids() == ["tcs-13-rapier"]
        page.click("#grid li[data-id=tcs-13-rapier] button")
        captions = page.eval_on_selector_all("#v-images figcaption", "els => els.map(e => e.textContent)")
        assert captions == ["Before", "After"]
        page.wait_for_function("() => [...document.querySelectorAll('#v-images img')]"
                               ".every(e => e.complete && e.naturalWidth > 0)", timeout=10_000)  # both load after the click
        assert "attack: 2 -> 3" in page.inner_text("#v-changes")
        shot(page, "gallery-compare.png")
        page.keyboard.press("Escape")
        page.select_option("#f-status", "removed")
        assert p.visible_ids() == ["chain-skiff"]
        assert page.inner_text("#grid li[data-id=chain-skiff] .badge").lower() == "removed"
        assert p.problems == []
    finally:
        p.close()


def test_compare_with_something_that_is_neither_folder_nor_revision(tmp_path):
    from cardsmith.base.errors import CardsmithError
    project, cs, _ = _changed_build(tmp_path)
    with pytest.raises(CardsmithError, match="neither a folder nor a git revision"):
        with earlier_build(project, cs, "no-such-thing-v9"):
            pass
