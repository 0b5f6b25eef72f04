"""Golden images: a few cards of the test set compared with stored renders, with a tolerance.

After an intended change to the painter or the bundled layouts, look at the new images, then
regenerate the goldens with:

    CARDSMITH_UPDATE_GOLDEN=1 python -m pytest tests/test_render_golden.py

(they are written to tests/golden/; commit them with the change).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from cardsmith.base.project import Project
from cardsmith.render.batch import render_set
from cardsmith.sets.validate import load_set

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
FACES = ["cards/rapier", "cards/longbow", "cards/ion-storm", "cards/mines", "cards/sol-like-star",
         "cards/ringed-planet", "cards/old-relic", "backs/fleet", "backs/solar-bodies"]
DPI = 100
MEAN_TOLERANCE = 1.5  # mean absolute difference per channel (0..255): font hinting may vary a little
PIXEL_TOLERANCE = 0.01  # share of pixels allowed to differ by more than 48 levels


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("golden")
    shutil.copytree(HERE / "fixtures" / "mini-empires", root / "cards" / "mini-empires")
    project = Project(root)
    result = render_set(project, load_set(root / "cards" / "mini-empires"), dpi=DPI, jobs=1)
    assert result.ok, [d.message for d in result.errors]
    return project.set_output("mini-empires")


@pytest.mark.parametrize("face", FACES)
def test_matches_golden(rendered, face):
    got = Image.open(rendered / f"{face}.png").convert("RGB")
    golden = GOLDEN / (face.replace("/", "-") + ".png")
    if os.environ.get("CARDSMITH_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        got.save(golden, optimize=True)
        pytest.skip("golden image written")
    assert golden.is_file(), f"no golden image {golden}; see this file's docstring"
    want = Image.open(golden).convert("RGB")
    assert got.size == want.size
    mean, far = _difference(got, want)
    assert mean <= MEAN_TOLERANCE and far <= PIXEL_TOLERANCE, f"{face}: mean diff {mean:.2f}, {far:.2%} pixels far off"


def _difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """Mean channel difference, and the share of pixels whose grey difference exceeds 48."""
    diff = ImageChops.difference(a, b)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    far = sum(diff.convert("L").histogram()[49:]) / (a.width * a.height)
    return mean, far


def test_the_comparison_notices_a_real_change(rendered):
    """A moved name bar must fail the tolerance: the test can fail."""
    got = Image.open(rendered / "cards/rapier.png").convert("RGB")
    shifted = ImageChops.offset(got, 0, 6)
    mean, far = _difference(got, shifted)
    assert mean > MEAN_TOLERANCE or far > PIXEL_TOLERANCE
