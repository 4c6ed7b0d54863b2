"""attention dojo: write attention from scratch in NumPy, judged by property tests."""

__version__ = "0.1.0"
