"""Game records: an SQLite store of every game and action, and the JSON export format."""

from .database import CommitmentConflict, GameStore, StoreError
from .entries import apply_entry, edit_entry, edited_position
from .paths import default_db_path
from .records import GameRecord, RecordError

__all__ = ["CommitmentConflict", "GameRecord", "GameStore", "RecordError", "StoreError",
           "apply_entry", "default_db_path", "edit_entry", "edited_position"]
