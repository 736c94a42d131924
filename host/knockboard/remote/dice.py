"""Dice nobody can fix: a commit-reveal roll between the seats of a remote game.

For every chance step each seat draws a secret nonce, publishes the commitment
SHA-256(domain || nonce), and reveals the nonce only once it has seen every seat's
commitment.  The outcome is drawn from SHA-256 of all the reveals in seat order, so no seat
can choose or foresee it unless every other seat helps; a reveal that does not match its
commitment names its seat.  See docs/remote.md for the threat model."""

import functools
import hashlib
import hmac
import math
from fractions import Fraction
from typing import Sequence

from ..games.base import Action

NONCE_BYTES = 32
# the chance outcomes' probabilities are read as fractions with at most this denominator
# (the games' dice give 1/6, 1/36, 1/8 ...: exact)
MAX_DENOMINATOR = 1 << 20


def commitment(room: str, ply: int, seat: int, nonce: bytes) -> str:
    """The hex commitment to `nonce` (bytes) for one seat's share of the roll at `ply`;
    the room, ply and seat are hashed in so a commitment cannot be replayed elsewhere."""
    return hashlib.sha256(_domain(room, ply, seat) + nonce).hexdigest()


def verify(room: str, ply: int, seat: int, nonce: bytes, committed: str) -> bool:
    return hmac.compare_digest(commitment(room, ply, seat, nonce), committed)


def _domain(room: str, ply: int, seat: int) -> bytes:
    return f"knockboard-dice/{room}/{ply}/{seat}/".encode()


def outcome(outcomes: Sequence[tuple[Action, float]], reveals: Sequence[bytes]) -> Action:
    """The chance outcome drawn from the reveals (nonces in seat order): exactly with the
    outcomes' probabilities, by rejection sampling on a hash stream (no modulo bias)."""
    weights = _weights(tuple(p for _, p in outcomes))
    seed = hashlib.sha256(b"".join(len(n).to_bytes(2, "big") + n for n in reveals)).digest()
    value = _uniform(seed, sum(weights))
    for (action, _), weight in zip(outcomes, weights):
        if value < weight:
            return action
        value -= weight
    raise AssertionError("the weights add up to the range drawn from")


@functools.lru_cache(maxsize=64)
def _weights(probabilities: tuple[float, ...]) -> list[int]:
    """Whole-number weights in exactly the probabilities' proportions (a game has a few
    kinds of roll: they are worked out once each)."""
    fractions = [Fraction(p).limit_denominator(MAX_DENOMINATOR) for p in probabilities]
    total = sum(fractions)
    denominator = 1
    for f in fractions:
        denominator = math.lcm(denominator, f.denominator)
    return [int(f / total * denominator) for f in fractions]


def _uniform(seed: bytes, n: int) -> int:
    """A uniform integer in [0, n) from the hash stream SHA-256(seed || counter)."""
    bits = max(1, (n - 1).bit_length())
    nbytes = (bits + 7) // 8
    for counter in range(1 << 16):
        block = hashlib.sha256(seed + counter.to_bytes(4, "big")).digest()
        value = int.from_bytes(block[:nbytes], "big") >> (8 * nbytes - bits)
        if value < n:                  # rejected values would bias the low outcomes
            return value
    raise AssertionError("2^16 rejections in a row")   # probability < 2^-65536
