"""Formula darts: safe evaluation, the two scoring rule sets, games and a solver.

Rules: /work/shared/spec/rules.md section 2 (seeds 000 "classic" and 001 "distance").
"""

from kiosk.domain.formula.errors import FormulaError
from kiosk.domain.formula.expression import evaluate

__all__ = ["FormulaError", "evaluate"]
