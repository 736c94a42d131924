"""What a remote game must not forget over a restart of its host: every seat's dice
commitment, saved before this home reveals its own nonce (a resumed home then refuses a
commitment changed after the reveals were public, and names who changed it), and why the
game stopped (a forfeit, a cheat), so `resume` reports the stop instead of playing on; a
stop that a seat caused is saved as the game won by forfeit against it.

A commitment saved for a roll is never replaced: saving a different one for the same roll
and seat raises CommitmentConflict (the store's), the saved one kept.

`MemoryJournal` keeps them for a home that will not be resumed (`--no-save`, tests);
`StoreJournal` keeps them in the game database (`store.GameStore`, per room)."""

from typing import Callable, Optional, Union

from ..store.database import CommitmentConflict, GameStore


class MemoryJournal:
    def __init__(self) -> None:
        self._commitments: dict[int, dict[int, str]] = {}    # ply -> {0-based seat: hex commitment}
        self._stop: Optional[str] = None
        self.result: Optional[str] = None        # a forfeit's result (ending.forfeit_result)

    def commitments(self, ply: int) -> dict[int, str]:
        """{seat: commitment} saved for the roll at `ply`."""
        return dict(self._commitments.get(ply, {}))

    def save_commitment(self, ply: int, seat: int, commitment: str) -> None:
        saved = self._commitments.setdefault(ply, {})
        if saved.get(seat, commitment) != commitment:
            raise CommitmentConflict(f"seat {seat + 1}'s commitment for ply {ply} is saved "
                                     f"as {saved[seat][:12]}..., not {commitment[:12]}...")
        saved[seat] = commitment

    def save_stop(self, reason: str, result: Optional[str] = None) -> None:
        self._stop, self.result = reason, result

    def stop(self) -> Optional[str]:
        return self._stop


class StoreJournal:
    def __init__(self, store: GameStore, room: str, fresh: bool,
                 game_id: Callable[[], Optional[int]] = lambda: None) -> None:
        """`fresh`: a new game in `room` (what an earlier game there saved is forgotten);
        `game_id()`: the saved game's id once there is one (a stop also ends it there)."""
        self.store, self.room, self.game_id = store, room, game_id
        if fresh:
            store.forget_room(room)

    def commitments(self, ply: int) -> dict[int, str]:
        return self.store.room_commitments(self.room, ply)

    def save_commitment(self, ply: int, seat: int, commitment: str) -> None:
        self.store.save_room_commitment(self.room, ply, seat, commitment)

    def save_stop(self, reason: str, result: Optional[str] = None) -> None:
        """The game stopped for `reason`; `result`: a forfeit's (the game is finished, won
        by forfeit), else it is abandoned with the reason as its result."""
        self.store.save_room_stop(self.room, reason)
        game_id = self.game_id()
        if game_id is not None:
            if result is None:
                self.store.finish(game_id, reason, status="abandoned")
            else:
                self.store.finish(game_id, result)

    def stop(self) -> Optional[str]:
        return self.store.room_stop(self.room)


# what a remote game saves its commitments and its stop in
Journal = Union[MemoryJournal, StoreJournal]
