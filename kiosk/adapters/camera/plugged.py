"""The USB cameras plugged in, for Settings -> Find cameras: what to list in ``[camera]
devices`` so the owner need not find the names with a shell.

udev names each USB camera's picture node ``...-video-index0`` in ``/dev/v4l/by-id/``
(by the camera's make and serial number) and ``/dev/v4l/by-path/`` (by the USB port); a
camera's other nodes (``-video-index1``: its metadata) give no picture, and neither do
the Pi's own video nodes (codec, ISP), which have no ``usb`` link. Those names stay put
when the cameras come up in another order at boot, which ``/dev/videoN`` numbers do not.

By id is preferred: it follows a camera to another USB port. Two cameras of the same
make without serial numbers share one by-id name (udev keeps one link for both, and
which one can change at boot), so when a camera has no by-id link of its own, every
camera is listed by its USB port instead. A camera with two picture nodes (an
infrared one beside the colour one) is one camera: its first interface's node.
Without ``/dev/v4l`` (no udev), the ``/dev/videoN`` nodes are listed, and the ones
that give no picture are left out by whoever opens them.

Nothing is opened here: the screen takes a picture from each (``kiosk.ui.screens.
camera_find``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

V4L = Path("/dev/v4l")
DEV = Path("/dev")
SYS = Path("/sys/class/video4linux")
PICTURE_NODE = "-video-index0"


@dataclass(frozen=True)
class Plugged:
    device: str  # what to list in [camera] devices: a by-id or by-path link, or a node
    node: str  # the /dev/videoN it stands for now
    label: str  # what the camera calls itself ("HD Pro Webcam C920"), else its name
    # by-id names that point at this camera now and may point at another after a boot
    # (two cameras share the name, or it is the name of this camera's infrared node
    # too): a camera listed by one of them is not known to be this one.
    doubtful: tuple[str, ...] = ()


def plugged_cameras(v4l: Path = V4L, dev: Path = DEV, sys_class: Path = SYS) -> list[Plugged]:
    """The USB cameras' picture nodes, one per camera, in the order of their nodes
    (``/dev/video0`` before ``/dev/video2``)."""
    by_id = _links(v4l / "by-id")
    ports = _cameras_by_port(
        {link: node for link, node in _links(v4l / "by-path").items() if "-usb" in link.name}
    )
    if not by_id and not ports:
        if v4l.is_dir():
            return []  # udev is there and names no USB camera
        plain = sorted(dev.glob("video[0-9]*"), key=_node_order)
        return [Plugged(str(n), str(n), _label(n, None, sys_class)) for n in plain]
    if not ports:  # by id only: each name one camera (nothing to tell twins by)
        return _in_order(
            [Plugged(str(link), str(n), _label(n, link, sys_class)) for link, n in by_id.items()]
        )
    first = {n: nodes[0][1] for nodes in ports.values() for _link, n in nodes}
    ids_at: dict[Path, list[Path]] = {}  # a camera's first node -> by-id names at any of its
    for link, node in by_id.items():
        if node in first:
            ids_at.setdefault(first[node], []).append(link)
    # A camera no by-id name points at shares its name with another (udev keeps one
    # link for both): that other one is told by its name (what the camera calls
    # itself), or, with no name to go by, any camera named by id may be it.
    unnamed = [_sys_name(nodes[0][1], sys_class) for nodes in ports.values()
               if nodes[0][1] not in ids_at]  # fmt: skip
    found = []
    for nodes in ports.values():
        port_link, node = nodes[0]
        ids = ids_at.get(node, [])
        name = _sys_name(node, sys_class)
        trusted = (
            len(nodes) == 1  # (not colour and infrared: the name may point at either)
            and len(ids) == 1
            and not any(other is None or other == name for other in unnamed)
        )
        label = _label(node, ids[0] if ids else None, sys_class)
        if trusted:
            found.append(Plugged(str(ids[0]), str(node), label))
        else:
            found.append(Plugged(str(port_link), str(node), label, tuple(str(i) for i in ids)))
    return _in_order(found)


def _in_order(found: list[Plugged]) -> list[Plugged]:
    return sorted(found, key=lambda p: (_node_order(Path(p.node)), p.device))


# A by-path name: the USB port's path, then the configuration and interface
# ("platform-xhci-hcd.0-usb-0:1.2:1.0-video-index0"); since systemd 247 each comes
# twice, the second as "-usbv2-".
_PORT = re.compile(
    r"^(?P<port>.*-usb(?:v\d+)?-[^:]*:[^:]*):(?P<c>\d+)\.(?P<i>\d+)" + PICTURE_NODE + "$"
)


def _cameras_by_port(links: dict[Path, Path]) -> dict[str, list[tuple[Path, Path]]]:
    """USB port -> its camera's picture nodes, (link, node) each once (the plain "-usb-"
    name before its "-usbv2-" twin), the first interface's first: a camera with two
    picture nodes (colour and infrared) is one camera, seen through its first."""
    by_port: dict[str, dict[Path, tuple[tuple[int, int, int, str], Path]]] = {}
    for link, node in links.items():
        m = _PORT.match(link.name)
        port = re.sub(r"-usbv\d+-", "-usb-", m.group("port")) if m else str(node)
        rank = (int(m.group("c")), int(m.group("i"))) if m else (0, 0)
        key = (*rank, 1 if "-usbv" in link.name else 0, link.name)
        nodes = by_port.setdefault(port, {})
        if node not in nodes or key < nodes[node][0]:
            nodes[node] = (key, link)
    return {
        port: [
            (link, node) for node, (_key, link) in sorted(nodes.items(), key=lambda kv: kv[1][0])
        ]
        for port, nodes in by_port.items()
    }


def calibration_name(device: str) -> str:
    """The calibration file's name for a camera listed as ``device``: its own, so a
    camera found again keeps its calibration whatever its place in the list."""
    stem = Path(device).name.removesuffix(PICTURE_NODE)
    return "cam-" + (re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._-") or "camera") + ".json"


def same_camera(a: str, b: str) -> bool:
    """Whether two names (a link and a node, or two links) are the same camera now."""
    return a == b or os.path.realpath(a) == os.path.realpath(b)


def device_path(name: str) -> str:
    """A camera's name in [camera] devices as a path: an index ("0") is /dev/video0."""
    return (
        f"/dev/video{name.strip()}" if name.strip().isascii() and name.strip().isdigit() else name
    )


def listed_as(name: str, camera: Plugged) -> bool:
    """Whether a camera listed as ``name`` is ``camera``: the same device now, by a name
    that cannot point at another camera after a boot (not a shared by-id name)."""
    path = device_path(name)
    if doubtful(path, [camera]):
        return False
    return same_camera(path, camera.device) or same_camera(path, camera.node)


def doubtful(name: str, cameras: list[Plugged]) -> bool:
    """Whether ``name`` is a by-id name that two of ``cameras`` may share (the name
    itself: the node it points at now is no help)."""
    own = os.path.normpath(device_path(name))
    return any(own == os.path.normpath(d) for c in cameras for d in c.doubtful)


def _links(folder: Path) -> dict[Path, Path]:
    """The picture-node links in ``folder`` -> the node each points to."""
    try:
        names = sorted(folder.iterdir())
    except OSError:
        return {}
    return {
        link: Path(os.path.realpath(link))
        for link in names
        if link.name.endswith(PICTURE_NODE) and os.path.exists(link)
    }


def _node_order(node: Path) -> tuple[int, str]:
    digits = re.search(r"(\d+)$", node.name)
    return (int(digits.group(1)) if digits else 1 << 30, node.name)


def _sys_name(node: Path, sys_class: Path) -> str | None:
    """What the camera calls itself (``/sys/class/video4linux/videoN/name``), or None."""
    try:
        name = (sys_class / node.name / "name").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return name.strip() or None


def _label(node: Path, id_link: Path | None, sys_class: Path) -> str:
    """The name the camera gives, else its by-id name made readable ("046d HD Pro
    Webcam C920 1A2B"), else the node."""
    if name := _sys_name(node, sys_class):
        return name
    if id_link is not None:
        stem = id_link.name.removesuffix(PICTURE_NODE).removeprefix("usb-")
        return stem.replace("_", " ").strip() or node.name
    return node.name
