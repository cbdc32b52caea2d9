"""The pygame kiosk: app loop, screen stack, screens, theme, sound and translations.

One thread (the one that calls :meth:`kiosk.ui.app.App.run`) owns pygame; device
threads only put events on the :class:`kiosk.ui.inbox.Inbox` and wake the loop.
"""
