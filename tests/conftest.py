"""Settings for the whole suite."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# CI runs the suite on two busy cores, and one failure blocks a submission: the property
# tests draw the same examples on every run (``derandomize``: a failure is the code's,
# and shows again on a rerun), and are not timed (an example slowed by the machine is
# no bug; hypothesis failed it as over its 200 ms deadline, or as "flaky" when it was
# quick on the rerun). ``HYPOTHESIS_PROFILE=explore`` draws new examples each run, to
# look further for bugs at a desk.
settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
