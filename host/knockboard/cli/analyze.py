"""`knockboard analyze` and `knockboard hint`: a position, its legal actions, the strong
bot's move."""

import argparse
import time
from typing import Dict, Iterable, List, Mapping, Union

from ..games import Game, GameError, State, get_game
from ..games.base import Action
from .args import (BUDGET, CliError, SubParsers, add_position_arguments, parse_options,
                   positive_int, seed)


def _position_after(args: argparse.Namespace) -> State:
    """The state that `--position`/`--option` and the MOVEs of `args` name."""
    options = parse_options(args.option)
    game = get_game(args.game, **options)
    state = _read_position(game, args.position, options) if args.position is not None \
        else game.analysis_start()
    for number, text in enumerate(args.moves, 1):
        try:
            state.apply_text(text)
        except GameError as err:
            raise GameError(f"move {number} {text!r}: {err}") from None
    return state


def _read_position(game: Game, text: str, options: Dict[str, Union[int, str]]) -> State:
    """The position `text` of `game`. A position that says how many play (K.O.'s seating
    "RB/GY", Knock-Off's "-/-") is read with that many players when --option players does
    not say otherwise: the one count it reads with, else the default's error."""
    try:
        return game.from_position(text)
    except GameError:
        if "players" in options:
            raise
        from ..session.menu import players_choices
        read: List[State] = []
        for players in players_choices(game.name):
            try:
                read.append(get_game(game.name, **options, players=players)
                            .from_position(text))
            except GameError:
                pass
        if len(read) != 1:
            raise
        return read[0]


def cmd_analyze(args: argparse.Namespace) -> int:
    """Apply moves to a position; print the resulting position and the legal actions."""
    state = _position_after(args)
    lines = [state.to_position()]
    lines.extend(sorted(state.legal_action_strings()))
    print("\n".join(lines))
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    """The strong bot's move for the player to act, and what its search saw."""
    from ..bots import StrongBot
    from ..bots.heuristics import is_mixed_decision
    state = _position_after(args)
    if state.is_terminal() or state.is_chance_node():
        raise CliError("hint: nobody is to decide here: " +
                       ("the game is over" if state.is_terminal() else "a die roll is due"))
    try:
        bot = StrongBot(seed=args.seed, budget=args.budget, iterations=args.iterations)
    except ValueError as err:
        raise CliError(f"hint: {err}") from None
    started = time.perf_counter()
    action = bot.suggest(state)
    seconds = time.perf_counter() - started
    stats = bot.last_stats
    mover = state.game.player_name(state.current_player())
    lines = [state.action_to_string(action),
             f"strong bot for {mover}: {stats['iterations']} iterations, {seconds:.2f} s"]
    if is_mixed_decision(state):
        lines.append("a mixed decision: the move is drawn at random from the bot's strategy "
                     f"for it (seed {args.seed}; Dodgeball: the throw's matrix game)")
    for candidate, visits, value in stats.get("candidates", ())[:args.top]:
        lines.append(f"  {state.action_to_string(candidate):<16} {visits:>7} visits  "
                     f"value {value:+.3f}")
    # The searches that plan whole turns (Dodgeball, two-player Knock-Off): the turn as
    # planned, and the best turns looked at, each with the mover's chance to win.
    turn = _planned_turn(state, action, bot.plan)
    if len(turn) > 1:
        lines.append("the turn it plans: " + ", ".join(turn))
    for chance, actions in stats.get("turns", ())[:args.top]:
        lines.append(f"  {', '.join(_line(state, actions)):<24} chance to win {chance:.3f}")
    print("\n".join(lines))
    return 0


def _line(state: State, actions: Iterable[Action]) -> List[str]:
    """`actions` played one after the other from `state`, in the game's notation."""
    scratch, words = state.clone(), []
    for action in actions:
        words.append(scratch.action_to_string(action))
        scratch.apply(action)
    return words


def _planned_turn(state: State, action: Action, plan: Mapping[str, Action]) -> List[str]:
    """`action`, then the actions the bot's plan (position -> action) holds for the
    positions that follow, until a die is due or the plan has none."""
    actions, scratch = [action], state.clone()
    scratch.apply(action)
    while not scratch.is_terminal() and not scratch.is_chance_node():
        planned = plan.get(scratch.to_position())
        if planned is None or planned not in scratch.legal_actions():
            break
        actions.append(planned)
        scratch.apply(planned)
    return _line(state, actions)


def add_analysis_commands(sub: SubParsers) -> None:
    analyze = sub.add_parser(
        "analyze", help="apply moves to a position, print it and the legal actions",
        description="Apply MOVEs (chance outcomes included) to a position and print the "
                    "resulting position on the first line, then the legal actions or chance "
                    "outcomes one per line, sorted.")
    add_position_arguments(analyze)
    analyze.set_defaults(func=cmd_analyze)

    hint = sub.add_parser(
        "hint", help="the strong computer player's move for a position",
        description="Apply MOVEs to a position as `analyze` does, then print the strong "
                    "bot's move for the player to act (first line, in the game's notation), "
                    "its search's size and time, and its most visited candidate moves (or, "
                    "where it plans whole turns, the turn it plans and the best turns it "
                    "looked at with the chance to win each gives).")
    add_position_arguments(hint)
    hint.add_argument("--budget", type=BUDGET, default=1.0, metavar="SECONDS",
                      help="search time (default 1; a cap when --iterations is given)")
    hint.add_argument("--iterations", type=positive_int, default=None, metavar="N",
                      help="search iterations: the move then depends on the seed only")
    hint.add_argument("--seed", type=seed, default=0, metavar="S", help="default 0")
    hint.add_argument("--top", type=positive_int, default=5, metavar="N",
                      help="candidate moves to list (default 5)")
    hint.set_defaults(func=cmd_hint)
