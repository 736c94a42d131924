"""The text beside the picture: the game, its phase and whose turn it is, the dice, the
scores and the last moves, from the typed view and the record's entries."""

from __future__ import annotations

from ..games import CHANCE, TERMINAL
from .picture import look_of

MOVES_SHOWN = 14


def summary_lines(state, entries, step=None, game_id=None) -> list:
    """Lines for `state`, reached by `entries` (the record's actions and edits in text);
    `step` (k, n) says that a replay shows step k of n; `game_id` names a stored game."""
    game = state.game
    view = state.view()
    title = game.title or game.name
    lines = [title if game_id is None else f"{title}  (game {game_id})"]
    if step is not None:
        lines.append(f"replay: step {step[0]} of {step[1]}")
    lines.append(f"phase: {view.phase}")
    lines.append(_who(game, state, view))
    if view.dice:
        lines.append("dice: " + " ".join(str(d) for d in view.dice))
    unit = look_of(game.name).score_unit
    for seat, score in enumerate(view.scores):
        shown = int(score) if float(score).is_integer() else score
        lines.append(f"{game.player_name(seat)}: {shown} {unit}".rstrip())
    lines.append("")
    lines.append(f"moves ({len(entries)}):")
    first = max(0, len(entries) - MOVES_SHOWN)
    lines += [f"{k + 1:4}. {entries[k]}" for k in range(first, len(entries))]
    return lines


def _who(game, state, view) -> str:
    if view.to_act == TERMINAL:
        return state.result() or "game over"
    if view.to_act == CHANCE:
        if view.turn >= 0:
            return f"{game.player_name(view.turn)} rolls"
        return "dice to roll"
    return f"{game.player_name(view.to_act)} to move"
