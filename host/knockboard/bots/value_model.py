"""A learnt win chance, shared by the games that ship one (`dodgeball_value`,
`knockoff_value`): the features standardised, one layer of tanh units (or none: a linear
model), a logistic output.  The weights are data, a JSON file fitted by a training script in
`benchmarks/` on self-play games; playing needs no numerical library.  A game's model names
its features and its training script, and says what a position is worth to a player."""

import json
import math
from typing import Any, Callable, Dict, List, Sequence, Tuple, Type, TypeVar


class ValueModel:
    FEATURE_NAMES: Tuple[str, ...] = ()
    TRAINER = ""    # the script that fits the weights, named when they do not fit

    def __init__(self, data: Dict[str, Any]) -> None:
        if tuple(data["features"]) != self.FEATURE_NAMES:
            raise ValueError("the weights file was fitted on other features: "
                             f"re-run {self.TRAINER}")
        self.mean: List[float] = data["mean"]
        self.scale: List[float] = data["scale"]
        self.hidden: List[List[float]] = data["hidden"]        # rows: units, last: bias
        self.output: List[float] = data["output"]              # per unit, last: bias
        self.command: str = data.get("command", "")

    def win_chance(self, x: Sequence[float]) -> float:
        return _logistic(self.logit(x))

    def logit(self, x: Sequence[float]) -> float:
        """The model's output before the logistic: a win chance's log-odds, or (a model of
        shares, `knockoff_shares`) a player's utility in a softmax over the players."""
        z = [(v - m) / s for v, m, s in zip(x, self.mean, self.scale)]
        out = self.output[-1]
        if not self.hidden:
            return out + sum(zi * wi for zi, wi in zip(z, self.output))
        for row, w in zip(self.hidden, self.output):
            a = row[-1]
            for zi, wi in zip(z, row):
                a += zi * wi
            out += w * math.tanh(a)
        return out


def _logistic(x: float) -> float:
    return 0.0 if x < -30 else 1.0 / (1.0 + math.exp(-x))


Model = TypeVar("Model", bound=ValueModel)


def loader(model: Type[Model], weights_file: str) -> Callable[..., Model]:
    """A game's `load_model(path=weights_file)`: the committed weights read once and kept;
    another file read each time (training, experiments)."""
    kept: List[Model] = []

    def load_model(path: str = weights_file) -> Model:
        if path == weights_file and kept:
            return kept[0]
        with open(path) as f:
            made = model(json.load(f))
        if path == weights_file:
            kept.append(made)
        return made
    return load_model
