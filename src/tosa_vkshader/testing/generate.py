"""Drawing a batch of examples with hypothesis, before anything runs.

Hypothesis runs a test one example at a time: it draws an example, waits for the verdict,
draws the next. An example on the device costs a scenario-runner process (0.3 s here on
lavapipe) when run alone and a few milliseconds when run in a batch
(``PreparedModel.run_many``), so the examples are drawn first, by hypothesis' own engine
under ``@given`` with a test that only keeps what it is given (generation phase only, no
database, the seed fixed), and run afterwards in batches. The test never fails, so
hypothesis never shrinks here; shrinking is done in batches too (:mod:`.shrink`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy


def draw_examples(strategy: SearchStrategy[Any], count: int, seed: int) -> list[Any]:
    """Up to ``count`` examples of ``strategy`` (fewer when it has fewer distinct ones),
    the same for the same seed. Hypothesis' own errors (an unsatisfiable strategy, an
    invalid argument) propagate."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as with_seed

    drawn: list[Any] = []

    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck), derandomize=False, print_blob=False,
              report_multiple_bugs=False)
    @with_seed(seed)
    @given(strategy)
    def keep(example: Any) -> None:
        drawn.append(example)

    keep()
    return drawn[:count]
