"""Value records, declared like dataclasses, cheap to define at import.

``@record`` takes a class of annotated fields, exactly as ``@dataclass`` does, and adds
``__init__``, ``__repr__``, ``__eq__`` (and for ``frozen=True`` ``__hash__`` and a
read-only ``__setattr__``). Why not ``dataclasses``: it compiles up to six methods per
class with ``exec`` and imports ``inspect`` (with ``ast``, ``dis`` and ``tokenize``), about
0.5 ms a class plus 8 ms once; with this package's records that was 20-30 ms of every
command's start-up, a fifth of a ``check`` (docs/performance.md). A record compiles only
its ``__init__`` (instances are made as fast as a dataclass's); ``__repr__``, ``__eq__``,
``__hash__`` and pickling are shared functions that read the fields with one C
``attrgetter``.

Supported, and all that is: ``frozen``, ``slots``, ``eq=False``, defaults,
``field(default=..., default_factory=..., repr=False)`` and ``__post_init__``. A method
the class defines itself is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

TYPE_CHECKING = False  # typing is not imported at run time (see tosa_vkshader/__init__)
if TYPE_CHECKING:
    from typing import Any, TypeVar, dataclass_transform

    _T = TypeVar("_T")
else:
    def dataclass_transform(**_described: object) -> Callable[[Callable], Callable]:
        """What tells type checkers that ``record`` makes dataclass-like classes; nothing
        to do at run time."""
        return lambda decorator: decorator

_MISSING: Any = object()


class FrozenRecordError(AttributeError):
    """Assigning to a field of a frozen record."""


class Field:
    """What ``field()`` returns inside a class body: how a field gets its default."""

    __slots__ = ("default", "default_factory", "repr")

    def __init__(self, default: Any, default_factory: Callable[[], Any] | Any,
                 repr: bool) -> None:
        self.default = default
        self.default_factory = default_factory
        self.repr = repr


def field(*, default: Any = _MISSING, default_factory: Callable[[], Any] | Any = _MISSING,
          repr: bool = True) -> Any:
    """A field's default (a value, or a factory called for every instance) and whether
    ``repr()`` shows it."""
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("a field takes a default or a default_factory, not both")
    return Field(default, default_factory, repr)


def fields(record_or_class: object) -> tuple[str, ...]:
    """The names of a record's fields, in declaration order."""
    return record_or_class.__record_fields__  # type: ignore[attr-defined, no-any-return]


def replace(instance: _T, /, **changes: Any) -> _T:
    """A copy of ``instance`` with some fields changed."""
    cls = type(instance)
    values = dict(zip(cls.__record_fields__, _values(instance), strict=True))  # type: ignore[attr-defined]
    values.update(changes)
    return cls(**values)


def as_dict(value: Any) -> Any:
    """``value`` with every record inside it (in lists, tuples and dicts too) turned into
    a dict of its fields."""
    names = getattr(type(value), "__record_fields__", None)
    if names is not None:
        return {name: as_dict(item) for name, item in zip(names, _values(value), strict=True)}
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a named tuple
        return type(value)(*(as_dict(item) for item in value))
    if isinstance(value, (list, tuple)):
        return type(value)(as_dict(item) for item in value)
    if isinstance(value, dict):
        return {as_dict(k): as_dict(v) for k, v in value.items()}
    return value


def _values(instance: Any) -> tuple[Any, ...]:
    return instance.__record_values__(instance)  # type: ignore[no-any-return]


@dataclass_transform(field_specifiers=(field,))
def record(cls: type[_T] | None = None, /, *, frozen: bool = False, slots: bool = False,
           eq: bool = True) -> Any:
    """Make ``cls`` a record (see the module's documentation); used as ``@record`` or
    ``@record(frozen=True, slots=True)``. With ``eq=False`` instances compare (and hash)
    by identity."""
    def make(cls: type[_T]) -> type[_T]:
        return _make(cls, frozen=frozen, slots=slots, eq=eq)

    return make if cls is None else make(cls)


def _make(cls: type[_T], *, frozen: bool, slots: bool, eq: bool) -> type[_T]:
    own = cls.__dict__
    names = tuple(own.get("__annotations__", {}))
    defaults: dict[str, Any] = {}
    factories: dict[str, Callable[[], Any]] = {}
    hidden: set[str] = set()
    for name in names:
        given = own.get(name, _MISSING)
        if isinstance(given, Field):
            if not given.repr:
                hidden.add(name)
            if given.default_factory is not _MISSING:
                factories[name] = given.default_factory
            elif given.default is not _MISSING:
                defaults[name] = given.default
        elif given is not _MISSING:
            defaults[name] = given
        if name not in defaults and name not in factories and (defaults or factories):
            raise TypeError(f"{cls.__qualname__}: field {name!r} without a default follows "
                            "one with a default")
    if slots:
        body = {key: value for key, value in own.items()
                if key not in names and key not in ("__dict__", "__weakref__")}
        body["__slots__"] = names
        cls = type(cls)(cls.__name__, cls.__bases__, body)  # type: ignore[assignment]
    else:
        for name in names:  # a default stays a class attribute only as a plain value
            if isinstance(own.get(name), Field):
                delattr(cls, name)

    def keep(attribute: str, value: Any) -> None:
        if attribute not in own:
            setattr(cls, attribute, value)

    keep("__init__", _init_function(cls, names, defaults, factories, frozen))
    cls.__record_fields__ = names  # type: ignore[attr-defined]
    cls.__record_values__ = _getter(names)  # type: ignore[attr-defined]
    cls.__record_repr__ = tuple(n for n in names if n not in hidden)  # type: ignore[attr-defined]
    keep("__repr__", _repr)
    # Unpickled (and copied) through __init__, unless __post_init__ would run twice.
    keep("__reduce__", _reduce_restoring if hasattr(cls, "__post_init__") else _reduce)
    if frozen:
        keep("__setattr__", _refuse_assignment)
        keep("__delattr__", _refuse_assignment)
    if eq:
        keep("__eq__", _eq)
        if frozen:
            keep("__hash__", _hash)
        elif "__hash__" not in own:
            cls.__hash__ = None  # type: ignore[assignment]  # equal by value, mutable
    return cls


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    if not names:
        return lambda _instance: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda instance: (one(instance),)
    return attrgetter(*names)


def _init_function(cls: type, names: tuple[str, ...], defaults: dict[str, Any],
                   factories: dict[str, Callable[[], Any]], frozen: bool) -> Callable[..., None]:
    """``__init__``, compiled once for the class: parameters in field order, defaults as
    the function's own, a factory called when its parameter was not given."""
    scope: dict[str, Any] = {"_MISSING": _MISSING, "_set": object.__setattr__}
    parameters, lines = [], []
    for number, name in enumerate(names):
        if name in factories:
            scope[f"_factory{number}"] = factories[name]
            parameters.append(f"{name}=_MISSING")
            value = f"_factory{number}() if {name} is _MISSING else {name}"
        else:
            if name in defaults:
                scope[f"_default{number}"] = defaults[name]
                parameters.append(f"{name}=_default{number}")
            else:
                parameters.append(name)
            value = name
        lines.append(f"    _set(self, {name!r}, {value})" if frozen
                     else f"    self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        lines.append("    self.__post_init__()")
    source = (f"def __init__(self, {', '.join(parameters)}):\n" if parameters
              else "def __init__(self):\n") + ("\n".join(lines) or "    pass") + "\n"
    exec(source, scope)  # noqa: S102 - the source is built from the class's field names
    function = scope["__init__"]
    function.__qualname__ = f"{cls.__qualname__}.__init__"
    function.__module__ = cls.__module__
    return function  # type: ignore[no-any-return]


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record_repr__)
    return f"{type(self).__qualname__}({shown})"


def _eq(self: Any, other: Any) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self.__record_values__(self) == other.__record_values__(other)  # type: ignore[no-any-return]


def _hash(self: Any) -> int:
    return hash(self.__record_values__(self))


def _reduce(self: Any) -> tuple[type, tuple[Any, ...]]:
    return type(self), self.__record_values__(self)


def _reduce_restoring(self: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    return _restore, (type(self), self.__record_values__(self))


def _restore(cls: type[_T], values: tuple[Any, ...]) -> _T:
    instance = cls.__new__(cls)
    for name, value in zip(cls.__record_fields__, values, strict=True):  # type: ignore[attr-defined]
        object.__setattr__(instance, name, value)
    return instance


def _refuse_assignment(self: Any, name: str, *_value: Any) -> None:
    raise FrozenRecordError(f"cannot assign to field {name!r} of a frozen "
                            f"{type(self).__qualname__}")
