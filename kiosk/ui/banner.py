"""The banners drawn over whatever screen is up: the board is lost (or sends what
cannot be read: set to another speed); some of the cameras are not scoring (the
others are); the board map did not load (or loaded but for mistakes, left out); a
setting was stepped over at start; the database was deleted or replaced while open;
the database is damaged; results are not being saved (no database, or the last input
could not be committed).

The first banner lies at the top, over the title and the round (the Cricket
scoreboard then says its round by the darts left), so the foot keeps what the
screen answers there (a typed dart refused, while the banner says to type
darts); a screen whose title is the task (the camera calibration's "mark the 20/1
wire") has it at the foot instead. A second banner goes to the other end. There is no
room for a third strip: one under the first covered the players' names on the
scoreboard. So with three or more the first stays and the others take turns at the
other end, each for ``TURN_S`` seconds at full size with its number ("3/4"), the way a
bar's ticker does: never over the names and points, nor whose turn it is and the darts
of the turn. A text too long for one line at a readable size takes two."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pygame

from kiosk.adapters.serial_board.reader import NO_PERMISSION, NOT_A_PORT, UNREADABLE
from kiosk.devices import NO_BOARD, NO_CALIBRATED_CAMERA, NO_CAMERA
from kiosk.ui import theme
from kiosk.ui.context import Kiosk

BANNER_H = 7.0  # a banner's height, in hundredths of the screen's height
# With three banners or more, each of those past the first shows this long at its end of
# the screen: long enough to read a sentence from the oche.
TURN_S = 5.0


@dataclass(frozen=True)
class Shown:
    """The banners of a frame: where their strips lie (canvas pixels), and whether they
    take turns (the app then draws again when the turn passes)."""

    rects: tuple[pygame.Rect, ...] = ()
    turning: bool = False


def banner_turn(now: float) -> int:
    """Which turn the banners taking turns are at, ``now`` (seconds, monotonic)."""
    return int(now // TURN_S)


def draw_banner(p: theme.Painter, kiosk: Kiosk, *, at_foot: bool = False, turn: int = 0) -> Shown:
    """The banners up now; the first at the top (at the foot with ``at_foot``), the
    second at the other end, or those past the first there in turn (``turn``)."""
    strips = _strips(kiosk)
    h = BANNER_H * p.u
    first, other = (p.h - h, 0.0) if at_foot else (0.0, p.h - h)
    shown = [(first, *strips[0], "")] if strips else []
    if len(strips) == 2:
        shown.append((other, *strips[1], ""))
    elif len(strips) > 2:
        k = 1 + turn % (len(strips) - 1)
        shown.append((other, *strips[k], f"{k + 1}/{len(strips)}"))
    for top, text, colour, count in shown:
        _strip(p, top, h, text, colour, count)
    rects = tuple(pygame.Rect(0, int(top), p.w, round(h)) for top, *_ in shown)
    return Shown(rects, len(strips) > 2)


def banner_up(kiosk: Kiosk) -> bool:
    """Is a banner drawn (the first over the screen's header, on most screens)?"""
    return bool(_strips(kiosk))


def strips_at_foot(kiosk: Kiosk) -> int:
    """How many banners ``draw_banner(at_foot=True)`` puts at the foot of the screen
    (the first): a screen keeps its own foot clear of them."""
    return 1 if banner_up(kiosk) else 0


def _strips(kiosk: Kiosk) -> list[tuple[str, tuple[int, int, int]]]:
    """The banners up now, most urgent first: (text, colour). Play stopped (the board
    or cameras) comes first, then what loses results (not saved, the database replaced
    or damaged), then what a night can wait for (the board map, a setting): with three
    or more, the first stays put and the rest take turns."""
    out: list[tuple[str, tuple[int, int, int]]] = []
    if kiosk.board.lost:
        if kiosk.board.detail == "cameras moved":
            text = kiosk.t("A camera was moved: calibrate it again (Settings). Darts can be typed.")
        elif kiosk.board.detail == NO_CAMERA:
            text = kiosk.t("No camera is set up: list them in the settings file ([camera] "
                           "devices). Darts can be typed.")  # fmt: skip
        elif kiosk.board.detail.startswith(NO_CALIBRATED_CAMERA):
            text = kiosk.t("No camera is calibrated: calibrate one (Settings). Darts can be typed.")
        elif kiosk.board.detail == "cameras" and _all_down(kiosk, *CALIBRATE):
            text = kiosk.t("The cameras need calibrating (Settings). Darts can be typed.")
        elif kiosk.board.detail == "cameras" and _all_down(kiosk, "video ended"):
            text = kiosk.t("The video ended: the cameras give no more darts. Darts can be typed.")
        elif kiosk.board.detail.startswith(UNREADABLE):
            text = kiosk.t(
                "Board unreadable: check its speed (baud in the config). Darts can be typed."
            )
        elif kiosk.board.detail == "cameras" and [w for _, w in kiosk.cameras_down] == [
            "not found"
        ]:
            # (a number that names no camera here: nothing was there to reconnect)
            number = kiosk.cameras_down[0][0]
            text = kiosk.t("Camera {} not found ({}): is it plugged in, is the number right? "
                           "Find cameras in Settings. Darts can be typed.").format(
                number, _source(kiosk, number))  # fmt: skip
        elif kiosk.board.detail == "cameras" and any(
            w in NOT_MENDED_BY_RECONNECTING for _, w in kiosk.cameras_down
        ):
            # Down for several reasons (one to calibrate, one whose video ended...):
            # each camera and what to do, not "reconnecting" for what will not.
            text = kiosk.t("No camera is scoring: {}. Darts can be typed.").format(
                _down_list(kiosk)
            )
        elif f": {NOT_A_PORT} (" in kiosk.board.detail:  # reconnecting will not mend it
            text = kiosk.t("The board's port is not a serial port: check port in the "
                           "settings file. Darts can be typed.")  # fmt: skip
        elif f": {NO_PERMISSION} (" in kiosk.board.detail:
            text = kiosk.t("No permission to open the board's port: add the kiosk's user to "
                           "the dialout group. Darts can be typed.")  # fmt: skip
        elif kiosk.board.detail == NO_BOARD:  # none yet: nothing is "reconnecting"
            text = kiosk.t("No board found: plug one in. Darts can be typed.")
        elif kiosk.board.detail == "cameras" or kiosk.devices.source == "camera":
            text = kiosk.t("Cameras lost: reconnecting... The game waits; darts can be typed.")
        else:
            text = kiosk.t(
                "Board disconnected: reconnecting... The game waits; darts can be typed."
            )
        out.append((text, theme.BAD))
    elif kiosk.cameras_down:
        out.append((_cameras_down(kiosk), theme.ACCENT_DARK))
    reason = kiosk.not_saved_reason
    if reason:
        text = f"{kiosk.t('Results are not being saved')}: {_plain(kiosk, reason)}"
        out.append((text, theme.BAD))
    if kiosk.store_moved:
        text = kiosk.t(
            "The games database was deleted or replaced: the kiosk keeps its games in a copy"
            " (see the log)"
        )
        out.append((text, theme.BAD))
    if kiosk.store_damaged:
        text = kiosk.t("Games database damaged (see the log): back it up now")
        out.append((text, theme.ACCENT_DARK))
    if kiosk.store_kept:
        text = kiosk.t("Games kept in a copy are not in the database: {} (see the log)")
        out.append((text.format(", ".join(kiosk.store_kept)), theme.ACCENT_DARK))
    if kiosk.board_map_problem and kiosk.board_map_left_out:
        text = kiosk.t("Board map {}: mistakes not used (see the log): contacts {}")
        contacts = "; ".join(kiosk.board_map_left_out[:3])
        if len(kiosk.board_map_left_out) > 3:
            contacts += "; ..."
        out.append((text.format(kiosk.board_map_problem, contacts), theme.ACCENT_DARK))
    elif kiosk.board_map_problem:
        text = kiosk.t("Board map {} not loaded (see the log): learnt contacts do not score")
        out.append((text.format(kiosk.board_map_problem), theme.ACCENT_DARK))
    if kiosk.settings_mistakes:
        first, *more = (setting_of(m) for m in kiosk.settings_mistakes)
        if more:
            text = kiosk.t("Settings mistakes, not used: {} and {} more (see the log)")
            text = text.format(first, len(more))
        else:
            text = kiosk.t("Settings mistake, not used: {} (see the log)").format(first)
        out.append((text, theme.ACCENT_DARK))
    return out


# Why results are not being saved, said plainly in the kiosk's language: (words of
# the full reason, lower case, any of them; what the banner says). The full reason,
# with SQLite's words and the paths, is in the log (bootstrap, the store, the games).
PLAIN_REASONS = (
    (("is full",), "the disk is full: free some space"),
    (("cannot be written by",),
     "the games file cannot be written: check its owner and permissions"),
    (("readonly", "read-only", "cannot be written"), "the disk cannot be written"),
    (("another kiosk",),
     "another kiosk program is using the games file: stop it, and saving comes back"),
    (("database is locked", "database is busy"),
     "another program is holding the games database"),
    (("newer than this darts-kiosk",), "the games database is from a newer kiosk version"),
    (("not a usable sqlite database", "another program's sqlite database", "malformed",
      "not a database"), "the games database is damaged or not the kiosk's"),
)  # fmt: skip


def _plain(kiosk: Kiosk, reason: str) -> str:
    """Why results are not being saved, in a few words of the kiosk's language (the
    log has the reason in full); one not foreseen sends the reader to the log."""
    low = reason.lower()
    for words, plain in PLAIN_REASONS:
        if any(word in low for word in words):
            return kiosk.t(plain)
    return kiosk.t("a problem with the games database (see the log)")


def setting_of(mistake: str) -> str:
    """The setting a settings mistake is about, as the file writes it ("[sound] volume
    = 150", "[cricket] round_limt"): the config's message less its file's path and its
    English explanation (both in the log); the file's name when no setting is named (a
    file that is not TOML)."""
    where, _, rest = mistake.partition(": ")
    if not rest:
        return mistake
    setting = rest.split(": ", 1)[0]
    if re.fullmatch(r"(\[\w+\] ?)?\w+( = .*)?|\[\w+\] \d+x\d+", setting):
        return setting
    section = re.match(r"\[\w+\]", setting)
    return section.group(0) if section else Path(where).name


# Why a camera is down that wants calibrating: never calibrated, or again (it moved).
CALIBRATE = ("not calibrated", "calibrate")
# Why a camera is down that is not said as "reconnecting": reconnecting will not mend it,
# or nothing was ever there to reconnect ("not found"); the rest: unplugged, no pictures.
NOT_MENDED_BY_RECONNECTING = (*CALIBRATE, "video ended", "board not seen", "file not found",
                              "not a video", "not found")  # fmt: skip


def _all_down(kiosk: Kiosk, *whys: str) -> bool:
    """Every camera not scoring is down for one of ``whys`` ("calibrate", "not
    calibrated": waiting to be calibrated, not unplugged; "video ended": a recorded
    video standing in ended)."""
    down = kiosk.cameras_down
    return bool(down) and all(w in whys for _, w in down)


def _cameras_down(kiosk: Kiosk) -> str:
    """Which cameras are not scoring and what to do, e.g. "Not scoring: camera 2 (no
    pictures). The other cameras go on."."""
    return kiosk.t("Not scoring: {}. The other cameras go on.").format(_down_list(kiosk))


def _down_list(kiosk: Kiosk) -> str:
    """The cameras not scoring, each with why: "camera 2 (no pictures); camera 3 (its
    video ended)"."""
    parts = []
    for number, why in kiosk.cameras_down:
        if why == "not calibrated":  # (never calibrated: not "again")
            parts.append(kiosk.t("camera {} (calibrate it: Settings)").format(number))
        elif why == "calibrate":
            parts.append(kiosk.t("camera {} (calibrate it again: Settings)").format(number))
        elif why == "video ended":
            parts.append(kiosk.t("camera {} (its video ended)").format(number))
        elif why == "board not seen":
            parts.append(kiosk.t("camera {} (does not see the board: check it)").format(number))
        elif why == "file not found":  # (a video file named as the camera)
            parts.append(kiosk.t("camera {} (file not found: {})").format(
                number, _source(kiosk, number)))  # fmt: skip
        elif why == "not a video":
            parts.append(kiosk.t("camera {} (not a video OpenCV can read: {})").format(
                number, _source(kiosk, number)))  # fmt: skip
        elif why == "not found":  # (a number or /dev name that never opened)
            parts.append(kiosk.t("camera {} (not found: {}; plugged in? the right number? "
                                 "Find cameras in Settings)").format(
                number, _source(kiosk, number)))  # fmt: skip
        else:
            parts.append(kiosk.t("camera {} (no pictures)").format(number))
    return "; ".join(parts)


def _source(kiosk: Kiosk, number: int) -> str:
    """Camera ``number``'s source as the settings file names it (``[camera] devices``)."""
    config = getattr(kiosk.devices, "config", None)
    devices = getattr(getattr(config, "camera", None), "devices", ())
    return str(devices[number - 1]) if 0 < number <= len(devices) else "?"


def _strip(
    p: theme.Painter,
    top: float,
    h: float,
    text: str,
    colour: tuple[int, int, int] = theme.BAD,
    count: str = "",
) -> None:
    """One banner's strip; ``count`` ("3/4", for banners taking turns) at its right."""
    px, width = 3.2 * p.u, p.w * 0.96
    p.rect((0, top, p.w, h), colour)
    if count:
        # The text stays centred: as much room kept on its left as the count takes.
        right = p.text(count, px, (p.w - 1.5 * p.u, top + h / 2), theme.TEXT,
                       anchor="midright", style="bold")  # fmt: skip
        width = p.w - 2 * (p.w - right.left + 1.5 * p.u)
    lines = p.two_lines(text, px, width, "bold")
    if len(lines) > 1:
        px = min(px, h / 2.2)
    p.lines(lines, px, (p.w / 2, top + h / 2), theme.TEXT, max_width=width, style="bold",
            leading=1.05)  # fmt: skip
