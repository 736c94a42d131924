"""Why a path given on the command line cannot be used, said before anything is opened: a
folder where a file is wanted, a missing folder, a path below a file, no permission, a name
the file system cannot hold. Each function returns the reason (to follow the path in a
message) or None."""

import os
from pathlib import Path


def name_problem(path):
    """Why no file can ever be at `path`, whatever it holds."""
    text = str(path)
    if not text or "\0" in text:
        return "not a file name"
    try:
        path.exists()
        for folder in path.parents:
            if folder.exists() and not folder.is_dir():
                return f"{folder} is a file, not a folder"
    except (OSError, ValueError) as err:       # a name too long, one the OS cannot encode
        return f"not a usable file name ({getattr(err, 'strerror', None) or err})"
    return None


def readable_problem(path):
    """Why `path` is not an existing regular file this process may read."""
    path = Path(path)
    problem = name_problem(path)
    if problem:
        return problem
    if not path.exists():
        return "no such file"
    if path.is_dir():
        return "is a folder, not a file"
    if not path.is_file():
        return "not a regular file"
    if not os.access(path, os.R_OK):
        return "not readable (no permission)"
    return None


def writable_problem(path, make_folders=False):
    """Why a file cannot be written at `path`; with `make_folders` the missing folders
    above it will be made, so only the nearest existing one must be writable."""
    path = Path(path)
    problem = name_problem(path)
    if problem:
        return problem
    if path.is_dir():
        return "is a folder, not a file"
    if path.exists():
        return None if os.access(path, os.W_OK) else "not writable (no permission)"
    folder = path.parent
    while make_folders and not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable (no permission)"
    return None


def folder_problem(path):
    """Why files cannot be written into the folder `path`, made if it does not exist yet
    (in a folder that does, as a file would be)."""
    path = Path(path)
    if not path.is_dir():
        return "not a folder" if path.exists() else writable_problem(path)
    problem = name_problem(path)
    if problem:
        return problem
    return None if os.access(path, os.W_OK | os.X_OK) else "not writable (no permission)"
