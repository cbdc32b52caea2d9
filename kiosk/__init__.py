"""darts-kiosk: a scoreboard kiosk for physical darts."""

__version__ = "0.1.0"
