"""``camera-score`` given pictures it must not decode, or must not call damaged: too
large for a Pi's memory (whatever their format, told from their headers), cut short,
padded or with more after their end, a pipe or a folder."""

import os
from pathlib import Path

import cv2
import pytest
from camera_cli import cli as _cli
from camera_cli import files as _files

from kiosk.adapters.camera.synthetic import render_throw


@pytest.mark.parametrize(("ext", "fill"), [("png", False), ("jpg", False), ("jpg", True)])
def test_a_picture_too_large_to_decode_is_refused_from_its_header(tmp_path, ext, fill):
    # A 30000x30000 PNG is a few MB on disk and 2.7 GB decoded: a Pi runs out of memory
    # (this machine took 10 GB and a minute). Its header says its size: refused first.
    t = render_throw(1, 1)
    cal, b, after = _files(tmp_path, t, 0, ext)
    data = bytearray(Path(after).read_bytes())
    if fill:  # a JPEG may put fill bytes before a marker
        data[data.index(b"\xff\xc0") : data.index(b"\xff\xc0")] = b"\xff"
    at = 16 if ext == "png" else data.index(b"\xff\xc0") + 5  # the size in the header
    size = (30000).to_bytes(4 if ext == "png" else 2, "big")
    data[at : at + 2 * len(size)] = size + size
    Path(after).write_bytes(bytes(data))
    r = _cli("--calibration", cal, b, after)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"camera-score: {after}: the picture is 30000x30000: too large to "
                        "read (at most 120 megapixels)\n")  # fmt: skip


def stating_size(ext, image, side):
    """``image`` as OpenCV writes it in ``ext`` (bmp, tiff, webp), its header then made
    to say it is ``side`` x ``side`` pixels (its data left as it is)."""
    params = [cv2.IMWRITE_WEBP_QUALITY, 101] if ext == "webp" else []  # (lossless)
    data = bytearray(cv2.imencode(f".{ext}", image, params)[1].tobytes())
    if ext == "bmp":  # BITMAPINFOHEADER: width, height (int32)
        data[18:26] = side.to_bytes(4, "little") * 2
    elif ext == "webp":  # VP8L: 14 bits of width - 1, then of height - 1
        assert data[12:16] == b"VP8L"
        bits = int.from_bytes(data[21:25], "little") & ~((1 << 28) - 1)
        data[21:25] = (bits | (side - 1) | (side - 1) << 14).to_bytes(4, "little")
    else:  # TIFF: the first directory's ImageWidth and ImageLength
        assert data[:4] == b"II*\x00"
        ifd = int.from_bytes(data[4:8], "little")
        for k in range(int.from_bytes(data[ifd : ifd + 2], "little")):
            at = ifd + 2 + 12 * k
            tag, kind = (int.from_bytes(data[at + i : at + i + 2], "little") for i in (0, 2))
            if tag in (256, 257):
                width = 2 if kind == 3 else 4
                data[at + 8 : at + 8 + width] = side.to_bytes(width, "little")
    return bytes(data)


@pytest.mark.parametrize("ext", ["bmp", "tiff", "webp"])
def test_a_picture_too_large_to_decode_is_refused_whatever_its_format(tmp_path, ext):
    # Only a PNG's or a JPEG's stated size was looked at: a WebP of 11000x11000 was
    # decoded whole (360 MB, and gigabytes for a larger one) before anything was said.
    t = render_throw(7_100_003, 1, tip=(0.0, 103.0), off_axis=(30.0, 35.0))
    cal, b, _ = _files(tmp_path, t, 0)
    after = tmp_path / f"a0.{ext}"
    after.write_bytes(stating_size(ext, t.after[0], 11_000))  # 121 megapixels
    r = _cli("--calibration", cal, b, str(after))
    assert r.returncode == 2 and r.stdout == ""
    said = f"camera-score: {after}: the picture is too large to read (at most 120 megapixels)"
    assert r.stderr.splitlines()[-1:] == [said], r.stderr
    cv2.imwrite(str(after), t.after[0], [cv2.IMWRITE_WEBP_QUALITY, 101] if ext == "webp" else [])
    r = _cli("--calibration", cal, b, str(after))  # at its true size, it reads
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "T20", r.stderr


def test_a_png_with_padding_after_its_end_is_read_not_called_cut_short(tmp_path):
    t = render_throw(7_100_003, 1, tip=(0.0, 103.0), off_axis=(30.0, 35.0))
    cal, b, after = _files(tmp_path, t, 0, "png")
    Path(after).write_bytes(Path(after).read_bytes() + bytes(100))  # (a copy padded out)
    r = _cli("--calibration", cal, b, after)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "T20", r.stderr


def test_a_jpeg_with_more_after_its_end_is_read_not_called_cut_short(tmp_path):
    # A phone's "motion photo" has its video after the picture's end marker; a picture
    # with an EXIF thumbnail has a thumbnail's end marker long before its own.
    t = render_throw(7_100_003, 1, tip=(0.0, 103.0), off_axis=(30.0, 35.0))
    cal, b, after = _files(tmp_path, t, 0, "jpg")
    a = Path(after)
    a.write_bytes(a.read_bytes() + b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 40)
    r = _cli("--calibration", cal, b, after)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "T20", r.stderr


def test_a_pipe_or_a_folder_given_as_a_picture_is_refused_not_waited_on(tmp_path):

    t = render_throw(1, 1)
    cal, b, _ = _files(tmp_path, t, 0)
    os.mkfifo(tmp_path / "pipe.png")
    for after in (tmp_path / "pipe.png", tmp_path):
        r = _cli("--calibration", cal, b, str(after))  # (a pipe: _cli's timeout would fire)
        assert r.returncode == 2
        assert r.stderr == f"camera-score: {after}: not a file\n"
