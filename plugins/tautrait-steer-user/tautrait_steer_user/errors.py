"""Errors of the steer plugin, each naming what was wrong and how to fix it."""

from __future__ import annotations

from tautrait_core import ProviderError, TautraitError


class SteerServiceError(ProviderError):
    """The steer service failed or refused a request.

    A :class:`~tautrait_core.errors.ProviderError`, so an episode that ends with it is an
    infrastructure error: excluded from pass^k and re-run on ``--resume``.
    """


class InvalidSteerRequest(TautraitError):
    """A steer request body does not follow the protocol (a local server answers 422)."""


class VectorSetError(TautraitError):
    """A trait-vector set is missing, damaged or does not fit the model."""


class ModelLoadError(TautraitError):
    """A model could not be loaded (no such folder, no model in it, not cached nor
    downloadable) or could not be put on the device asked for."""


class UnsupportedModelError(TautraitError):
    """The fast generation path cannot run this model (its architecture, rope scaling or
    attention window); the eager path still can."""
