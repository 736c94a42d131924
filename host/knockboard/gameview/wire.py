"""A position's view (`games.view.PositionView`) as bytes, for the simulator's window in
another program (the PIECES frame, docs/protocol.md): the game's name and options and the
view's fields as compact JSON, zlib-compressed. Only the view's own classes are made from
it again, so the window never builds anything a frame names beyond them."""

from __future__ import annotations

import dataclasses
import json
import zlib
from collections.abc import Mapping
from typing import Any, Optional

from ..games import view as V

# the classes a view is made of, by name
CLASSES = {cls.__name__: cls for cls in vars(V).values()
           if isinstance(cls, type) and dataclasses.is_dataclass(cls)}
MAX_BYTES = 1196               # a frame's payload (docs/protocol.md)
MAX_TEXT = 64 * 1024           # unpacked: a K.O. view is about 2 kB


class WireError(ValueError):
    """Bytes that are no view of this format; nothing is drawn from them."""


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"@": type(value).__name__,
                **{f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if isinstance(value, Mapping):
        return {"@map": [[k, _plain(v)] for k, v in value.items()]}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def _typed(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_typed(v) for v in value)
    if isinstance(value, dict):
        if "@map" in value:
            return V.frozen_map((k, _typed(v)) for k, v in value["@map"])
        cls = CLASSES.get(value.get("@", ""))
        if cls is None:
            raise WireError(f"no view class {value.get('@')!r}")
        return cls(**{k: _typed(v) for k, v in value.items() if k != "@"})
    return value


def encode_view(game, view) -> Optional[bytes]:
    """The bytes of `view` of `game`, or None if they cannot go in one frame (options that
    are no JSON, a view too large)."""
    try:
        text = json.dumps({"game": game.name, "options": game.options, "view": _plain(view)},
                          separators=(",", ":"))
    except (TypeError, ValueError):
        return None
    data = zlib.compress(text.encode(), 9)
    return data if len(data) <= MAX_BYTES else None


def decode_view(data: bytes) -> tuple:
    """(game, view) from `encode_view`'s bytes; WireError if they are not that."""
    from ..games import GameError, get_game
    try:
        inflate = zlib.decompressobj()
        text = inflate.decompress(data, MAX_TEXT)
        if inflate.unconsumed_tail:
            raise ValueError(f"more than {MAX_TEXT} bytes unpacked")
        obj = json.loads(text)
        game = get_game(obj["game"], **obj["options"])
        view = _typed(obj["view"])
    except (zlib.error, ValueError, TypeError, KeyError, GameError) as err:
        raise WireError(f"not a view: {err}") from None
    if not isinstance(view, V.PositionView):
        raise WireError("not a view")
    return game, view
