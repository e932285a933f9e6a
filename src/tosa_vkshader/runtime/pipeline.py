"""One run of a model: prepare it (the converter starts at once), run it on the inputs,
give the work directory back. ``run_model`` is what the `run` command and
``tosa_vkshader.run`` call; :class:`~.session.PreparedModel` is what they are made of,
for callers that run one model many times.

Nothing this module imports needs numpy, the MLIR reader, the configuration or the
checker: they are loaded after the converter has started (the inputs are read meanwhile)
and while the scenario runner works.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import RunError
from .session import AUTO, DEFAULT_TIMEOUT, PreparedModel

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .session import Inputs, RunResult, Validate
    from .verdict import OptionsSource


def prepare(text: str, *, path: str | None = None, options: OptionsSource = None,
            device: str | None = None, keep_workdir: bool = False) -> PreparedModel:
    """The MLIR model ``text`` made ready to run (see :class:`PreparedModel`)."""
    return PreparedModel(text, path=path, options=options, device=device,
                         keep_workdir=keep_workdir)


def run_model(text: str, inputs: Inputs, *, path: str | None = None,
              push_constants: bytes | Mapping[str, str] | None = None,
              device: str | None = None,
              timeout: float = DEFAULT_TIMEOUT, options: OptionsSource = None,
              keep_workdir: bool = False, write_check: bool = True,
              validate: Validate = AUTO) -> RunResult:
    """Run the MLIR model ``text`` once on ``inputs`` (arrays, or a function that loads
    them while the converter runs); :class:`RunError` when it cannot."""
    prepared = prepare(text, path=path, options=options, device=device,
                       keep_workdir=keep_workdir)
    try:
        return prepared.run(inputs, push_constants=push_constants, write_check=write_check,
                            validate=validate, timeout=timeout)
    except RunError as error:
        if keep_workdir:  # (a failed run is what the folder is kept for)
            error.workdir = prepared.workdir
        raise
    finally:
        prepared.close()
