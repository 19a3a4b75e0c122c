"""Reference executor."""
