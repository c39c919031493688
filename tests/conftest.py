"""Test-wide settings: the hypothesis profile every property test runs under.

``ci`` (the default): derandomized (the examples are a function of the test alone), no example
database, no deadline (the machine is shared; time belongs in benchmarks/). Select another
profile with ``--hypothesis-profile``.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci")
