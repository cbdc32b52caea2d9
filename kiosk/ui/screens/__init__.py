"""The kiosk's screens, one idea per module."""
