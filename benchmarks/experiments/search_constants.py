"""A bot-strength experiment: does the strong bot's tree search gain from other constants?

The shipped search explores with UCT_C = 0.8 and lets 1 + WIDEN * sqrt(visits) children of a
node take part (WIDEN = 1.5).  This plays the strong bot with other values against the greedy
bot, in the arena's games and seeds (the same games as `knockboard arena GAME --bots
strong,greedy --iterations N --budget 30`), so the figure is comparable with the shipped
one in `benchmarks/arena.md`.

    python3 benchmarks/experiments/search_constants.py knockoff --exploration 0.3 --games 200
    python3 benchmarks/experiments/search_constants.py knockoff --widen 4 --games 200
"""

import time

from lookahead import against_greedy, common_arguments, game_of, report

from knockboard.bots import strong


def main(argv=None):
    parser = common_arguments(__doc__.split("\n\n")[0], games=200)
    parser.add_argument("--exploration", type=float, default=strong.UCT_C)
    parser.add_argument("--widen", type=float, default=strong.WIDEN)
    parser.add_argument("--iterations", type=int, default=1000)
    args = parser.parse_args(argv)
    if not (args.exploration >= 0 and args.widen > 0 and args.iterations >= 1):
        parser.error("--exploration must be >= 0, --widen > 0, --iterations >= 1")
    game = game_of(args)
    strong.WIDEN = args.widen            # a module constant: this process only
    started = time.perf_counter()
    wins, seconds, moves = against_greedy(
        game, lambda seed: strong.StrongBot(seed, budget=30, iterations=args.iterations,
                                            exploration=args.exploration),
        args.games, args.seed)
    report(f"strong(C {args.exploration:g}, widen {args.widen:g}, {args.iterations} it.)",
           game, args.games, wins, seconds, moves, started)


if __name__ == "__main__":
    main()
