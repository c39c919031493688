"""mazzo agents package."""
