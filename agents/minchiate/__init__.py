"""Minchiate agents (being built)."""
