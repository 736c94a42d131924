"""A review written for people: a line per step, then the summary per player."""

from typing import List, Sequence

from .analysis import Decision, Review
from .estimator import STATED_RATE, STATED_SLACK
from .marks import luck_mark
from .summary import PlayerSummary, summarise


def step_lines(review: Review, names: Sequence[str]) -> List[str]:
    """One line per step: a decision's chance before (its best move) and after, its error,
    the best move where another was played; a roll's luck for the player it favoured."""
    lines = []
    # the names' column as wide as the longest ("Green+Yellow", a two-player K.O. side)
    who = max(10, *(len(n) for n in names))
    for step in review.steps:
        if isinstance(step, Decision):
            p = step.player
            line = (f"{step.ply:4d}  {names[p]:<{who}} {step.move:<14} "
                    f"{step.before[p]:.3f} -> {step.after[p]:.3f}  error {step.error:.3f}")
            if step.mark:
                line += f"  {step.mark} (best {step.best})"
        else:
            q = step.favoured
            line = (f"{step.ply:4d}  {'roll':<{who}} {step.outcome:<14} "
                    f"{step.before[q]:.3f} -> {step.after[q]:.3f}  luck {step.luck[q]:+.3f} "
                    f"for {names[q]}")
            mark = luck_mark(step.luck[q])
            if mark:
                line += f"  {mark}"
        lines.append(line.rstrip())
    return lines


def summary_lines(review: Review, names: Sequence[str]) -> List[str]:
    """The summary per player, and the sum check's slack."""
    lines = [f"review ({_estimator(review)}): chance to win from 0 to 1"]
    summaries = summarise(review)
    width = max(len(n) for n in names)
    for s in summaries:
        lines.append(f"  {names[s.player]:<{width}}  start {s.start:.3f}  "
                     f"error {s.error:.3f} over {s.decisions} moves{_marks(s)}  "
                     f"luck {s.luck:+.3f}  others' moves {s.gifts:+.3f}  "
                     f"result {s.result:.3f}  luck-adjusted {s.luck_adjusted:+.3f}")
    slack = max(abs(s.unexplained) for s in summaries)
    lines.append(f"  sum check: start + luck - error + others' moves = result, within "
                 f"{slack:.3f} (the estimate's inconsistency along the game)")
    stated = _stated_error(review)
    if stated:
        lines.append(f"  the estimate's stated error: {stated}")
    return lines


def _stated_error(review: Review) -> str:
    """The bound the estimator states for the sum check (`STATED_SLACK`, `STATED_RATE`,
    docs/review.md), or "" where none was stated for the estimator this review used."""
    kind = (review.game, review.players)
    if review.game == "knockoff" and not review.learnt_value:
        return ""       # Knock-Off off the standard board: searched, no bound measured
    if kind in STATED_SLACK:
        return f"{STATED_SLACK[kind]:.2f} a player, on average over games"
    if kind in STATED_RATE:
        rolls = sum(1 for step in review.steps if not isinstance(step, Decision))
        rate = STATED_RATE[kind]
        return f"at most {rate} a roll, {rate * rolls:.2f} over this game's {rolls} rolls"
    return ""


def _estimator(review: Review) -> str:
    if review.game == "knockoff" and review.learnt_value:
        # Knock-Off's learnt value is only on the standard board, and there it is used whole
        return "learnt value, whole turns" if review.players == 2 else \
            "learnt shares, whole turns"
    if review.game == "ko" and review.learnt_value:
        # the learnt shares value K.O.'s turns; its secret set-up is still searched
        return f"learnt shares, whole turns; the set-up searched, {review.iterations} " \
            "iterations a position"
    learnt = ", learnt value at the leaves" if review.learnt_value else ""
    return f"search, {review.iterations} iterations a position{learnt}"


def _marks(s: PlayerSummary) -> str:
    if not s.marks:
        return ""
    plurals = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}
    return " (" + ", ".join(f"{s.marks[m]} {m if s.marks[m] == 1 else plural}"
                            for m, plural in plurals.items() if m in s.marks) + ")"
