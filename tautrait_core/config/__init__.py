"""A run's configuration: :class:`~tautrait_core.config.run_config.RunConfig`, made of parts
that change together (:mod:`~tautrait_core.config.parts`), and its flat form: the keys of
``tautrait run``'s options, sweep files and stored runs."""
