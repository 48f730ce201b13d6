"""τ²-bench's mock domain for tautrait (``--domain tau2-mock``).

Importing this module is cheap: the CLI loads it on every start. The domain is built only
when the hook runs.
"""

from __future__ import annotations

from tautrait_core import domain_hook

register_domains = domain_hook("tautrait_mock.domain:build_domain", name="tau2-mock")
