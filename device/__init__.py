"""aetherbox's game brain: rules, state, journal, configuration and the controller."""

__version__ = "0.1.0"
