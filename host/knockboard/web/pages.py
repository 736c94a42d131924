"""The files the web server serves: a fixed set, read from this package once; nothing else
on the disk can be asked for."""

from __future__ import annotations

from importlib import resources

# path -> (file in static/, content type)
FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/icon.svg": ("icon.svg", "image/svg+xml"),
}


def load_files() -> dict:
    """path -> (bytes, content type)."""
    folder = resources.files(__package__) / "static"
    return {path: ((folder / name).read_bytes(), kind) for path, (name, kind) in FILES.items()}
