"""Which names Find cameras lists: udev's /dev/v4l links, built here in a folder of the
test's own as udev lays them out (by-id, by-path, the Pi's own video nodes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.adapters.camera.plugged import (
    Plugged,
    calibration_name,
    doubtful,
    listed_as,
    plugged_cameras,
    same_camera,
)


def node(dev: Path, n: int) -> Path:
    path = dev / f"video{n}"
    path.touch()
    return path


def link(v4l: Path, kind: str, name: str, target: Path) -> Path:
    folder = v4l / kind
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).symlink_to(target)
    return folder / name


def test_usb_cameras_are_listed_by_id_once_each_without_their_metadata_nodes(
    tmp_path: Path,
) -> None:
    dev, v4l = tmp_path / "dev", tmp_path / "v4l"
    dev.mkdir()
    v0, v1, v2, v3 = (node(dev, n) for n in range(4))
    c920 = link(v4l, "by-id", "usb-046d_HD_Pro_Webcam_C920_1A2B-video-index0", v2)
    link(v4l, "by-id", "usb-046d_HD_Pro_Webcam_C920_1A2B-video-index1", v3)
    c270 = link(v4l, "by-id", "usb-046d_C270_HD_WEBCAM_9F-video-index0", v0)
    link(v4l, "by-id", "usb-046d_C270_HD_WEBCAM_9F-video-index1", v1)
    link(v4l, "by-path", "platform-xhci-hcd.0-usb-0:1:1.0-video-index0", v0)
    link(v4l, "by-path", "platform-xhci-hcd.0-usb-0:2:1.0-video-index0", v2)
    # The Pi's codec and ISP: video nodes with links of their own, and no USB.
    link(v4l, "by-path", "platform-bcm2835-codec-video-index0", node(dev, 10))
    found = plugged_cameras(v4l, dev, tmp_path / "sys")
    assert [(p.device, p.node) for p in found] == [(str(c270), str(v0)), (str(c920), str(v2))]
    assert found[1].label == "046d HD Pro Webcam C920 1A2B"  # no sysfs name: the id's


def test_two_cameras_of_one_make_without_serials_are_listed_by_usb_port(tmp_path: Path) -> None:
    """udev keeps one by-id link for both (which one can change at boot): a list by it
    would swap the cameras' calibrations. Each by-path name comes twice since systemd
    247 ("-usb-" and "-usbv2-"): each camera is listed once."""
    dev, v4l = tmp_path / "dev", tmp_path / "v4l"
    dev.mkdir()
    v0, v2 = node(dev, 0), node(dev, 2)
    shared = link(v4l, "by-id", "usb-Generic_USB_Camera-video-index0", v2)
    left = link(v4l, "by-path", "platform-xhci-hcd.0-usb-0:1:1.0-video-index0", v0)
    link(v4l, "by-path", "platform-xhci-hcd.0-usbv2-0:1:1.0-video-index0", v0)
    right = link(v4l, "by-path", "platform-xhci-hcd.0-usb-0:2:1.0-video-index0", v2)
    link(v4l, "by-path", "platform-xhci-hcd.0-usbv2-0:2:1.0-video-index0", v2)
    found = plugged_cameras(v4l, dev, tmp_path / "sys")
    assert [p.device for p in found] == [str(left), str(right)]
    # A camera listed by the shared name is neither of them for sure (the kiosk would
    # pair its calibration with whichever udev pointed the name at); by its node, or by
    # an index, it is the camera there now.
    assert doubtful(str(shared), found)
    assert not any(listed_as(str(shared), p) for p in found)
    assert listed_as(str(v2), found[1]) and not listed_as(str(v2), found[0])
    assert not doubtful(str(v2), found)


@pytest.mark.parametrize("udev_points_at", ["infrared", "colour"])
def test_a_camera_with_an_infrared_picture_node_too_is_one_camera(
    tmp_path: Path, udev_points_at: str
) -> None:
    """A camera with two video interfaces (colour and infrared) has two picture nodes
    and one by-id name, which udev may point at either, another at the next boot:
    listed once, by its port, at its first interface; the other camera by its id."""
    dev, v4l = tmp_path / "dev", tmp_path / "v4l"
    dev.mkdir()
    colour, infrared, other = node(dev, 0), node(dev, 2), node(dev, 4)
    brio = link(v4l, "by-id", "usb-046d_Logitech_BRIO_ABC-video-index0",
                infrared if udev_points_at == "infrared" else colour)  # fmt: skip
    c920 = link(v4l, "by-id", "usb-046d_HD_Pro_Webcam_C920_1A2B-video-index0", other)
    port = link(v4l, "by-path", "platform-xhci-hcd.0-usb-0:1:1.0-video-index0", colour)
    link(v4l, "by-path", "platform-xhci-hcd.0-usb-0:1:1.2-video-index0", infrared)
    link(v4l, "by-path", "platform-xhci-hcd.0-usb-0:2:1.0-video-index0", other)
    found = plugged_cameras(v4l, dev, tmp_path / "sys")
    assert [(p.device, p.node) for p in found] == [
        (str(port), str(colour)),
        (str(c920), str(other)),
    ]
    assert doubtful(str(brio), found) and not doubtful(str(c920), found)


def test_next_to_two_cameras_of_one_make_a_camera_with_a_serial_keeps_its_id(
    tmp_path: Path,
) -> None:
    """Two cameras without serials share one by-id name, and the camera that has none
    is told from the others by the name it gives: only its twin is listed by port."""
    dev, v4l, sys = tmp_path / "dev", tmp_path / "v4l", tmp_path / "sys"
    dev.mkdir()
    c920, twin1, twin2 = node(dev, 0), node(dev, 2), node(dev, 4)
    for n, name in ((c920, "HD Pro Webcam C920"), (twin1, "USB Camera"), (twin2, "USB Camera")):
        (sys / n.name).mkdir(parents=True)
        (sys / n.name / "name").write_text(name + "\n")
    own = link(v4l, "by-id", "usb-046d_HD_Pro_Webcam_C920_1A2B-video-index0", c920)
    shared = link(v4l, "by-id", "usb-Generic_USB_Camera-video-index0", twin2)
    ports = [link(v4l, "by-path", f"platform-xhci-hcd.0-usb-0:{k}:1.0-video-index0", n)
             for k, n in enumerate((c920, twin1, twin2), 1)]  # fmt: skip
    found = plugged_cameras(v4l, dev, sys)
    assert [p.device for p in found] == [str(own), str(ports[1]), str(ports[2])]
    assert listed_as(str(own), found[0]) and doubtful(str(shared), found)
    # With no names to tell them by, the camera with a serial may be the twin too.
    for n in (c920, twin1, twin2):
        (sys / n.name / "name").unlink()
    assert [p.device for p in plugged_cameras(v4l, dev, sys)] == [str(p) for p in ports]


def test_the_name_a_camera_gives_itself_is_its_label(tmp_path: Path) -> None:
    dev, v4l, sys = tmp_path / "dev", tmp_path / "v4l", tmp_path / "sys"
    dev.mkdir()
    link(v4l, "by-id", "usb-046d_0825_ABC-video-index0", node(dev, 0))
    (sys / "video0").mkdir(parents=True)
    (sys / "video0" / "name").write_text("UVC Camera (046d:0825)\n")
    (found,) = plugged_cameras(v4l, dev, sys)
    assert found.label == "UVC Camera (046d:0825)"


def test_without_udev_the_video_nodes_are_listed_in_number_order(tmp_path: Path) -> None:
    dev = tmp_path / "dev"
    dev.mkdir()
    nodes = [node(dev, n) for n in (10, 2, 0)]
    found = plugged_cameras(tmp_path / "no-v4l", dev, tmp_path / "sys")
    assert [p.device for p in found] == [str(nodes[2]), str(nodes[1]), str(nodes[0])]
    # With udev there and no USB camera: none (the Pi's own nodes are not cameras).
    link(tmp_path / "v4l", "by-path", "platform-bcm2835-isp-video-index0", nodes[0])
    assert plugged_cameras(tmp_path / "v4l", dev, tmp_path / "sys") == []


def test_a_link_whose_camera_was_unplugged_is_not_listed(tmp_path: Path) -> None:
    dev, v4l = tmp_path / "dev", tmp_path / "v4l"
    dev.mkdir()
    gone = node(dev, 0)
    link(v4l, "by-id", "usb-Acme_Cam-video-index0", gone)
    gone.unlink()
    assert plugged_cameras(v4l, dev, tmp_path / "sys") == []


def test_each_camera_gets_a_calibration_file_of_its_own_name(tmp_path: Path) -> None:
    a = calibration_name("/dev/v4l/by-id/usb-046d_HD_Pro_Webcam_C920_1A2B-video-index0")
    b = calibration_name("/dev/v4l/by-path/platform-xhci-hcd.0-usb-0:1:1.0-video-index0")
    assert a == "cam-usb-046d_HD_Pro_Webcam_C920_1A2B.json"
    assert b == "cam-platform-xhci-hcd.0-usb-0_1_1.0.json"
    assert calibration_name("/dev/video0") == "cam-video0.json"
    target = node(tmp_path, 0)
    assert same_camera(str(link(tmp_path, "by-id", "usb-x-video-index0", target)), str(target))


def test_a_camera_listed_by_its_index_is_the_node_of_that_number() -> None:
    camera = Plugged("/dev/v4l/by-id/usb-Acme_Cam-video-index0", "/dev/video2", "Acme")
    assert listed_as("2", camera) and listed_as(" 2 ", camera)
    assert not listed_as("0", camera)
