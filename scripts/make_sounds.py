"""Synthesise the kiosk's sound effects into assets/sounds/*.wav (16-bit mono, 44.1 kHz).

Made from sine partials and envelopes with numpy, so the repository holds its own
sounds under its own licence. Run again after changing a recipe:
``python scripts/make_sounds.py [OUTDIR]``.
"""

from __future__ import annotations

import sys
import wave
from collections.abc import Callable
from pathlib import Path

import numpy as np

RATE = 44100
OUT = Path(__file__).resolve().parents[1] / "kiosk" / "assets" / "sounds"


def tone(
    freq: float,
    seconds: float,
    *,
    decay: float = 8.0,
    partials: tuple[float, ...] = (1.0,),
    sweep: float = 0.0,
) -> np.ndarray:
    t = np.arange(int(RATE * seconds)) / RATE
    f = freq * (1.0 + sweep * t / seconds)
    phase = 2 * np.pi * np.cumsum(f) / RATE
    wave_ = sum(a * np.sin(phase * (k + 1)) for k, a in enumerate(partials))
    attack = np.minimum(1.0, t / 0.004)
    return wave_ * attack * np.exp(-decay * t)


def thud(seconds: float = 0.12) -> np.ndarray:
    rng = np.random.default_rng(7)
    t = np.arange(int(RATE * seconds)) / RATE
    noise = rng.standard_normal(t.size)
    # A crude low-pass (moving average) makes the noise a dull "thock".
    noise = np.convolve(noise, np.ones(24) / 24, mode="same")
    return mix(noise * np.exp(-40 * t) * 3, tone(140, seconds, decay=30))


def buzz(freq: float, seconds: float) -> np.ndarray:
    """A harsh, square-ish tone (odd partials) that holds, then falls off."""
    t = np.arange(int(RATE * seconds)) / RATE
    body = tone(freq, seconds, decay=2.5, partials=(1, 0, 0.33, 0, 0.2, 0, 0.14))
    release = np.minimum(1.0, (seconds - t) / 0.03)  # no click at the end
    return body * release


def mix(*parts: np.ndarray) -> np.ndarray:
    out = np.zeros(max(p.size for p in parts))
    for p in parts:
        out[: p.size] += p
    return out


def seq(*parts: np.ndarray, gap: float = 0.0) -> np.ndarray:
    silence = np.zeros(int(RATE * gap))
    out: list[np.ndarray] = []
    for p in parts:
        out += [p, silence]
    return np.concatenate(out)


RECIPES: dict[str, Callable[[], np.ndarray]] = {
    "hit": lambda: mix(thud(), 0.5 * tone(880, 0.12, decay=30)),
    "miss": lambda: thud(0.1) * 0.6,
    "triple": lambda: seq(*(tone(f, 0.09, decay=18, partials=(1, 0.3)) for f in (660, 880, 1320))),
    "bull": lambda: mix(thud(), tone(1046, 0.35, decay=9, partials=(1, 0.5, 0.25))),
    "close": lambda: seq(
        tone(523, 0.12, decay=14, partials=(1, 0.4)), tone(784, 0.25, decay=10, partials=(1, 0.4))
    ),
    "win": lambda: seq(
        *(tone(f, 0.16, decay=6, partials=(1, 0.5, 0.2)) for f in (523, 659, 784, 1046)),
        tone(1046, 0.6, decay=4, partials=(1, 0.5, 0.2)),
    ),
    "undo": lambda: tone(660, 0.18, decay=14, sweep=-0.45),
    # Formula darts: 10 s left (a clock's tick-tock), and time up (a low double buzz).
    "tick": lambda: seq(
        tone(1760, 0.05, decay=60, partials=(1, 0.2)),
        tone(1318, 0.06, decay=55, partials=(1, 0.2)),
        gap=0.14,
    ),
    "timeup": lambda: seq(
        buzz(220, 0.28),
        buzz(165, 0.5),
        gap=0.06,
    ),
}


def write(path: Path, samples: np.ndarray, volume: float = 0.6) -> None:
    peak = float(np.max(np.abs(samples))) or 1.0
    pcm = (samples / peak * volume * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.mkdir(parents=True, exist_ok=True)
    for name, recipe in RECIPES.items():
        write(out / f"{name}.wav", recipe())
        print(out / f"{name}.wav")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
