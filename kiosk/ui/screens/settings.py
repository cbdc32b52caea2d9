"""Settings: language, volume, input source. Changes apply at once and are saved."""

from __future__ import annotations

from typing import Any

from kiosk.ui.i18n import LANGUAGES
from kiosk.ui.screens.menu import Item, MenuScreen

VOLUMES = [(v, f"{v}%") for v in range(0, 101, 10)]
SOURCES = [
    ("auto", "automatic"),
    ("serial", "serial board"),
    ("virtual", "virtual board (mouse)"),
    ("camera", "cameras"),
]


class SettingsScreen(MenuScreen):
    name = "settings"
    title = "Settings"

    def items(self) -> list[Item]:
        s = self.kiosk.settings
        return [
            Item(
                "Language",
                choices=list(LANGUAGES.items()),
                get=lambda: s.language,
                set=self.set_language,
            ),
            Item("Volume", choices=VOLUMES, get=lambda: s.volume, set=self.set_volume),
            Item("Input", choices=SOURCES, get=lambda: s.source, set=self.set_source),
            Item("Back", self.back),
        ]

    def set_language(self, value: Any) -> None:
        self.kiosk.set_language(str(value))
        self.saved()

    def set_volume(self, value: Any) -> None:
        self.kiosk.settings.volume = int(value)
        self.kiosk.sound.set_volume(int(value))
        self.kiosk.sound.play("hit")
        self.saved()

    def set_source(self, value: Any) -> None:
        self.kiosk.settings.source = str(value)
        self.kiosk.devices.switch(str(value))
        self.saved()

    def saved(self) -> None:
        if self.kiosk.save_settings is not None:
            try:
                self.kiosk.save_settings(self.kiosk.settings)
            except OSError as e:
                self.message = f"{self.t('Not saved')}: {e}"
