"""Example counts that follow the Hypothesis profile (tests/conftest.py): a quick suite for
developers, the full one for CI.

A test that wants N examples asks for `examples(N)`: N under the ci profile, a quarter of N
(at least 10) under the dev profile.
"""

from __future__ import annotations

from hypothesis import settings

CI_EXAMPLES = 100  # max_examples of the ci profile


def examples(n: int) -> int:
    return max(10, n * settings.default.max_examples // CI_EXAMPLES)
