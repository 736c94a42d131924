"""One remote game as this home sees it: the engine, the agreed record, and the messages
from the other seats, each checked before it changes anything.

The record grows one entry at a time; `ply` in a message is its index there.  A move comes
from the seat whose turn it is and must be legal for this home's own engine; a die is
rolled by commit-reveal among all seats (`dice.py`), or, with physical dice agreed by every
seat, entered at the home of the seat whose turn it is.  A message for a ply already in the
record is a re-delivery (ignored) or a conflict (refused); one for a later ply waits.
Refused messages are logged in one line each and change nothing."""

import time

from ..games import CHANCE, GameError, get_game
from . import dice
from .messages import ACT, COMMIT, HELLO, ONLINE, REVEAL, Message

# how far ahead of our record a message may be (later ones are refused: a seat cannot be
# that far ahead when each roll needs every seat)
WINDOW = 256
DEFAULT_REVEAL_TIMEOUT_S = 120.0
HELLO_REPEAT_S = 5.0     # waiting this long with no new entry, we say hello again: a peer
                         # that missed something resends it
HELLO_ANSWER_S = 0.5     # a peer further on than us is answered with our hello, this often


class RemoteRefusal(Exception):
    """A local action the remote game cannot take (not this home's turn, game stopped)."""


class RemoteGame:
    def __init__(self, room, game, options, local_seats, keys, *, send, physical_dice=False,
                 actions=(), log=print, clock=time.monotonic,
                 reveal_timeout=DEFAULT_REVEAL_TIMEOUT_S):
        """`local_seats`: the 0-based seats played at this home (none: a spectator, which
        follows and checks the game); `send(message, retain=True)` publishes; `actions`: the
        record so far (a resumed game, from our own store)."""
        self.room, self.game_name = room, game
        self.game = get_game(game, **options)
        # the engine's own reading (defaults filled in): `--players 2` and nothing agree
        self.options = dict(self.game.options)
        self.players = self.game.num_players
        self.local = frozenset(local_seats)
        if not all(0 <= s < self.players for s in self.local):
            raise ValueError(f"seats {sorted(s + 1 for s in local_seats)}: "
                             f"{game} has seats 1..{self.players}")
        self.keys, self.send, self.log, self.clock = keys, send, log, clock
        self.physical = physical_dice
        self.reveal_timeout = reveal_timeout
        self.state = self.game.new_initial_state()
        self.record, self.actors = [], []     # entries; per entry its seat, CHANCE
        self.rollers = {}                     # ply -> seat that entered physical dice
        for text in actions:
            actor = self.state.current_player()
            self._apply(text, actor, self.roller() if actor == CHANCE and physical_dice
                        else None)
        self.pending = []                     # messages for later (plies, reveals)
        self.commits, self.reveals = {}, {}   # of the roll at the current ply, by seat
        self.peers = {}                       # seat -> its hello
        self.online = {}                      # seat -> connected (its host's last word)
        self.withheld = {}                    # seat -> seconds online without revealing
        self.stopped = None                   # why the game cannot go on, or None
        self.refused = 0
        self.duplicates = 0
        self._last_tick = clock()
        self._last_hello = None
        self._last_entry = clock()            # when the record last grew

    # --- what the session and the hosts ask ----------------------------------------------
    @property
    def joined(self):
        """Every seat's home has said hello with the same set-up."""
        seats = set(self.local)
        for hello in self.peers.values():
            seats.update(s - 1 for s in hello["seats"])
        return len(seats) == self.players

    def roller(self, state=None):
        """The seat whose home enters physical dice: the seat whose turn it is, the first
        seat in a roll-off."""
        turn = (state or self.state).view().turn
        return turn if turn >= 0 else 0

    def local_turn(self):
        """This home is to act (a move, or physical dice to enter here)."""
        if self.stopped or not self.joined or self.state.is_terminal():
            return False
        player = self.state.current_player()
        if player == CHANCE:
            return self.physical and self.roller() in self.local
        return player in self.local

    def waits_for_others(self):
        """The game goes on only when another home acts (its move, its dice, its hello);
        `RemoteLink.status` says which, in words the OLED can show."""
        return not (self.stopped or self.state.is_terminal() or self.local_turn())

    def play(self, text):
        """A move (or physical dice) made at this home, in notation: checked, recorded and
        sent.  RemoteRefusal if it is not this home's to make, GameError if illegal."""
        if not self.local_turn():
            raise RemoteRefusal(self.stopped or "not this board's turn")
        player = self.state.current_player()
        seat = self.roller() if player == CHANCE else player
        ply = len(self.record)
        self._apply(text, player, seat)
        self.send(self._message(seat, ACT, ply, action=self.record[-1]))
        self._progress()

    # --- the broker's side ----------------------------------------------------------------
    def hello(self):
        """Our set-up and how far our record goes, for each local seat (retained): peers that
        are further on send us what we miss."""
        self._send_hello()
        self._progress()

    def _send_hello(self):
        self._last_hello = self.clock()
        seats = sorted(s + 1 for s in self.local)
        for seat in seats:
            self.send(self._message(seat - 1, HELLO, len(self.record), game=self.game_name,
                                    options=self.options, players=self.players,
                                    dice="physical" if self.physical else "electronic",
                                    seats=seats), retain=True)

    def receive(self, message):
        self._handle(message)
        self._progress()

    def tick(self):
        """Time passes: a seat online that keeps back its reveal is timed out; our hello is
        repeated while we wait."""
        now = self.clock()
        elapsed, self._last_tick = now - self._last_tick, now
        waiting = self.waits_for_others()
        quiet = now - max(self._last_hello or 0.0, self._last_entry)
        if waiting and self._last_hello is not None and quiet > HELLO_REPEAT_S:
            self.hello()
        if self.stopped or not self.state.is_chance_node() or len(self.commits) < self.players:
            return
        for seat in range(self.players):
            if seat not in self.reveals and self.online.get(seat, False):
                self.withheld[seat] = self.withheld.get(seat, 0.0) + elapsed
                if self.withheld[seat] >= self.reveal_timeout:
                    self._stop(f"seat {seat + 1} withheld its dice reveal for "
                               f"{self.reveal_timeout:g} s: seat {seat + 1} forfeits")

    # --- messages ---------------------------------------------------------------------------
    def _handle(self, m):
        seat = m.seat - 1
        if not 0 <= seat < self.players:
            return self._refuse(m, f"there is no seat {m.seat} in this game")
        if m.kind == ONLINE:
            for s in m["seats"]:
                if 0 < s <= self.players and s - 1 not in self.local:
                    self.online[s - 1] = m["online"]
            return None
        if m.kind == HELLO:
            return self._hello(m)
        if self.stopped:
            return None
        if seat in self.local and not self._sent_here(m):
            self._refuse(m, f"seat {m.seat} is played at this home, which did not send it")
            return self._stop(f"room {self.room} holds messages of seat {m.seat} that this "
                              "home did not send (an earlier game in the room, or another "
                              f"home playing seat {m.seat}): use a new room name")
        ply = len(self.record)
        if m.ply > ply + WINDOW:
            return self._refuse(m, f"bad sequence number {m.ply}: the record has {ply} "
                                   "entries")
        if m.ply > ply or (m.kind == REVEAL and seat not in self.commits and m.ply == ply):
            self.pending.append(m)
            return None
        if m.ply < ply:
            return self._past(m)
        return {ACT: self._act, COMMIT: self._commit, REVEAL: self._reveal}[m.kind](m, seat)

    def _hello(self, m):
        if m.seat - 1 in self.local:
            return None                   # our own, retained from before
        ours = (self.game_name, self.options, self.players,
                "physical" if self.physical else "electronic")
        theirs = (m["game"], m["options"], m["players"], m["dice"])
        if theirs != ours:
            self._refuse(m, f"its home plays {theirs[0]} {theirs[1]} with {theirs[2]} "
                            f"players and {theirs[3]} dice; this one {ours[0]} {ours[1]} "
                            f"with {ours[2]} and {ours[3]} dice")
            return self._stop(f"seat {m.seat}'s home set up another game")
        clash = {s - 1 for s in m["seats"]} & self.local
        if clash:
            return self._refuse(m, f"seat {min(clash) + 1} is played at this home")
        self.peers[m.seat - 1] = m.body
        if m.ply <= len(self.record):
            self._resend_from(m.ply)
        elif self._last_hello is None or self.clock() - self._last_hello > HELLO_ANSWER_S:
            self._send_hello()            # it is further on: our hello makes it resend
        return None

    def _sent_here(self, m):
        """`m`, on one of our own seats' topics, is what this home sent (or would send): a
        re-delivery of ours, e.g. after a reconnection or by a host resumed from its record."""
        seat = m.seat - 1
        if m.kind == COMMIT:
            return m["hash"] == dice.commitment(self.room, m.ply, m.seat,
                                                self.keys.nonce(m.ply, m.seat))
        if m.kind == REVEAL:
            return m["nonce"] == self.keys.nonce(m.ply, m.seat).hex()
        return m.ply < len(self.record) and self.record[m.ply] == m["action"] \
            and self._author(m.ply) == seat

    def _past(self, m):
        author = self._author(m.ply)
        if m.kind == ACT and (self.record[m.ply] != m["action"] or author != m.seat - 1):
            by = "the dice" if author is None else f"seat {author + 1}"
            return self._refuse(m, f"ply {m.ply} is {self.record[m.ply]!r} by {by}")
        self.duplicates += 1              # delivered again: applied once already
        return None

    def _act(self, m, seat):
        player = self.state.current_player()
        if player == CHANCE and not self.physical:
            return self._refuse(m, "the dice are rolled by commit-reveal, not sent")
        expected = self.roller() if player == CHANCE else player
        if seat != expected:
            return self._refuse(m, f"not seat {m.seat}'s turn (seat {expected + 1}'s)")
        if seat in self.local:
            return self._refuse(m, f"seat {m.seat} is played at this home")
        try:
            self._apply(m["action"], player, seat)
        except GameError as err:
            return self._refuse(m, f"not legal: {err}")
        return None

    def _commit(self, m, seat):
        if not self.state.is_chance_node() or self.physical:
            return self._refuse(m, f"no electronic roll at ply {m.ply}")
        known = self.commits.get(seat)
        if known is None:
            self.commits[seat] = m["hash"]
        elif known != m["hash"]:
            self._refuse(m, "a second, different commitment")
            return self._stop(f"seat {m.seat} changed its dice commitment: seat "
                              f"{m.seat} cheated")
        else:
            self.duplicates += 1
        return None

    def _reveal(self, m, seat):
        if not self.state.is_chance_node() or self.physical:
            return self._refuse(m, f"no electronic roll at ply {m.ply}")
        if len(self.commits) < self.players:
            self.pending.append(m)        # not opened before every seat has committed
            return None
        nonce = bytes.fromhex(m["nonce"])
        if not dice.verify(self.room, m.ply, m.seat, nonce, self.commits[seat]):
            self._refuse(m, "bad reveal: it does not match the seat's commitment")
            return self._stop(f"seat {m.seat}'s dice reveal does not match its "
                              f"commitment: seat {m.seat} cheated")
        if seat in self.reveals:
            self.duplicates += 1
        self.reveals[seat] = nonce
        return None

    # --- moving on ----------------------------------------------------------------------------
    def _progress(self):
        """Send our part of the roll, settle it when every reveal is in, and take the
        messages that were waiting for this ply, until nothing changes."""
        while not self.stopped:
            ply = len(self.record)
            ready = [m for m in self.pending if m.ply <= ply]
            self.pending = [m for m in self.pending if m.ply > ply]
            for m in ready:
                self._handle(m)
            if len(self.record) != ply:
                continue
            if self.state.is_chance_node() and not self.physical:
                self._roll(ply)
                if len(self.record) != ply:
                    continue
            if not any(m.ply <= len(self.record) and (m.kind != REVEAL or
                                                      len(self.commits) == self.players)
                       for m in self.pending):
                return

    def _roll(self, ply):
        for seat in sorted(self.local):
            if seat not in self.commits:
                self.commits[seat] = dice.commitment(self.room, ply, seat + 1,
                                                     self.keys.nonce(ply, seat + 1))
                self.send(self._message(seat, COMMIT, ply, hash=self.commits[seat]))
        if len(self.commits) < self.players:
            return
        for seat in sorted(self.local):
            if seat not in self.reveals:
                self.reveals[seat] = self.keys.nonce(ply, seat + 1)
                self.send(self._message(seat, REVEAL, ply, nonce=self.reveals[seat].hex()))
        if len(self.reveals) == self.players:
            action = dice.outcome(self.state.chance_outcomes(),
                                  [self.reveals[s] for s in range(self.players)])
            self._apply(self.state.action_to_string(action), CHANCE)

    def _apply(self, text, actor, seat=None):
        """Play the entry `text` on our engine (GameError if illegal: nothing changes)."""
        ply = len(self.record)
        action = self.state.parse_action(text)
        written = self.state.action_to_string(action)
        self.state.apply(action)
        self.record.append(written)
        self.actors.append(actor)
        self._last_entry = self.clock()
        if actor == CHANCE and seat is not None:
            self.rollers[ply] = seat
        self.commits, self.reveals, self.withheld = {}, {}, {}

    def _author(self, ply):
        """The seat that sent entry `ply` (None: electronic dice, nobody's)."""
        actor = self.actors[ply]
        return self.rollers.get(ply) if actor == CHANCE else actor

    def _resend_from(self, ply):
        """Send again our messages from entry `ply` on (a peer is behind: it was away, the
        broker restarted, or its host was restarted from its record)."""
        for p in range(ply, len(self.record)):
            author = self._author(p)
            if author in self.local:
                self.send(self._message(author, ACT, p, action=self.record[p]))
            elif self.actors[p] == CHANCE and not self.physical:
                for seat in sorted(self.local):
                    nonce = self.keys.nonce(p, seat + 1)
                    self.send(self._message(seat, COMMIT, p, hash=dice.commitment(
                        self.room, p, seat + 1, nonce)))
                    self.send(self._message(seat, REVEAL, p, nonce=nonce.hex()))
        ply = len(self.record)
        for seat in sorted(self.local):
            if seat in self.commits:
                self.send(self._message(seat, COMMIT, ply, hash=self.commits[seat]))
            if seat in self.reveals:
                self.send(self._message(seat, REVEAL, ply, nonce=self.reveals[seat].hex()))

    def _message(self, seat, kind, ply, **body):
        return Message(self.room, seat + 1, kind, ply, body)

    def _refuse(self, m, why):
        self.refused += 1
        self.log(f"remote: refused seat {m.seat}'s {m.kind} for ply {m.ply}: {why}")

    def _stop(self, why):
        if not self.stopped:
            self.stopped = why
            self.log(f"remote: game stopped: {why}")
