"""The `knockboard` command: one module a group of subcommands, `main.py` the parser."""

from .main import build_parser, main

__all__ = ["build_parser", "main"]
