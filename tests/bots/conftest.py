"""Fixtures of the bot tests."""
from .helpers import c_bot  # noqa: F401 - a fixture, found by name
