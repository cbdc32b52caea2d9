"""Which pixels of a dart are its grey part (``axis.solid_grey``): a dart seen nearly
end-on is found along the line from its flight through its grey point and barrel, so
the blended rim where a coloured vane meets the board must not count as grey."""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.adapters.camera.axis import solid_grey

PURPLE = (182, 39, 163)  # BGR
BOARD = (170, 190, 200)


def _picture() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A purple vane with a two-pixel rim blended with the board, and a grey barrel:
    the image and the masks of the barrel and of the rim."""
    img = np.full((60, 80, 3), BOARD, np.uint8)
    vane = np.zeros((60, 80), np.uint8)
    cv2.rectangle(vane, (10, 25), (70, 31), 1, -1)
    rim = cv2.dilate(vane, np.ones((5, 5), np.uint8)) - vane
    img[vane > 0] = PURPLE
    img[rim > 0] = (150, 140, 150)  # blended by JPEG: neither the vane's colour nor the board's
    barrel = np.zeros((60, 80), np.uint8)
    cv2.rectangle(barrel, (30, 40), (41, 48), 1, -1)
    img[barrel > 0] = (97, 97, 97)
    return img, barrel.astype(bool), rim.astype(bool)


def _points(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    return np.column_stack([xs, ys]).astype(np.float32)


def test_the_barrel_is_grey_and_the_vanes_blended_rim_is_not() -> None:
    img, barrel, rim = _picture()
    dart = barrel | rim | np.all(img == PURPLE, axis=2)
    pts = _points(dart)
    grey = solid_grey(img, pts)
    xi, yi = pts[:, 0].astype(int), pts[:, 1].astype(int)
    assert grey[barrel[yi, xi]].all()
    assert not grey[rim[yi, xi]].any()
    assert not grey[np.all(img[yi, xi] == PURPLE, axis=1)].any()


def test_a_grey_picture_is_all_grey_and_nothing_is_grey_in_an_all_coloured_dart() -> None:
    img, barrel, _ = _picture()
    pts = _points(barrel)
    assert solid_grey(cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR),
                      pts).all()  # fmt: skip
    assert not solid_grey(np.full_like(img, PURPLE), pts).any()
