"""Playing on the board: the session that turns presses into legal actions and the engine's
state into lights, dice and prompts, for all four games."""

from ..store import GameRecord
from .saving import RecordSaver
from .seats import SeatError, parse_bots
from .session import Session, SessionError
from .setup import Setup

__all__ = ["GameRecord", "RecordSaver", "SeatError", "Session", "SessionError", "Setup",
           "parse_bots"]
