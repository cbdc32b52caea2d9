"""The values a formula game's screens and its session pass around: the setup a menu
chose (and the store's settings it becomes), the live preview of a formula being
typed, the feedback to an input, a move as the rounds table writes it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from kiosk.domain.formula.errors import FormulaError
from kiosk.domain.formula.game import Move
from kiosk.domain.formula.rules import Rules, rules_by_name

RULE_FIELDS = ("start", "goal", "bonus", "max_rounds", "time_limit")
# Refusals that typing on can still fix: shown as a note, not as a fault.
STILL_TYPING = ("empty", "missing_digit", "unbalanced", "syntax")


@dataclass(frozen=True)
class FormulaSetup:
    """What the menu chose: enough to start (or restart) a game."""

    names: tuple[str, ...] = ("Player 1",)
    mode: str = "training"  # training | qualification | duel
    rules: str = "classic"
    computer: str = ""  # "" or easy | medium | perfect: the last name is the computer
    digits: tuple[int, ...] = ()  # fixed round numbers (then the seed's draw)
    seed: int | None = None
    overrides: tuple[tuple[str, int], ...] = ()  # rule parameters, e.g. (("time_limit", 60),)

    @classmethod
    def from_settings(cls, names: tuple[str, ...], settings: dict[str, Any]) -> FormulaSetup:
        """The setup of a stored game (``settings()`` read back), to resume it."""
        return cls(
            names=names,
            mode=str(settings.get("mode") or ("duel" if len(names) == 2 else "training")),
            rules=str(settings.get("rules", "classic")),
            computer=str(settings.get("computer", "")),
            digits=tuple(int(d) for d in settings.get("digits") or ()),
            seed=None if settings.get("seed") is None else int(settings["seed"]),
            overrides=tuple((k, int(settings[k])) for k in RULE_FIELDS if k in settings),
        )

    def make_rules(self) -> Rules:
        rules = rules_by_name(self.rules)
        changes: dict[str, Any] = {k: int(v) for k, v in self.overrides if k in RULE_FIELDS}
        return replace(rules, **changes) if changes else rules

    def settings(self) -> dict[str, Any]:
        """The store's settings for this game (``kiosk.domain.replay`` builds it back)."""
        out: dict[str, Any] = {"rules": self.rules, "mode": self.mode}
        out.update({k: int(v) for k, v in self.overrides if k in RULE_FIELDS})
        if self.digits:
            out["digits"] = list(self.digits)
        if self.seed is not None:
            out["seed"] = self.seed
        if self.computer:
            out["computer"] = self.computer
        return out


@dataclass(frozen=True)
class Preview:
    """What the formula typed so far would do, for the live line under it."""

    text: str
    value: int | None = None
    points: int | None = None
    score_after: int | None = None
    error: FormulaError | None = None
    score_before: int | None = None

    @property
    def gains(self) -> bool:
        """The score it leaves is nearer 0 than the score now (negative points, or
        points far past the score, push it up: a warning, not good news)."""
        return (
            self.score_after is not None
            and self.score_before is not None
            and self.score_after < self.score_before
        )

    @property
    def still_typing(self) -> bool:
        """Refused only because it is unfinished (digits to come, a bracket open)."""
        if self.error is None:
            return False
        if self.error.code in ("empty", "missing_digit"):
            return True
        text = self.text.rstrip()
        unfinished = text.count("(") > text.count(")") or text[-1:] in "+-*/(,"
        return self.error.code in STILL_TYPING and unfinished


@dataclass
class Feedback:
    accepted: bool
    sounds: list[str] = field(default_factory=list)
    message: str = ""
    error: FormulaError | None = None


def move_text(move: Move) -> str:
    """A move for the rounds table: ``34+89 = 123``, ``45 + 89 = 134`` (automatic), or
    ``time ran out``."""
    if move.formula is None:
        return "time ran out"
    if move.auto:
        left, _, right = move.formula.partition("+")
        return f"{left} + {right} = {move.result}"
    return f"{move.formula} = {move.result}"
