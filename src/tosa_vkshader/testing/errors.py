"""The one exception `verify` raises beyond the run's own: :class:`VerifyError`."""

from __future__ import annotations

from ..runtime.errors import RunError

# the reference or hypothesis is unusable: a usage or environment problem (exit 2)
USAGE_CODES = frozenset({"VKS971", "VKS972"})


class VerifyError(RunError):
    """`verify` could not start or go on: the reference cannot be used (VKS971), or
    hypothesis is missing (VKS972). ``details`` holds the reference's traceback, when it
    raised. The command line exits 2 for these."""

    @property
    def exit_code(self) -> int:
        if any(d.code in USAGE_CODES for d in self.diagnostics):
            return 2
        return super().exit_code


def require_hypothesis() -> None:
    """:class:`VerifyError` (VKS972) naming the extra to install, unless hypothesis can
    be imported."""
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        from .rules import HYPOTHESIS_MISSING

        raise VerifyError([HYPOTHESIS_MISSING.at(
            "", "`verify` draws its inputs with hypothesis, which is not installed",
            hint="pip install 'tosa-vkshader[verify]' (in a checkout: pip install "
                 "'.[run,verify]')")]) from None
