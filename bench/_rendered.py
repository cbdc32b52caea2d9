"""The options of the benches that render throws or views and work them out in
parallel: how many, in how many processes, from which seed."""

from __future__ import annotations

import argparse

# ``--size WxH`` as (w, h), checked: the kiosk's own parser of the option.
from kiosk.commands.kiosk import _size as picture_size

__all__ = ["options", "picture_size"]


def options(doc: str, n: int, seed: int, size: bool = False) -> argparse.Namespace:
    """``--n`` (``n``), ``--jobs`` (2), ``--seed`` (``seed``), with ``size`` also
    ``--size`` (the cameras' pictures, 1280x720); the first line of ``doc`` is the
    help's description."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--n", type=int, default=n, help="how many")
    ap.add_argument("--jobs", type=int, default=2, help="processes")
    ap.add_argument("--seed", type=int, default=seed, help="the first seed")
    if size:
        ap.add_argument("--size", type=picture_size, default=(1280, 720), metavar="WxH",
                        help="the cameras' pictures")  # fmt: skip
    return ap.parse_args()
