"""What values an operand's elements may take, which of them find bugs, and which are
simple: the generator draws from a :class:`Domain`, the shrinker moves towards its
simplest values and never leaves it.

Edge values are where shader arithmetic goes wrong: zero and negative zero, the
infinities and NaN, subnormals and the smallest normal, the type's largest values,
halves (which round differently by the rule: half to even, half away from zero, half
up), the first integer a float type can no longer count past (2,048 for float16), and
for integers the type's limits, their neighbours and the middle of the range (where a
doubling overflows).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

# how complex a non-finite value is, against log2 of a finite value's size (at most 1,024)
_INFINITY_SCORE = 2_000.0
_NAN_SCORE = 3_000.0


@dataclass(frozen=True, slots=True)
class Domain:
    """The values an operand's elements may take: its numpy dtype, optional bounds, and
    whether NaN, the infinities and subnormals are allowed. ``observed_only``: the values
    come from a strategy the tool cannot see into (the user's own), so shrinking only
    moves an element to a value seen in the same operand."""

    dtype: str
    min_value: float | None = None
    max_value: float | None = None
    allow_nan: bool = True
    allow_infinity: bool = True
    allow_subnormal: bool = True
    observed_only: bool = False

    @property
    def kind(self) -> str:
        """``f`` float, ``i`` signed integer, ``u`` unsigned integer, ``b`` bool."""
        import numpy as np

        return np.dtype(self.dtype).kind

    def bounds(self) -> tuple[float, float]:
        """The lowest and highest value allowed (the type's limits within the bounds)."""
        import numpy as np

        if self.kind == "b":
            return 0, 1
        info: Any = np.finfo(self.dtype) if self.kind == "f" else np.iinfo(self.dtype)
        low = float(info.min) if self.kind == "f" else int(info.min)
        high = float(info.max) if self.kind == "f" else int(info.max)
        if self.min_value is not None:
            low = max(low, self.min_value)
        if self.max_value is not None:
            high = min(high, self.max_value)
        return low, high

    def simplest(self) -> Any:
        """The value the shrinker moves elements to: zero when allowed, else the bound
        closest to zero."""
        low, high = self.bounds()
        if low <= 0 <= high:
            return False if self.kind == "b" else 0
        return low if low > 0 else high

    def edges(self) -> list[Any]:
        """The edge values this domain allows."""
        import numpy as np

        if self.kind == "b":
            return [False, True]
        if self.kind == "f":
            info = np.finfo(self.dtype)
            counting_limit = 2.0 ** (info.nmant + 1)  # 2,048 for float16
            values: list[Any] = [
                0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5,
                float(info.max), -float(info.max), float(info.tiny), -float(info.tiny),
                float(info.smallest_subnormal), -float(info.smallest_subnormal),
                float(info.eps), 1.0 + float(info.eps), counting_limit, counting_limit - 1,
                math.inf, -math.inf, math.nan]
        else:
            info_i = np.iinfo(self.dtype)
            low, high, middle = int(info_i.min), int(info_i.max), int(info_i.max) // 2
            values = [0, 1, -1, 2, -2, 3, -3, low, high, low + 1, high - 1, middle,
                      middle + 1, -middle, -middle - 1]
        admitted = self.admits(np.array(values, dtype=np.float64))
        kept = {repr(v): v for v, keep in zip(values, admitted, strict=True) if keep}
        return list(kept.values())  # (once each; -0.0 is not 0.0)

    def admits(self, values: np.ndarray) -> np.ndarray:
        """Element by element: is the value in this domain (and in the dtype's range)?"""
        import numpy as np

        v = np.asarray(values).astype(np.float64)
        low, high = self.bounds()
        with np.errstate(invalid="ignore"):
            inside = (v >= low) & (v <= high)
        if self.kind != "f":
            return inside & (v == np.round(v))
        ok = inside
        if self.allow_nan:
            ok |= np.isnan(v)
        if self.allow_infinity:  # (a bound on that side rules its infinity out)
            ok |= ((v == math.inf) & (self.max_value is None)) | \
                  ((v == -math.inf) & (self.min_value is None))
        if not self.allow_subnormal:
            tiny = float(np.finfo(self.dtype).tiny)
            ok &= ~((v != 0) & (np.abs(v) < tiny))
        return ok


def complexity(array: np.ndarray, simplest: Any) -> np.ndarray:
    """How far each element is from simple, as float64 (0 for ``simplest``): the size of
    the value (in bits), more for a fraction, a little more for a negative number or
    negative zero, most for the infinities and NaN."""
    import numpy as np

    v = array.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        base = np.abs(v - float(simplest))
        score = np.where(base == 0, 0.0, 1.0 + np.log2(1.0 + base))
        if array.dtype.kind == "f":
            finite = np.isfinite(v)
            fraction = finite & (v != np.trunc(v))
            score = score + np.where(fraction, 8.0, 0.0)
            score = np.where(np.isinf(v), _INFINITY_SCORE, score)
            score = np.where(np.isnan(v), _NAN_SCORE, score)
            score = score + np.where(np.signbit(v) & ~np.isnan(v), 0.25, 0.0)
        elif array.dtype.kind == "i":
            score = score + np.where(v < 0, 0.25, 0.0)
    return score


def is_simple(array: np.ndarray, simplest: Any) -> np.ndarray:
    """Element by element: does it hold exactly the simplest value (+0, not -0)?"""
    import numpy as np

    if array.dtype.kind == "f":
        return (array == simplest) & ~np.signbit(array) if simplest == 0 else \
            array == simplest
    return array == simplest
