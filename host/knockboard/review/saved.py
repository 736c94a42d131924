"""A review kept next to the game database, so that `knockboard show` prints its summary,
`export --svg` adds its chart and the game view's window draws it without reviewing again:
`<database>.reviews/<id>.json`, valid for the record it was made of (same game, start time
and number of actions).  The steps themselves are kept (each decision's and roll's chances),
so every picture of the review is drawn from the same data (`gameview/chance_chart.py`)."""

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any, List, Optional

from .analysis import Decision, Review, Roll

FORMAT = "knockboard-review"


def review_path(db_path: Path, game_id: int) -> Path:
    return Path(str(db_path) + ".reviews") / f"{game_id}.json"


def _identity(record: Any) -> dict:
    return {"game": record.game, "started": record.started, "actions": len(record.actions)}


def save_review(db_path: Path, record: Any, review: Review, lines: List[str]) -> Path:
    """Keep the review's steps and its summary's lines."""
    path = review_path(db_path, record.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"format": FORMAT, "record": _identity(record),
                                "summary": lines, "review": review_data(review)}, indent=1))
    return path


def review_data(review: Review) -> dict:
    """The review as JSON-ready data (`review_from_data` reads it back)."""
    steps = [dict(asdict(s), kind="decision" if isinstance(s, Decision) else "roll")
             for s in review.steps]
    return {"game": review.game, "players": review.players, "iterations": review.iterations,
            "learnt_value": review.learnt_value, "result": list(review.result),
            "steps": steps}


def review_from_data(data: Any) -> Optional[Review]:
    """The Review kept as `review_data`, or None where the data is not one (a damaged or
    hand-edited file: as if no review had been kept)."""
    try:
        n = data["players"]
        review = Review(str(data["game"]), int(n), int(data["iterations"]),
                        bool(data["learnt_value"]))
        review.result = _chances(data["result"], n)
        for step in data["steps"]:
            kind = step["kind"]
            before, after = _chances(step["before"], n), _chances(step["after"], n)
            if kind == "decision":
                review.steps.append(Decision(int(step["ply"]), int(step["player"]),
                                             str(step["move"]), str(step["best"]), before,
                                             after, int(step["choices"])))
            elif kind == "roll":
                review.steps.append(Roll(int(step["ply"]), str(step["outcome"]),
                                         int(step["player"]), before, after,
                                         int(step["outcomes"])))
            else:
                return None
    except (KeyError, TypeError, ValueError):
        return None
    return review


def _chances(values: Any, n: int) -> tuple:
    chances = tuple(float(v) for v in values)
    if len(chances) != n:
        raise ValueError("a chance per player")
    return chances


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


def saved_review(db_path: Path, record: Any) -> Optional[Review]:
    """The review kept of this record, or None."""
    data = _saved(db_path, record)
    if data is None:
        return None
    review = review_from_data(data.get("review"))
    if review is None or review.game != record.game or \
            len(review.steps) != len(record.actions):
        return None
    return review


def saved_summary(db_path: Path, record: Any) -> Optional[List[str]]:
    """The summary's lines of the review kept of this record, or None."""
    data = _saved(db_path, record)
    if data is None:
        return None
    lines = data.get("summary")
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
        return None
    return lines
