"""Root as a plain user, for the tests of files the kiosk may not read or write.

CI runs the tests as root, and root reads and writes any file whatever its mode: a
``chmod 0444`` database or a ``chmod 000`` settings file would not stop it. Root does
so through two capabilities, CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH; without them
the kernel checks the file's mode for root as for anyone (the kiosk's ``darts`` user
and a file left ``root 0644`` by ``sudo cp``). ``plain_user()`` lowers them for the
calling thread (the pygame loop's, where the kiosk opens its files, and the threads it
starts) and raises them again after; ``plain_user_process`` does it for a child process
before it starts ``python -m kiosk``. Not root: nothing to do, the modes already count.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

CAP_DAC_OVERRIDE = 1
CAP_DAC_READ_SEARCH = 2
DAC = (1 << CAP_DAC_OVERRIDE) | (1 << CAP_DAC_READ_SEARCH)
_VERSION_3 = 0x20080522
_SYS_CAPGET, _SYS_CAPSET = 125, 126  # x86-64
_PR_CAPBSET_DROP = 24
_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 47, 4


class _Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _Data(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


_SYSCALLS = {"x86_64": (_SYS_CAPGET, _SYS_CAPSET), "aarch64": (90, 91), "arm64": (90, 91)}


def _syscalls() -> tuple[int, int]:
    machine = os.uname().machine
    if machine in _SYSCALLS:
        return _SYSCALLS[machine]
    if machine.startswith("arm"):
        return 184, 185
    raise OSError(f"capget/capset numbers not known here ({machine})")


def _caps() -> tuple[_Header, ctypes.Array[_Data]]:
    try:
        capget, _ = _syscalls()
    except OSError as e:
        pytest.skip(str(e))
    header, data = _Header(_VERSION_3, 0), (_Data * 2)()
    if _libc().syscall(capget, ctypes.byref(header), data) != 0:
        pytest.skip(f"capget failed: {os.strerror(ctypes.get_errno())}")
    return header, data


def _set(header: _Header, data: ctypes.Array[_Data]) -> int:
    _, capset = _syscalls()
    return int(_libc().syscall(capset, ctypes.byref(header), data))


@contextmanager
def plain_user() -> Iterator[None]:
    """This thread (and the threads it starts meanwhile) checks file modes as a user
    that is not root would."""
    if os.geteuid() != 0:
        yield
        return
    header, data = _caps()
    before = data[0].effective
    data[0].effective = before & ~DAC
    if _set(header, data) != 0:
        pytest.skip(f"capset failed: {os.strerror(ctypes.get_errno())}")
    try:
        yield
    finally:
        header, data = _caps()
        data[0].effective = before
        _set(header, data)


def plain_user_process() -> None:
    """A ``preexec_fn``: the child, and the program it runs, without the two (root's
    program gets its capabilities from the bounding set, so they go from that too)."""
    if os.geteuid() != 0:
        return
    libc = _libc()
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "PR_CAPBSET_DROP")
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header, data = _Header(_VERSION_3, 0), (_Data * 2)()
    capget, capset = _syscalls()
    libc.syscall(capget, ctypes.byref(header), data)
    for which in ("effective", "permitted", "inheritable"):
        setattr(data[0], which, getattr(data[0], which) & ~DAC)
    if libc.syscall(capset, ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")
