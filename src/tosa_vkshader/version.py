"""The package's version: the one place it is written (pyproject.toml reads it from here).

A module of its own, below everything, so that whatever shows the version (``--version``,
the reports, the web server) imports this and nothing else.
"""

__version__ = "0.1.0"
