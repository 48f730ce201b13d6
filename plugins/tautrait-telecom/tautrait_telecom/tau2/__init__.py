"""τ²-bench's telecom as a dual-control domain (``tau2-telecom``): the agent works on the
carrier's systems, the customer on their own phone. See :mod:`.domain`."""
