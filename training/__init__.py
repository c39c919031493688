"""mazzo training package."""
