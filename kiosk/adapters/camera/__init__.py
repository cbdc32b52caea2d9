"""Cameras watching a steel-tip board: capture, calibration, detection, fusion."""
