"""The text beside the picture: the game, its phase and whose turn it is, the dice, the
scores and the last moves, from the typed view and the record's entries."""

from __future__ import annotations

from ..games import CHANCE, TERMINAL
from ..session.adapters import get_ui
from .sheet import SheetEntry, sheet_line

MOVES_SHOWN = 14
LAST_MARK = "  (last move)"     # the move ringed on the board


def summary_lines(state, entries, step=None, game_id=None, match=None, names=()) -> list:
    """Lines for `state`, reached by `entries` (the record's entries as a score sheet,
    `sheet.SheetEntry`: who and what; plain text is shown as it is); `step` (k, n) says
    that a replay shows step k of n; `game_id` names a stored game; `match`: a K.O.
    match as it stands at `state` (`GameRecord.replay_match`), whose round being played
    and the totals of the rounds over are then shown; `names`: the players' names by seat
    (the record's), said instead of the seats' colours."""
    game = state.game
    view = state.view()
    title = game.title or game.name
    lines = [title if game_id is None else f"{title}  (game {game_id})"]
    if step is not None:
        lines.append(f"replay: step {step[0]} of {step[1]}")
    ui = get_ui(game, names=names)
    if match is not None:
        begun = sum(1 for e in entries if isinstance(e, SheetEntry) and e.who == "round")
        lines.append(f"match: round {begun + 1} of {match.rounds}")
        if match.rounds_played:
            # the players' running score, which the board's menu ("Total") shows too
            totals = ", ".join(f"{ui.seat_name(seat)} {p}" for seat, p in enumerate(match.totals()))
            lines.append(f"match total: {totals}")
    lines.append(f"phase: {view.phase}")
    lines.append(who_line(ui, state, view))
    if view.dice:
        lines.append("dice: " + " ".join(str(d) for d in view.dice))
    unit = ui.SCORE_UNIT
    for seat, score in enumerate(view.scores):
        shown = int(score) if float(score).is_integer() else score
        lines.append(f"{ui.seat_name(seat)}: {shown} {unit}".rstrip())
    lines.append("")
    lines.append(f"moves ({len(entries)}):")
    first = max(0, len(entries) - MOVES_SHOWN)
    moves = [k for k, e in enumerate(entries) if isinstance(e, SheetEntry) and e.is_move]
    last = moves[-1] if moves else -1
    lines += [_line(k + 1, entries[k]) + (LAST_MARK if k == last else "")
              for k in range(first, len(entries))]
    return lines


def _line(ply, entry) -> str:
    if isinstance(entry, SheetEntry):
        return sheet_line(ply, entry)
    return f"{ply:4}. {entry}"


def who_line(ui, state, view) -> str:
    """Whose turn it is, or the result once the game is over."""
    if view.to_act == TERMINAL:
        return ui.result(state) or "game over"
    if view.to_act == CHANCE:
        if view.turn >= 0:
            return f"{ui.seat_name(view.turn)} rolls"
        return "roll-off" if view.phase == "rolloff" else "dice to roll"
    return f"{ui.seat_name(view.to_act)} to move"
