"""Where the pieces stand, told to a board that draws them (the simulator's window: the
PIECES frame, docs/protocol.md), as everybody at the table may see them (`GameUI.public`).
The session and the replay both send it, so the window shows the same pieces whichever
program runs on it."""

from __future__ import annotations

from typing import Any, Optional

from ..gameview.wire import encode_view


def show_pieces(board: Any, ui: Any, state: Any, last: Optional[bytes]) -> Optional[bytes]:
    """Send `state`'s pieces to `board` if it draws them and they changed since `last` (the
    bytes sent before); returns the bytes now shown."""
    if not getattr(board, "draws_pieces", False):
        return last
    payload = encode_view(state.game, ui.public(state.view()))
    if payload is not None and payload != last:
        board.show_pieces(payload)
        return payload
    return last
