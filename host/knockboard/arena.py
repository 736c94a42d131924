"""`knockboard arena`: bots play each other; win rates with 95% confidence intervals.

Games are played in blocks of one game per seat rotation: in game g the bot listed i-th sits
in seat (i + g) mod P, so every bot plays every seat equally often.  All games of a block
draw their dice from the same stream (a `random.Random` seeded from the arena seed and the
block number), so luck is shared between the rotations as far as the games run alike.  A
win is rank-based: the players with the highest return share one win (`win_shares`), which
fits +1/-1 results and K.O.'s points alike.  The win rate's interval is Wilson's score
interval; the time per move is measured around each bot's `choose`.
"""

import math
import random
import time
from dataclasses import dataclass, field

from .bots import BOT_NAMES, make_bot
from .bots.clairvoyant import ClairvoyantBot
from .bots.heuristics import win_shares
from .bots.levels import LEVELS, make_level, playing_iterations
from .games import sample_chance

# A game that runs this long is stopped and counted as unfinished (no win for anyone):
# the rules know no draw, and two bots can repeat moves for ever (KNOCKabout: pushing the
# same die back and forth; Dodgeball: a side that keeps every ball and never throws).
MAX_DECISIONS = 2000
Z95 = 1.959963984540054
# The players an arena seats: every bot, and the clairvoyant, which reads the arena's dice
# stream ahead (the ceiling of what skill can win; never offered to a person); and the
# levels a person picks (bots/levels.py).
ARENA_BOTS = BOT_NAMES + (ClairvoyantBot.name,) + LEVELS
# the names whose moves are a search (the report states its budget)
SEARCHERS = ("strong", ClairvoyantBot.name, "hard")


def make_arena_bot(name, seed, budget, iterations, game_name=None):
    """A bot of ARENA_BOTS; the clairvoyant searches with the strong bot's budget; a level
    plays at its own budget in `game_name` (the `hard` level: the board's iterations),
    `budget` its time cap."""
    if name == ClairvoyantBot.name:
        return ClairvoyantBot(seed=seed, budget=budget, iterations=iterations)
    if name in LEVELS:
        return make_level(name, seed=seed, game_name=game_name, time_cap=budget)
    return make_bot(name, seed=seed, budget=budget, iterations=iterations)


def wilson_interval(successes, n, z=Z95):
    """Wilson's score interval for a proportion (successes may be fractional: shared wins)."""
    if n <= 0:
        raise ValueError("no trials")
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Entry:
    """One listed bot's tally over the arena."""
    name: str
    wins: float = 0.0
    games: int = 0
    moves: int = 0
    seconds: float = 0.0
    seat_games: dict = field(default_factory=dict)   # seat -> games played there


@dataclass
class ArenaResult:
    game: str
    players: int
    games: int
    seed: int
    budget: float
    iterations: object
    entries: list
    unfinished: int = 0
    plies: int = 0
    max_decisions: int = MAX_DECISIONS


def _seed(*parts):
    # A stable integer from the parts (Python's hash() of str is salted per process).
    value = 0
    for part in parts:
        value = (value * 1_000_003 + int(part)) % (1 << 61)
    return value


def dice_seed(seed, game_index, players):
    """The dice stream's seed of a game: one per block of `players` seat rotations."""
    return _seed(seed, game_index // players, 1)


def play_game(game, seat_bots, dice, max_decisions=MAX_DECISIONS, observe=None):
    """Play one game; returns (win shares per seat or None if unfinished, decisions, plies,
    seconds per seat, moves per seat).  `observe(state, seat, action)`, if given, is called
    before each player's action is applied (a benchmark counting what the bots do)."""
    state = game.new_initial_state()
    n = game.num_players
    seconds = [0.0] * n
    moves = [0] * n
    decisions = plies = 0
    for bot in seat_bots:
        see_dice = getattr(bot, "see_dice", None)
        if see_dice is not None:
            see_dice(dice)             # the clairvoyant reads the stream ahead
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(sample_chance(state, dice))
        else:
            seat = state.current_player()
            start = time.perf_counter()
            action = seat_bots[seat].choose(state)
            seconds[seat] += time.perf_counter() - start
            moves[seat] += 1
            if observe is not None:
                observe(state, seat, action)
            state.apply(action)
            decisions += 1
            if decisions >= max_decisions:
                return None, decisions, plies + 1, seconds, moves
        plies += 1
    return win_shares(state.returns()), decisions, plies, seconds, moves


def run_arena(game, bot_names, games, seed, budget=1.0, iterations=None, progress=None,
              max_decisions=MAX_DECISIONS, observer=None, first=0):
    """Play the games; `observer(listed)`, if given, makes each game's `play_game` observer,
    `listed[seat]` being the index in `bot_names` of the bot in that seat. `first`: the
    games numbered first .. first + games - 1 of the seed's sequence (each game's seats,
    dice and bots follow from the seed and its number alone), so a long row can be split
    over processes and its tallies added."""
    n = game.num_players
    if len(bot_names) != n:
        raise ValueError(f"{game.name} with {n} players needs {n} bots, got {len(bot_names)}")
    for name in bot_names:
        if name not in ARENA_BOTS:
            raise ValueError(f"unknown bot {name!r} (known: {', '.join(ARENA_BOTS)})")
    entries = [Entry(name) for name in bot_names]
    result = ArenaResult(game.name, n, games, seed, budget, iterations, entries,
                         max_decisions=max_decisions)
    for g in range(first, first + games):
        rotation = g % n
        dice = random.Random(dice_seed(seed, g, n))
        # Seat s holds the bot listed (s - rotation) mod n.
        listed = [(s - rotation) % n for s in range(n)]
        seat_bots = [make_arena_bot(bot_names[i], _seed(seed, g, 2, i), budget, iterations,
                                    game.name)
                     for i in listed]
        observe = observer(listed) if observer is not None else None
        shares, _, plies, seconds, moves = play_game(game, seat_bots, dice, max_decisions,
                                                     observe)
        result.plies += plies
        if shares is None:
            result.unfinished += 1
        for seat, i in enumerate(listed):
            entry = entries[i]
            entry.games += 1
            entry.moves += moves[seat]
            entry.seconds += seconds[seat]
            entry.seat_games[seat] = entry.seat_games.get(seat, 0) + 1
            if shares is not None:
                entry.wins += shares[seat]
        if progress:
            progress(g - first + 1, result)
    return result


def format_report(result):
    if any(e.name in SEARCHERS for e in result.entries):
        budget = f"{result.budget:g} s" if result.budget is not None else "none"
        iters = result.iterations if result.iterations is not None else "none"
        if any(e.name == "hard" for e in result.entries):    # the level's own, not --iterations
            iters = f"{iters} (level hard: {playing_iterations(result.game)})"
        search = f"search bots: budget {budget}/move, iterations {iters}"
    else:
        search = "no search bot"
    lines = [f"arena {result.game}: {result.games} games, {result.players} players, "
             f"seed {result.seed}, {search}; seats rotated, dice shared per rotation",
             f"{'#':<2} {'bot':<11} {'wins':>7} {'win rate':>8}  {'95% CI (Wilson)':<16} "
             f"{'ms/move':>9} {'moves':>7}"]
    for i, e in enumerate(result.entries, 1):
        lo, hi = wilson_interval(e.wins, e.games)
        per_move = 1000.0 * e.seconds / e.moves if e.moves else 0.0
        lines.append(f"{i:<2} {e.name:<11} {e.wins:>7g} {e.wins / e.games:>8.3f}  "
                     f"[{lo:.3f}, {hi:.3f}]   {per_move:>9.1f} {e.moves:>7}")
    lines.append(f"unfinished games: {result.unfinished} (stopped after "
                 f"{result.max_decisions} moves, no win for anyone); plies per game: "
                 f"{result.plies / max(result.games, 1):.1f}")
    return "\n".join(lines)


def parse_bots(text):
    """'strong,greedy' -> ['strong', 'greedy'], or ValueError naming the problem."""
    names = [part.strip() for part in text.split(",")]
    if len(names) < 2 or not all(names):
        raise ValueError(f"--bots {text!r}: expected two to four bot names separated by "
                         f"commas, e.g. strong,greedy (bots: {', '.join(ARENA_BOTS)})")
    for name in names:
        if name not in ARENA_BOTS:
            raise ValueError(f"--bots: unknown bot {name!r} (known: {', '.join(ARENA_BOTS)})")
    return names


def arena_command(game_name, bots_text, games, seed, budget, iterations, options, out,
                  err=None, max_moves=MAX_DECISIONS):
    """`knockboard arena`: validate, play, print the report.  ValueError/GameError for bad
    arguments (before anything is played)."""
    from .games import get_game
    names = parse_bots(bots_text)
    if games < 1:
        raise ValueError(f"--games {games}: play at least one game")
    if not (budget > 0 and math.isfinite(budget)):
        raise ValueError(f"--budget {budget:g}: a time budget is a positive number of seconds")
    if iterations is not None and iterations < 1:
        raise ValueError(f"--iterations {iterations}: at least one iteration")
    if max_moves < 1:
        raise ValueError(f"--max-moves {max_moves}: at least one move")
    options = dict(options)
    probe = get_game(game_name)
    if "players" in probe.OPTIONS and "players" not in options:
        options["players"] = len(names)       # `--bots a,b` plays the 2-player game
    game = get_game(game_name, **options)
    if game.num_players != len(names):
        raise ValueError(f"--bots: {game.name} is played by {game.num_players} players, "
                         f"{len(names)} bots given")

    def progress(done, result):
        if err is not None and done % max(1, games // 10) == 0:
            print(f"  {done}/{games} games", file=err, flush=True)

    result = run_arena(game, names, games, seed, budget=budget, iterations=iterations,
                       progress=progress, max_decisions=max_moves)
    print(format_report(result), file=out)
    return result
