"""The simulator: automatic players drive the rules engine for balance statistics."""
