"""Reports people read: summaries with intervals, trait-drop tables, transcripts, HTML,
model-assigned failure diagnoses, and imports of published upstream runs.

Each module has one job; the CLI (``tautrait_core.cli.reports``) only parses and prints.
"""
