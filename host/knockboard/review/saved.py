"""A review's summary and chart kept next to the game database, so that `knockboard show`
prints the summary and `export --svg` adds the chart without reviewing again:
`<database>.reviews/<id>.json`, valid for the record it was made of (same game, start time
and number of actions)."""

import json
from pathlib import Path
from typing import Any, List, Optional

FORMAT = "knockboard-review"


def review_path(db_path: Path, game_id: int) -> Path:
    return Path(str(db_path) + ".reviews") / f"{game_id}.json"


def _identity(record: Any) -> dict:
    return {"game": record.game, "started": record.started, "actions": len(record.actions)}


def save_summary(db_path: Path, record: Any, lines: List[str], chart: str = "") -> Path:
    """Keep the summary's lines (and the chart, an SVG document)."""
    path = review_path(db_path, record.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"format": FORMAT, "record": _identity(record),
                                "summary": lines, "chart": chart}, indent=1))
    return path


def _saved(db_path: Path, record: Any) -> Optional[dict]:
    """The review kept of this very record, or None (none made, or made of another game or
    of fewer moves, or unreadable)."""
    path = review_path(db_path, record.id)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or \
            data.get("record") != _identity(record):
        return None
    return data


def saved_chart(db_path: Path, record: Any) -> Optional[str]:
    """The chart (an SVG document) of the review kept of this record, or None."""
    data = _saved(db_path, record)
    chart = None if data is None else data.get("chart")
    return chart if isinstance(chart, str) and chart else None


def saved_summary(db_path: Path, record: Any) -> Optional[List[str]]:
    """The summary's lines of the review kept of this record, or None."""
    data = _saved(db_path, record)
    if data is None:
        return None
    lines = data.get("summary")
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
        return None
    return lines
