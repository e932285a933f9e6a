"""A lightweight, tolerant view of one attribute object, shared by every rule.

The pydantic models in :mod:`tosa_vkshader.typed_attributes` describe *valid* attributes; rules
must also look at invalid ones, so they work on this view instead: the raw values,
each key classified by the key grammar, and resources grouped by direction and index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .config import Options
from .diagnostics import pointer_join
from .keys import KeyInfo, KeyKind, classify, split_nulls

if TYPE_CHECKING:
    from typing import Any

    from .op_context import OpContext


@dataclass(slots=True)
class ResourceView:
    direction: str
    index: int
    # field -> (the key as written in the file, its value)
    fields: dict[str, tuple[str, Any]] = field(default_factory=dict)
    # fields spelled wrongly in the file (reported by the key rules; not missing)
    misspelled: set[str] = field(default_factory=set)

    @property
    def name(self) -> str:
        return f"{self.direction}_{self.index}"

    def value(self, name: str, default: Any = None) -> Any:
        entry = self.fields.get(name)
        return entry[1] if entry else default

    def key(self, name: str) -> str:
        entry = self.fields.get(name)
        return entry[0] if entry else f"{self.name}_{name}"

    def pointer(self, name: str, base: str = "") -> str:
        return pointer_join(base, self.key(name))

    def int_value(self, name: str) -> int | None:
        value = self.value(name)
        return value if type(value) is int and value >= 0 else None

    def str_value(self, name: str) -> str | None:
        value = self.value(name)
        return value if isinstance(value, str) else None


@dataclass(slots=True)
class AttributeView:
    attrs: dict[str, Any]
    options: Options
    # JSON pointer of the attribute object inside its document ("" for a bare object).
    base: str = ""
    keys: dict[str, KeyInfo] = field(default_factory=dict)
    resources: dict[tuple[str, int], ResourceView] = field(default_factory=dict)
    # The op in its model (operator name, operand and result tensors), when known.
    context: OpContext | None = None
    # Keys whose value is null: absent for the rules, as for the reference converter.
    nulls: tuple[str, ...] = ()
    # The resources in order, found once (see in_order).
    _in_order: tuple[ResourceView, ...] | None = field(default=None, repr=False)

    @classmethod
    def build(cls, attrs: dict[str, Any], options: Options, base: str = "",
              context: OpContext | None = None) -> AttributeView:
        attrs, nulls = split_nulls(attrs)
        view = cls(attrs, options, base, context=context, nulls=nulls)
        misspelled: list[KeyInfo] = []
        for key, value in attrs.items():
            info = classify(key)
            view.keys[key] = info
            if info.kind is KeyKind.RESOURCE:
                # (a resource key has all three; the key grammar says so)
                assert info.direction and info.index is not None and info.field
                view._resource(info.direction, info.index).fields[info.field] = (key, value)
            elif info.kind is KeyKind.NEAR_MISS and info.direction and info.index is not None \
                    and info.field:
                misspelled.append(info)
        # A near miss still tells us what the author meant: check its value under the
        # intended resource, unless the correctly spelled key is there as well.
        for info in misspelled:
            assert info.direction and info.index is not None and info.field
            resource = view._resource(info.direction, info.index)
            resource.misspelled.add(info.field)
            resource.fields.setdefault(info.field, (info.key, attrs[info.key]))
        return view

    def _resource(self, direction: str, index: int) -> ResourceView:
        resource = self.resources.get((direction, index))
        if resource is None:
            resource = self.resources[(direction, index)] = ResourceView(direction, index)
        return resource

    def pointer(self, *tokens: str | int) -> str:
        return pointer_join(self.base, *tokens)

    def in_order(self) -> tuple[ResourceView, ...]:
        """The resources, inputs first, each direction by index: the order every rule
        about resources walks them in (sorted once per view, not once per rule)."""
        if self._in_order is None:
            self._in_order = tuple(sorted(self.resources.values(),
                                          key=lambda r: (r.direction, r.index)))
        return self._in_order

    def of_direction(self, direction: str) -> list[ResourceView]:
        return [r for r in self.in_order() if r.direction == direction]
