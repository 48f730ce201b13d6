"""Upstream formats, below the domain: hashing, records as rows, data and task files, τ²'s
serialisation, hashing and gold-action shape. Imports of whole checkouts and result files
live in :mod:`tautrait_core.interchange`."""
