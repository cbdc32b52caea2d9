"""A picture file given to the camera tools (``camera-score``'s BEFORE and AFTER,
``camera-calibrate --image``), read or refused with a one-line reason.

Refused before it is decoded: a picture over ``MAX_PIXELS`` (decoded, a 30000x30000
one takes 2.7 GB: a Pi runs out of memory), whatever its format, and a PNG or JPEG cut
short (a copy or a save that did not finish; libjpeg reading a JPEG from its file
fills the missing part with grey and says only "Premature end of JPEG file", so the
picture was used as if whole).

The size limit is OpenCV's own (``OPENCV_IO_MAX_IMAGE_PIXELS``: every decoder checks
the size its header states against it before it takes memory for the picture), but
OpenCV reads it once, when it is loaded: ``limit_decoding`` sets it, and
``kiosk.cli`` calls it before any command loads OpenCV. PNG and JPEG sizes are also
read here, to say the size. Nothing heavy is imported at the top: the CLI imports this
module before each command is chosen.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

MAX_PIXELS = 120_000_000  # larger pictures are refused before they are decoded
OPENCV_LIMIT = "OPENCV_IO_MAX_IMAGE_PIXELS"
HEADER_BYTES = 1 << 20  # the size is looked for this far in (a JPEG's EXIF, XMP, ICC)
CUT_SHORT = "cannot read the picture: the file is cut short (a copy or a save that did not finish)"
TOO_LARGE = f"too large to read (at most {MAX_PIXELS // 1_000_000} megapixels)"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def limit_decoding() -> None:
    """OpenCV's decoders refuse pictures over ``MAX_PIXELS`` (a lower limit set in the
    environment stays). Takes effect only when called before OpenCV is loaded."""
    try:
        asked = int(os.environ.get(OPENCV_LIMIT, ""))
    except ValueError:
        asked = MAX_PIXELS
    os.environ[OPENCV_LIMIT] = str(min(asked, MAX_PIXELS) if asked > 0 else MAX_PIXELS)


def read_picture(path: str) -> np.ndarray | str:
    """The picture (BGR), or why not. Read through numpy and ``imdecode`` so a missing
    file is our one-line message, not OpenCV's warning on top of it; a picture cut short
    or too large is told before decoding (libpng would print its own line first)."""
    import cv2
    import numpy as np

    if Path(path).exists() and not Path(path).is_file():  # (a pipe would wait for ever)
        return "not a file"
    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as e:
        return f"cannot read the picture: {e.strerror or e}"
    head, tail = data[:8].tobytes(), data[-64:].tobytes()
    if head == PNG_SIGNATURE and b"IEND" not in tail and b"IEND" not in data.tobytes():
        return CUT_SHORT  # (a PNG ends with IEND; padding after it is harmless)
    if (size := stated_size(data[:HEADER_BYTES].tobytes())) and size[0] * size[1] > MAX_PIXELS:
        return f"the picture is {size[0]}x{size[1]}: {TOO_LARGE}"
    if head[:2] == b"\xff\xd8" and jpeg_cut_short(data.tobytes()):
        return CUT_SHORT
    try:
        img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error as e:  # (its header states a size over OpenCV's limit: ``limit_decoding``)
        if "CV_IO_MAX_IMAGE_" in str(e):
            return f"the picture is {TOO_LARGE}"
        return f"cannot read the picture: OpenCV: {getattr(e, 'err', '') or e}"
    if img is not None:
        return np.asarray(img)
    if head[:2] == b"\xff\xd8" and b"\xff\xd9" not in tail:  # (one not followed above)
        return CUT_SHORT
    return "cannot read the picture: not an image OpenCV knows"


def stated_size(head: bytes) -> tuple[int, int] | None:
    """The size a PNG or JPEG says it is, from its first bytes (None: not told)."""
    if head[:8] == PNG_SIGNATURE and head[12:16] == b"IHDR":
        return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    at = 2 if head[:2] == b"\xff\xd8" else len(head)
    while at + 9 <= len(head) and head[at] == 0xFF:
        if head[at + 1] == 0xFF:  # a fill byte before the marker
            at += 1
            continue
        marker, length = head[at + 1], int.from_bytes(head[at + 2 : at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a frame's start
            return int.from_bytes(head[at + 7 : at + 9], "big"), int.from_bytes(
                head[at + 5 : at + 7], "big")  # fmt: skip
        at += 2 + length
    return None


def jpeg_cut_short(data: bytes) -> bool:
    """Whether a JPEG ends before its end marker (FF D9). Its segments are followed
    from the start, by their lengths, and each scan's coded data to the marker after it
    (in coded data an FF is followed by 00, or is a restart marker): so the end marker
    of a thumbnail in its EXIF is not taken for the picture's, and data after the end
    (a phone's "motion photo" video, padding) is no reason to refuse it. A file whose
    segments cannot be followed is left to the decoder."""
    at, n = 2, len(data)
    while at + 1 < n:
        if data[at] != 0xFF:
            return False  # not a JPEG as written: the decoder says what it makes of it
        marker = data[at + 1]
        if marker == 0xFF:  # a fill byte before the marker
            at += 1
            continue
        if marker == 0xD9:
            return False
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:  # markers with no length
            at += 2
            continue
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
        if marker != 0xDA:
            continue
        while True:  # a scan's coded data, to the next marker
            at = data.find(b"\xff", at)
            if at < 0 or at + 1 >= n:
                return True
            follows = data[at + 1]
            if follows == 0x00 or 0xD0 <= follows <= 0xD7:
                at += 2
            elif follows == 0xFF:
                at += 1
            else:
                break
    return True
