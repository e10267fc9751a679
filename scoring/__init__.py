"""The games' rules, in pure Python: no web framework, no database, no I/O."""
