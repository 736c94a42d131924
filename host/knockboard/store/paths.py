"""Where the game database lives unless told otherwise."""

import os
import sys
from pathlib import Path
from typing import Optional, Union

from ..file_checks import name_problem, readable_problem, writable_problem

ENV_VAR = "KNOCKBOARD_DB"
FILE_NAME = "games.sqlite3"


def user_data_dir() -> Path:
    """The platform's per-user data folder for Knockboard (XDG on Linux)."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "knockboard"


def default_db_path(explicit: Union[str, Path, None] = None) -> Path:
    """`explicit` (a --db flag) wins, then $KNOCKBOARD_DB, then the user data folder."""
    if explicit:
        return Path(explicit)
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    return user_data_dir() / FILE_NAME


def db_path_problem(path: Union[str, Path]) -> Optional[str]:
    """Why the database cannot be at `path` (None if it can): a missing one is made, with
    the folders above it."""
    path = Path(path)
    problem = name_problem(path)
    if problem is None and path.is_dir():
        return "is a folder, not a database file"
    if problem is None:
        problem = readable_problem(path) if path.exists() else \
            writable_problem(path, make_folders=True)
    return problem
