"""Short programs that show the library at work (checked by mypy and the tests)."""
