"""The KNOCKabout demo played on a board: two greedy computer players, every die lit in its
owner's colour, the moved dice blinking, the dice rolls on the OLED. It drives any
`knockboard.device.Board`: the simulator's window (`knockboard demo` with a display) or a
real board."""

from __future__ import annotations

import random
import threading
from typing import Optional

from .bots import GreedyBot
from .device import protocol as P
from .demo import MAX_PLIES
from .games import get_game, sample_chance
from .games.knockabout import ROLLOFF_PENDING
from .games.knockabout_board import CELL_NAMES
from .layouts import get_layout

OWNER_RGB = ((255, 190, 110), (40, 110, 255))   # White's dice warm white, Black's blue
TRAIL_RGB = (70, 30, 0)                          # where the moved die came from
ROLL_S = 1.3                                     # the OLED's roll animation, and a look


def scene_for(state, layout, moved=(), vacated=()) -> P.Scene:
    """Every die lit in its owner's colour; the dice a move displaced blink; the cells they
    left glow dimly."""
    cells = [P.OFF] * len(layout)
    for cell in layout.cells:
        die = state.die_at(cell.space)
        if die:
            effect = P.BLINK if cell.space in moved else P.SOLID
            cells[cell.index] = P.Cell(*OWNER_RGB[die[0]], effect)
        elif cell.space in vacated:
            cells[cell.index] = P.Cell(*TRAIL_RGB)
    return P.Scene(tuple(cells), 255)


class _Pacer:
    """Waits between moves while keeping the link alive; OK on the board pauses/resumes."""

    def __init__(self, board, stop):
        self.board = board
        self.stop = stop or threading.Event()
        self.paused = False

    def wait(self, seconds: float) -> bool:
        """False when told to stop."""
        left = seconds
        while not self.stop.is_set() and (self.paused or left > 0):
            for item in self.board.events(0.05):
                if isinstance(item, P.KeyEvent) and item.control and item.pressed \
                        and item.index == 0:
                    self.paused = not self.paused
            if not self.paused:
                left -= 0.05
        return not self.stop.is_set()


def play_on_board(board, *, seed: Optional[int] = None, delay: float = 0.8,
                  stop: Optional[threading.Event] = None, saver=None):
    """Plays one game on `board`; returns (the result line, e.g. "White wins after 57
    moves", or "Stopped" when `stop` was set; the final state). With a `saver` (a
    session.RecordSaver) every action is saved as it is played, as in `knockboard play`."""
    from .store import GameRecord

    seed = random.randrange(1 << 30) if seed is None else seed
    record = GameRecord.seated("knockabout", {}, ["greedy", "greedy"], seed)

    def apply(action):
        record.push(state, action)
        state.apply(action)
        if saver is not None:
            saver.sync(record, state)

    dice = random.Random(seed)
    game = get_game("knockabout")
    layout = get_layout("knockabout")
    state = game.new_initial_state()
    bots = [GreedyBot(seed * 2 + 1), GreedyBot(seed * 2 + 2)]
    pacer = _Pacer(board, stop)
    board.set_scene(scene_for(state, layout))
    board.show(P.Display(lines=("KNOCKabout demo", "OK: pause")))
    moves = 0
    if not pacer.wait(delay):
        return "Stopped", state
    for _ in range(MAX_PLIES):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = sample_chance(state, dice)
            text = state.action_to_string(action)
            if state.side == ROLLOFF_PENDING:
                white, black = (int(v) for v in text.split()[1].split("-"))
                shown = P.Display(lines=("Roll-off", "White - Black"), dice=(white, black),
                                  kind=6, roll=True)
                rerolled = set()
            else:
                name = CELL_NAMES[state.pending]
                rerolled = {name}
                sides = state.die_at(name)[1]
                shown = P.Display(lines=(f"Reroll {name}",), dice=(int(text.split()[1]),),
                                  kind=sides, roll=True)
            board.show(shown)
            board.sound("roll")
            apply(action)
            board.set_scene(scene_for(state, layout, moved=rerolled))
            if not pacer.wait(ROLL_S):
                return "Stopped", state
            continue
        mover = state.current_player()
        before = {c.space: state.die_at(c.space) for c in layout.cells}
        action = bots[mover].choose(state)
        text = state.action_to_string(action)
        apply(action)
        moves += 1
        after = {space: state.die_at(space) for space in before}
        changed = {s for s in before if before[s] != after[s]}
        board.set_scene(scene_for(state, layout, moved={s for s in changed if after[s]},
                                  vacated={s for s in changed if not after[s]}))
        board.show(P.Display(lines=(f"Move {moves}", f"{game.player_name(mover)} {text}",
                                    f"gutter W{state.in_gutter[0]} B{state.in_gutter[1]}")))
        board.sound("click")
        if not pacer.wait(delay):
            return "Stopped", state
    result = f"{state.result() or 'Stopped'} after {moves} moves"
    board.show(P.Display(lines=(state.result() or "Stopped", f"after {moves} moves")))
    board.sound("win")
    board.flush(2.0)
    return result, state


def run_window_demo(seed: Optional[int] = None, delay: float = 0.8, out=None,
                    on_ready=None, store=None) -> int:
    """`knockboard demo` with a display: the simulator window, a computer-vs-computer game
    on it through the simulator's serial port, exactly as a host drives a real board.
    `on_ready(port, window)` runs once both are up (tests close the window from there).
    The game is saved in `store` (a GameStore) if one is given."""
    import sys

    from .device.board import Board, BoardError
    from .sim.window import run_window

    from .session.saving import RecordSaver

    out = out or sys.stdout
    stop = threading.Event()
    saver = RecordSaver(store) if store is not None else None

    def host(port):
        try:
            with Board.open(port.path) as board:
                result, _ = play_on_board(board, seed=seed, delay=delay, stop=stop,
                                          saver=saver)
                print(result, file=out, flush=True)
                if saver is not None and saver.game_id:
                    print(f"knockboard: saved as game {saver.game_id} in {store.path}",
                          file=out, flush=True)
        except BoardError as err:
            if not stop.is_set():
                print(f"knockboard demo: {err}", file=out, flush=True)

    def start_host(port, window):
        thread = threading.Thread(target=host, args=(port,), name="demo-host", daemon=True)
        def stop_host():
            stop.set()
            thread.join(3)
        window.close_hooks.insert(0, stop_host)  # before the port closes under it
        thread.start()
        if on_ready is not None:
            on_ready(port, window)

    return run_window("knockabout", seed=seed, out=out, on_ready=start_host)
