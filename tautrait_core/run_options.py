"""Run options that plugins declare (hook ``register_run_options``).

Kept apart from :mod:`tautrait_core.config` and free of heavy imports: ``tautrait run --help``
and every plugin's top-level module use it, and neither may pay for pydantic at start-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tautrait_core.errors import ConfigError


@dataclass(frozen=True)
class RunOption:
    """A ``tautrait run`` option that a plugin declares (hook ``register_run_options``).

    The value given for it is validated against ``type``, stored with the run in
    ``RunConfig.plugin_options[name]`` (left out when it equals ``default``), shown by
    ``tautrait report`` and restored on ``--resume``.
    """

    name: str
    """Key in ``plugin_options`` and in sweep files; the flag is ``--name`` with ``-`` for
    ``_``. Must not be a RunConfig field."""
    help: str
    """One line for ``tautrait run --help``."""
    type: Any = str
    """What a value must be, as a type pydantic validates: ``str``, ``int``, ``float``,
    ``bool``, ``Literal["a", "b"]``, ``Annotated[int, Field(ge=1)]``, ..."""
    default: Any = None
    """The value when the option is not given."""
    aliases: tuple[str, ...] = ()
    """Other names accepted for it (each is also a flag), e.g. an upstream spelling."""
    resumable: bool = False
    """Whether ``--resume`` takes a new value given on its command line (a server's
    address, a timeout), as it does for the model servers; otherwise a value other than the
    stored one is refused on resume."""

    @property
    def names(self) -> tuple[str, ...]:
        """The name, then the aliases."""
        return (self.name, *self.aliases)

    @property
    def flags(self) -> tuple[str, ...]:
        """The command-line flags: ``--name`` and one per alias."""
        return tuple(f"--{name.replace('_', '-')}" for name in self.names)

    def value_in(self, plugin_options: Mapping[str, Any]) -> Any:
        """This option's value in a run's ``plugin_options``: as given, else the default."""
        return plugin_options.get(self.name, self.default)

    def validate(self, value: Any) -> Any:
        """``value`` converted to ``type``, or a one-line :class:`ConfigError` naming the option."""
        from pydantic import TypeAdapter, ValidationError

        try:
            return TypeAdapter(self.type).validate_python(value)
        except ValidationError as exc:
            problem = "; ".join(error["msg"] for error in exc.errors())
            raise ConfigError(
                f"invalid value {value!r} for run option {self.flags[0]} ({self.name}): {problem}"
            ) from None
