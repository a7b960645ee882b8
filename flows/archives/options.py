"""Each archive kind's options as a frozen dataclass, read from a source's table with checks.

A kind declares `Options`; the config is checked against it when it is loaded, so a typo in a
key (`settled_afer_days`) is an error naming the valid keys instead of a silent default.
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from flows.archives.base import UnitError
from flows.http import DEFAULT_MAX_UNIT_BYTES
from flows.source import Limits, Source

T = TypeVar("T")

# Keys every source may set whatever its kind: its caps (flows.source.Limits) and the quiet
# days after which the quality gate warns (expectations.alerts).
COMMON = frozenset(f.name for f in dataclasses.fields(Limits)) | {"quiet_days"}


@dataclasses.dataclass(frozen=True, slots=True)
class FileOptions:
    """Options of a kind whose unit is one downloaded file (an mbox, a volume, an export)."""

    max_unit_bytes: int = DEFAULT_MAX_UNIT_BYTES


def valid_keys(cls: type) -> list[str]:
    return sorted(COMMON | {f.name for f in dataclasses.fields(cls)})


def typed_options(cls: type[T], source: Source) -> T:
    """The source's options as the kind's dataclass; an unknown key or a wrong type is a config
    error, said plainly (UnitError, which the config loader reports as a ConfigError)."""
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(source.options) - names - COMMON)
    if unknown:
        raise UnitError(f"{source.name}: unknown option{'s' if len(unknown) > 1 else ''} "
                        f"{', '.join(unknown)} for kind {source.kind} (valid: {', '.join(valid_keys(cls))})")
    hints = get_type_hints(cls)
    values = {name: _check(source.name, name, source.options[name], hints[name])
              for name in names if name in source.options}
    return cls(**values)


def _check(where: str, name: str, value: Any, want: Any) -> Any:
    args = get_args(want)
    if get_origin(want) in (Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        (want,) = [a for a in args if a is not type(None)]
        args = get_args(want)
    if want is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise UnitError(f"{where}: option {name} must be an integer, got {value!r}")
        if value <= 0:
            raise UnitError(f"{where}: option {name} must be positive, got {value}")
    elif want is float:
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise UnitError(f"{where}: option {name} must be a positive number, got {value!r}")
        return float(value)
    elif want is str:
        if not isinstance(value, str):
            raise UnitError(f"{where}: option {name} must be a string, got {value!r}")
    elif get_origin(want) is list:
        (item,) = args
        if not isinstance(value, list) or not all(isinstance(v, item) and not isinstance(v, bool)
                                                  for v in value):
            raise UnitError(f"{where}: option {name} must be a list of {item.__name__}, got {value!r}")
        return list(value)
    # `object`: the kind checks the value itself (a month given as text or a TOML date, ...)
    return value
