"""Game records: an SQLite store of every game and action, and the JSON export format."""

from .database import GameStore, StoreError
from .paths import default_db_path
from .records import GameRecord, RecordError

__all__ = ["GameRecord", "GameStore", "RecordError", "StoreError", "default_db_path"]
