"""One remote game as this home sees it: the engine, the agreed record, and the messages
from the other seats, each checked before it changes anything.

The record grows one entry at a time; `ply` in a message is its index there.  A move comes
from the seat whose turn it is and must be legal for this home's own engine; a die is
rolled by commit-reveal among all seats (`dice.py`), or, with physical dice agreed by every
seat, entered at the home of the seat whose turn it is.  A message for a ply already in the
record is a re-delivery (ignored) or a conflict (refused); one for a later ply waits.
Refused messages are logged in one line each and change nothing."""

import time
from typing import Any, Callable, Collection, Iterable, Mapping, Optional, Protocol, Union

from ..games import CHANCE, GameError, State, get_game
from ..session.adapters import get_ui
from . import dice, transcript
from .answers import HelloAnswers
from .catchup import SPECTATOR_PLIES
from .ending import Ending, RemoteRefusal, forfeit_result
from .journal import CommitmentConflict, Journal, MemoryJournal
from .keys import Keys
from .messages import (ACT, COMMIT, ENDING, FULL, GAME_KINDS, HELLO, ONLINE, REVEAL, Message,
                       short)
from .pages import PAGE_BYTES, PAGES, TAIL_BYTES, HistoryFull, full_floor
from .reception import Reception
from .refusals import RefusalLog

# how far ahead of our record a message may be (later ones are refused: a seat cannot be
# that far ahead when each roll needs every seat)
WINDOW = 256
DEFAULT_REVEAL_TIMEOUT_S = 120.0
# a seat that is away (its last will, or its own word) while the game waits for its dice
# forfeits after this long: saying "offline" must not let a seat hold the game for ever
DEFAULT_AWAY_TIMEOUT_S = 30 * 60.0
HELLO_REPEAT_S = 5.0     # waiting this long with no new entry, we say hello again: a peer
                         # that missed something resends it
HELLO_ANSWER_S = 0.5     # a peer further on than us is answered with our hello, this often


class _Send(Protocol):
    """How a game publishes a message (room.Room.publish)."""

    def __call__(self, message: Message, retain: bool = ...) -> object: ...


class RemoteGame:
    record: list[str]                     # (both set in one statement below)
    actors: list[int]

    def __init__(self, room: str, game: str, options: Mapping[str, Any],
                 local_seats: Collection[int], keys: Keys, *, send: _Send,
                 physical_dice: bool = False, actions: Iterable[str] = (),
                 log: Callable[[str], None] = print, clock: Callable[[], float] = time.monotonic,
                 reveal_timeout: float = DEFAULT_REVEAL_TIMEOUT_S,
                 away_timeout: float = DEFAULT_AWAY_TIMEOUT_S,
                 journal: Optional[Journal] = None) -> None:
        """`local_seats`: the 0-based seats played at this home (none: a spectator, which
        follows and checks the game); `send(message, retain=True)` publishes; `actions`: the
        record so far (a resumed game, from our own store); `journal`: where the dice
        commitments and a stop are saved (journal.py; default: in memory)."""
        self.room, self.game_name = room, game
        self.game = get_game(game, **options)
        # the engine's own reading (defaults filled in): `--players 2` and nothing agree
        self.options = dict(self.game.options)
        self.players = self.game.num_players
        self.seat_name = get_ui(self.game).seat_name     # as the players know it: "Black"
        self.local = frozenset(local_seats)
        if not all(0 <= s < self.players for s in self.local):
            raise ValueError(f"seats {sorted(s + 1 for s in local_seats)}: "
                             f"{game} has seats 1..{self.players}")
        self.keys, self.log, self.clock = keys, log, clock
        self._publish = send
        self.physical = physical_dice
        self.reveal_timeout, self.away_timeout = reveal_timeout, away_timeout
        self.journal: Journal = journal or MemoryJournal()
        self.refusals = RefusalLog(log, clock)
        self.state = self.game.new_initial_state()
        self.record, self.actors = [], []     # entries; per entry its seat, CHANCE
        self.rollers: dict[int, int] = {}                   # ply -> seat that entered physical dice
        self.chains = [transcript.start(room)]   # before each entry, and after the last
        self.pins = transcript.Pins()         # how far each seat's messages pinned them
        # per seat, the chain of its own part before each entry (transcript.py): ours, to
        # send; every seat's for a spectator, which blames a seat whose messages disagree
        self.owns = {s: [transcript.own_start(room, s)]
                     for s in (self.local or range(self.players))}
        self.evidence = transcript.Evidence()  # a spectator's: what each seat's messages say
        self.conflict = False                 # a spectator read histories that part
        # the seat whose own messages contradict it
        self.blamed: Optional[int] = None
        # a spectator's state before its last entry
        self._before: Optional[State] = None
        self.commits: dict[int, str] = {}
        for text in actions:
            actor = self.state.current_player()
            self._apply(text, actor, self.roller() if actor == CHANCE and physical_dice
                        else None)
        # messages for later (plies, reveals): ply -> {(seat, kind): message}, one each, so
        # a flood of them costs at most WINDOW plies x seats x kinds
        self.pending: dict[int, dict[tuple[int, str], Message]] = {}
        # the roll at the current ply, by seat; commitments saved before a restart count
        self.commits = self._saved_commitments()
        self.reveals: dict[int, bytes] = {}
        # seat -> its hello (on its own topic)
        self.peers: dict[int, dict[str, Any]] = {}
        # seat -> connected (its topic's last word)
        self.presence: dict[int, bool] = {}
        # (seat, online) -> seconds its dice are owed
        self.withheld: dict[tuple[int, bool], float] = {}
        self.answers = HelloAnswers()         # when the peers' hellos are answered (answers.py)
        self.reception = Reception(clock())   # whether we hear well enough to time out
        self.stopped: Optional[str] = self.journal.stop()    # why the game cannot go on, or None
        # the seat that lost it by stopping it, if any
        self.forfeited: Optional[int] = None
        self.ending = Ending(self)            # a resignation, an offer to end and its answers
        self.refused = 0
        self.duplicates = 0
        self._last_tick = clock()
        self._last_hello: Optional[float] = None
        self._said_over = False               # our hello at the end of the game is sent
        self._last_entry = clock()            # when the record last grew
        # seat -> (kind, ply) -> bytes: the history each other seat sent that this home took
        self.taken: dict[int, dict[tuple[str, int], int]] = {}
        self.full = False                     # our pages on the broker are full
        # the other seats' pages (pages.py): what a seat saying they are full must have sent
        self.peer_pages = (PAGES, PAGE_BYTES, TAIL_BYTES)

    def send(self, message: Message, retain: bool = True) -> None:
        """Publish our message; if this home's seat's history does not fit its pages on the
        broker any more (pages.py), nothing is sent: the game stops here saying why, and
        the other homes are told (a FULL message)."""
        try:
            self._publish(message, retain)
        except HistoryFull as err:
            if self.full:
                return
            self.full = True
            self._stop(f"this home's part of the game does not fit its pages on the broker "
                       f"any more ({err}), {message.ply} entries in: the game cannot "
                       "go on in this room")
            try:        # (at the entry the other homes can reach: the one not sent)
                self._publish(self._message(message.seat - 1, FULL, message.ply), True)
            except HistoryFull:
                pass

    # --- what the session and the hosts ask ----------------------------------------------
    def who(self, seat: int) -> str:
        """A 0-based seat for a person: its name and the number `--seat` gives it."""
        return f"{self.seat_name(seat)} (seat {seat + 1})"

    @property
    def joined(self) -> bool:
        """Every seat's home has said hello with the same set-up."""
        return len(self.local | set(self.peers)) == self.players

    def roller(self, state: Optional[State] = None) -> int:
        """The seat whose home enters physical dice: the seat whose turn it is, the first
        seat in a roll-off."""
        turn = (state or self.state).view().turn
        return turn if turn >= 0 else 0

    @property
    def over(self) -> bool:
        """The game has ended: by its rules, a resignation or the homes' agreement."""
        return self.state.is_terminal() or self.ending.ended is not None

    def local_turn(self) -> bool:
        """This home is to act (a move, or physical dice to enter here)."""
        if self.stopped or not self.joined or self.over:
            return False
        player = self.state.current_player()
        if player == CHANCE:
            return self.physical and self.roller() in self.local
        return player in self.local

    def waits_for_others(self) -> bool:
        """The game goes on only when another home acts (its move, its dice, its hello);
        `RemoteLink.status` says which, in words the OLED can show."""
        return not (self.stopped or self.over or self.local_turn())

    def play(self, text: str) -> None:
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
    def hello(self) -> None:
        """Our set-up and how far our record goes, for each local seat (retained): peers that
        are further on send us what we miss."""
        self._send_hello()
        self._progress()

    def _send_hello(self) -> None:
        self._last_hello = self.clock()
        self.reception.said_hello(self._last_hello)
        seats = sorted(s + 1 for s in self.local)
        for seat in seats:
            self.send(self._message(seat - 1, HELLO, len(self.record), game=self.game_name,
                                    options=self.options, players=self.players,
                                    dice="physical" if self.physical else "electronic",
                                    seats=seats), retain=True)

    def receive(self, message: Message) -> None:
        self.reception.heard()
        refused = self.refused
        try:
            self._handle(message)
            if self.refused == refused and message.kind in GAME_KINDS \
                    and message.ply <= len(self.record):
                self.taken.setdefault(message.seat - 1, {})[(message.kind, message.ply)] = \
                    len(message.encode())
            self._progress()
        except Exception as err:          # noqa: BLE001 - no message may end the home
            self.refuse(message, f"it raised {type(err).__name__}: {err}")

    def refuse_unread(self, topic_name: str, why: Union[str, Exception]) -> None:
        """A message that could not even be read (messages.decode): one rate-limited line."""
        self.reception.heard()
        self.refused += 1
        self.refusals(f"remote: refused a message on {short(topic_name, 80)}: {why}")

    def tick(self, connected: bool = True, lost: int = 0) -> None:
        """Time passes: a seat that keeps back its dice is timed out; our hello is repeated
        while we wait.  While this home is not `connected` to the broker, what it knows of
        the others is stale (they may be waiting for us): nobody is timed out, and the
        deadlines start again once it is back.  While it hears badly (a flood; `lost`:
        messages its inbox dropped) the deadlines pause, and a seat is named only once it
        has left a hello of ours since unanswered (reception.py)."""
        now = self.clock()
        elapsed, self._last_tick = now - self._last_tick, now
        self.reception.update(now, connected, lost)
        self.refusals.flush()
        self._answer_hellos()
        if self.over and self.local and not self._said_over:
            self._said_over = True
            self._send_hello()                # its chain pins the record to its last entry
        waiting = self.waits_for_others()
        quiet = now - max(self._last_hello or 0.0, self._last_entry)
        if waiting and self._last_hello is not None and quiet > HELLO_REPEAT_S:
            self.hello()
        if not connected:
            self.withheld = {}
        if self.stopped or self.over or not connected or not self.state.is_chance_node() \
                or self.physical or not self.local:
            return                        # (a spectator times nobody out: it only watches)
        self._time_dice(now, elapsed)

    def _time_dice(self, now: float, elapsed: float) -> None:
        """The seats that owe the roll at this ply its dice: `elapsed` more seconds each,
        while this home hears well; past the deadline, and a direct hello unanswered, the
        seat forfeits."""
        for seat in range(self.players):
            owed = self._owed(seat)
            if owed is None or not self.reception.hears(now):
                continue
            online = self.is_online(seat)
            key = (seat, online)
            self.withheld[key] = self.withheld.get(key, 0.0) + elapsed
            limit = self.reveal_timeout if online else self.away_timeout
            if self.withheld[key] < limit:
                continue
            if not self.reception.asked(now):
                if self.reception.asked_at is None:
                    self._send_hello()        # ask directly: an honest home resends
                continue
            away = "" if online else " while away (by its last will or its own word)"
            self._stop(f"{self.who(seat)} withheld its dice {owed} for {limit:g} s"
                       f"{away}: {self.seat_name(seat)} forfeits", forfeit=seat)

    def _owed(self, seat: int) -> Optional[str]:
        """What another seat owes to the roll at this ply: its commitment, its reveal once
        every seat has committed, or None."""
        if seat in self.local or seat in self.reveals:
            return None
        if seat not in self.commits:
            return "commitment"
        return "reveal" if len(self.commits) == self.players else None

    def is_online(self, seat: int) -> bool:
        """The seat's host is connected, by its own presence topic or that of a seat its own
        hello names as played at its home (the broker's ACL lets only the seat's user write
        those): no seat can speak for a seat of another home."""
        hello = self.peers.get(seat)
        speakers = {seat} | ({s - 1 for s in hello["seats"]} if hello else set())
        return any(self.presence.get(s, False) for s in speakers)

    # --- messages ---------------------------------------------------------------------------
    def _handle(self, m: Message) -> None:
        seat = m.seat - 1
        if not 0 <= seat < self.players:
            return self.refuse(m, f"there is no seat {m.seat} in this game")
        if m.kind == ONLINE:
            return self._presence(m)
        if not self.local and m.ply <= len(self.record) + WINDOW:
            self.evidence.note(m, self.agreed)
            if self.conflict and self.blamed is None:
                self._blame()
        if m.kind == HELLO:
            return self._hello(m)
        if self.stopped:
            return None
        if m.kind in ENDING + (FULL,):
            return self._ending(m)
        if self.ending.ended is not None:
            return None                   # moves sent before they heard of the end
        if seat in self.local and not self._sent_here(m):
            self.refuse(m, f"seat {m.seat} is played at this home, which did not send it")
            return self._stop(f"room {self.room} holds messages of seat {m.seat} that this "
                              "home did not send (an earlier game in the room, or another "
                              f"home playing seat {m.seat}): use a new room name")
        ply = len(self.record)
        if m.ply > ply + WINDOW:
            return self.refuse(m, f"bad sequence number {m.ply}: the record has {ply} "
                                   "entries")
        if m.ply > ply or (m.kind == REVEAL and seat not in self.commits and m.ply == ply):
            return self._wait(m)
        if not self._follows(seat, m.ply, m["chain"], m):
            return None
        if m.ply < ply:
            return self._past(m)
        return {ACT: self._act, COMMIT: self._commit, REVEAL: self._reveal}[m.kind](m, seat)

    def _ending(self, m: Message) -> None:
        """A resignation, an offer to end the game or an answer (ending.py), or a seat's
        pages full: ours coming back (retained) are ignored, later ones wait for their
        ply."""
        if m.seat - 1 in self.local:
            return None
        ply = len(self.record)
        if m.ply > ply + WINDOW:
            return self.refuse(m, f"bad sequence number {m.ply}: the record has {ply} "
                                   "entries")
        if m.ply > ply:
            return self._wait(m)
        if not self._follows(m.seat - 1, m.ply, m["chain"], m):
            return None
        return self._full(m, m.seat - 1) if m.kind == FULL else self.ending.receive(m)

    def _full(self, m: Message, seat: int) -> None:
        """Another home's history does not fit its pages: the game stops, with no result
        (nobody chose it), once that seat has sent enough for it to be true
        (`pages.full_floor`: within a line a page and two tails of full)."""
        if seat in self.local:
            return None
        taken = self.taken.get(seat, {})
        sent = sum(n + 1 for n in taken.values())
        # its longest line, its messages still waiting for their entries counted too
        longest = max([*taken.values(), *(len(w.encode()) for slot in self.pending.values()
                                          for (s, _), w in slot.items() if s == seat + 1)],
                      default=0)
        floor = full_floor(longest, *self.peer_pages)
        if sent < floor:
            return self.refuse(m, f"its pages cannot be full: it sent {sent} bytes of "
                                  f"history, and full pages hold at least {floor}")
        return self._stop(f"{self.who(seat)}'s part of the game does not fit its pages on "
                          f"the broker any more ({m.ply} entries in): the game cannot go on "
                          "in this room")

    def _wait(self, m: Message) -> None:
        """Keep `m` until the record gets to its ply: one message per seat, kind and ply."""
        slot = self.pending.setdefault(m.ply, {})
        known = slot.get((m.seat, m.kind))
        if known is None:
            slot[(m.seat, m.kind)] = m
        elif known.body == m.body:
            self.duplicates += 1
        else:
            self.refuse(m, f"a second, different {m.kind} for ply {m.ply}, while the "
                            "first waits")

    def _presence(self, m: Message) -> None:
        """A seat's host says whether it is connected (or the broker does, by its last
        will); it may speak only for its own seat and the seats of its own home."""
        seat = m.seat - 1
        if seat in self.local:
            return None
        self.presence[seat] = m["online"]
        for s in m["seats"]:
            hello = self.peers.get(s - 1)
            if s != m.seat and (not 0 < s <= self.players
                                or hello is not None and m.seat not in hello["seats"]):
                return self.refuse(m, f"seat {m.seat} cannot speak for seat {s}")
        return None

    def _hello(self, m: Message) -> None:
        if m.seat - 1 in self.local:
            return None                   # our own, retained from before
        ours = (self.game_name, self.options, self.players,
                "physical" if self.physical else "electronic")
        theirs = (m["game"], m["options"], m["players"], m["dice"])
        if theirs != ours:
            self.refuse(m, f"its home plays {theirs[0]} {theirs[1]} with {theirs[2]} "
                            f"players and {theirs[3]} dice; this one {ours[0]} {ours[1]} "
                            f"with {ours[2]} and {ours[3]} dice")
            seat = m.seat - 1
            if seat in self.peers:            # it joined this game: leaving it is losing
                return self._stop(f"{self.who(seat)}'s home turned to another game: "
                                  f"{self.seat_name(seat)} forfeits", forfeit=seat)
            return self._stop(f"{self.who(seat)}'s home set up another game")
        if m.seat not in m["seats"] or max(m["seats"]) > self.players:
            return self.refuse(m, f"seats {m['seats']} for seat {m.seat}'s home in a game "
                                   f"of seats 1..{self.players}")
        clash = {s - 1 for s in m["seats"]} & self.local
        if clash:
            return self.refuse(m, f"seat {min(clash) + 1} is played at this home")
        if m.ply > len(self.record):          # pinned once our record gets there
            self.pins.ahead[m.seat - 1] = (m.ply, m["chain"])
        elif not self._follows(m.seat - 1, m.ply, m["chain"], m):
            return None
        self.peers[m.seat - 1] = m.body
        if m.ply <= len(self.record):
            self.answers.ask(m.seat - 1, m.ply, len(self.record), self.over)
            self._answer_hellos()
        elif not self.over and (self._last_hello is None
                                or self.clock() - self._last_hello > HELLO_ANSWER_S):
            self._send_hello()            # it is further on: our hello makes it resend (a
                                          # game over has nothing more to take)
        return None

    def _answer_hellos(self) -> None:
        """Resend what the peers' hellos ask for, as answers.py allows (a hello costs its
        peer little and may ask for the whole game): one resend from the earliest ply asked
        serves every peer that is due."""
        ply = self.answers.due(len(self.record), self.clock())
        if ply is not None:
            self._resend_from(ply)

    def _sent_here(self, m: Message) -> bool:
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

    def _past(self, m: Message) -> None:
        author = self._author(m.ply)
        if m.kind == ACT and (self.record[m.ply] != m["action"] or author != m.seat - 1):
            by = "the dice" if author is None else f"seat {author + 1}"
            if author == m.seat - 1:      # only its own user writes its topic: it rewrote it
                return self._rewrote(m, f"it now says {short(m['action'])}, it played "
                                        f"{self.record[m.ply]!r}")
            return self.refuse(m, f"ply {m.ply} is {self.record[m.ply]!r} by {by}")
        if m.kind != ACT:
            why = self._past_dice(m)
            if why and self.actors[m.ply] == CHANCE and not self.physical:
                return self._rewrote(m, why)      # its part in a roll it made with us
            if why:
                return self.refuse(m, why)
        self.duplicates += 1              # delivered again: applied once already
        return None

    def _past_dice(self, m: Message) -> Optional[str]:
        """Why a commitment or reveal for a roll already settled is not a re-delivery of
        what was used (checked against the commitments this home saved), or None."""
        if self.actors[m.ply] != CHANCE or self.physical:
            return f"no electronic roll at ply {m.ply}"
        saved = self.journal.commitments(m.ply).get(m.seat - 1)
        if saved is None:
            return None                   # settled before this home saved commitments
        if m.kind == COMMIT and m["hash"] != saved:
            return "a second, different commitment for a roll already made"
        if m.kind == REVEAL and not dice.verify(self.room, m.ply, m.seat,
                                                bytes.fromhex(m["nonce"]), saved):
            return "a reveal that does not match the commitment the roll used"
        return None

    def _act(self, m: Message, seat: int) -> None:
        player = self.state.current_player()
        if player == CHANCE and not self.physical:
            return self.refuse(m, "the dice are rolled by commit-reveal, not sent")
        expected = self.roller() if player == CHANCE else player
        if seat != expected:
            return self.refuse(m, f"not seat {m.seat}'s turn (seat {expected + 1}'s)")
        if seat in self.local:
            return self.refuse(m, f"seat {m.seat} is played at this home")
        try:
            self._apply(m["action"], player, seat)
        except GameError as err:
            return self.refuse(m, f"not legal: {err}")
        return None

    def _commit(self, m: Message, seat: int) -> None:
        if not self.state.is_chance_node() or self.physical:
            return self.refuse(m, f"no electronic roll at ply {m.ply}")
        known = self.commits.get(seat)        # saved before a restart, or this run
        if known is None:
            return self._commitment(m.ply, seat, m["hash"])
        if known != m["hash"]:
            self.refuse(m, "a second, different commitment")
            return self._stop(f"{self.who(seat)} changed its dice commitment for ply "
                              f"{m.ply}: {self.seat_name(seat)} cheated", forfeit=seat)
        self.duplicates += 1
        return None

    def _reveal(self, m: Message, seat: int) -> None:
        if not self.state.is_chance_node() or self.physical:
            return self.refuse(m, f"no electronic roll at ply {m.ply}")
        if len(self.commits) < self.players:
            return self._wait(m)          # not opened before every seat has committed
        nonce = bytes.fromhex(m["nonce"])
        if not dice.verify(self.room, m.ply, m.seat, nonce, self.commits[seat]):
            self.refuse(m, "bad reveal: it does not match the seat's commitment")
            return self._stop(f"{self.who(seat)}'s dice reveal does not match its "
                              f"commitment: {self.seat_name(seat)} cheated", forfeit=seat)
        if seat in self.reveals:
            self.duplicates += 1
        self.reveals[seat] = nonce
        return None

    # --- moving on ----------------------------------------------------------------------------
    def _progress(self) -> None:
        """Send our part of the roll, settle it when every reveal is in, and take the
        messages that were waiting for this ply, until nothing changes."""
        while not self.stopped:
            ply = len(self.record)
            for p in sorted(p for p in self.pending if p <= ply):
                for m in self.pending.pop(p).values():
                    self._handle(m)
            if len(self.record) != ply:
                continue
            if self.state.is_chance_node() and not self.physical:
                self._roll(ply)
                if len(self.record) != ply:
                    continue
            waiting = self.pending.get(ply, {})
            if not any(kind != REVEAL or len(self.commits) == self.players
                       for _, kind in waiting):
                return

    def _roll(self, ply: int) -> None:
        for seat in sorted(self.local):
            if seat not in self.commits:
                self._commitment(ply, seat, dice.commitment(self.room, ply, seat + 1,
                                                            self.keys.nonce(ply, seat + 1)))
                if self.stopped:
                    return
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

    def _rewrote(self, m: Message, how: str) -> None:
        """Seat `m.seat`'s own topic holds another part in entry `m.ply` than the one this
        home recorded from it (a home resumed after the seat rewrote its retained messages,
        or a seat sending a second version): refused, and said in one line naming the seat
        (once a seat and entry; again, in the refusals' rate-limited log)."""
        seat = m.seat - 1
        if (seat, m.ply) in self.evidence.said:
            return self.refuse(m, how)
        self.evidence.said.add((seat, m.ply))
        self.refused += 1
        keeps = "this home goes on with the game as it recorded it" if self.local else \
            "the game is shown as first read"
        self.log(f"remote: {self.who(seat)} rewrote entry {m.ply + 1} ({how}): {keeps} "
                 f"({len(self.record)} entries)")
        return None

    def _commitment(self, ply: int, seat: int, commitment: str) -> None:
        """A seat's commitment for this roll: saved (journal.py) before anything is revealed
        against it, so a restarted home cannot be made to reveal against another.  The
        journal refuses one that differs from a commitment saved for the roll (which
        `_saved_commitments` loads first, so this is a last guard): the game stops."""
        try:
            self.journal.save_commitment(ply, seat, commitment)
        except CommitmentConflict as err:
            if seat in self.local:
                return self.fail(f"this home's own dice commitment changed: {err}")
            return self._stop(f"{self.who(seat)} changed its dice commitment for ply {ply}: "
                              f"{self.seat_name(seat)} cheated", forfeit=seat)
        self.commits[seat] = commitment
        return None

    def _saved_commitments(self) -> dict[int, str]:
        """The commitments saved for the roll at the current ply (none if it is no
        electronic roll): whatever ply the record stood at when the host was restarted,
        a roll this home committed to, or revealed for, before is held to what it saved."""
        if self.physical or not self.state.is_chance_node():
            return {}
        return self.journal.commitments(len(self.record))

    def _apply(self, text: str, actor: int, seat: Optional[int] = None) -> None:
        """Play the entry `text` on our engine (GameError if illegal: nothing changes)."""
        ply = len(self.record)
        action = self.state.parse_action(text)
        written = self.state.action_to_string(action)
        if not self.local:
            self._before = self.state.clone()
        self.state.apply(action)
        for s, owns in self.owns.items():
            part = self._part(ply, s, actor, seat, written)
            owns.append(owns[-1] if part is None else transcript.own_follow(owns[-1], ply, part))
        self.record.append(written)
        self.actors.append(actor)
        self.chains.append(transcript.follow(self.chains[-1], written))
        for pinner, (length, chain) in list(self.pins.ahead.items()):
            if length == len(self.record):
                del self.pins.ahead[pinner]
                self._follows(pinner, length, chain)
        self._last_entry = self.clock()
        if actor == CHANCE and seat is not None:
            self.rollers[ply] = seat
        self.commits, self.reveals, self.withheld = self._saved_commitments(), {}, {}

    def _part(self, ply: int, s: int, actor: int, roller: Optional[int], written: str
              ) -> Optional[tuple[str, str]]:
        """Seat `s`'s own part in entry `ply` (transcript.own_follow), or None."""
        if actor == CHANCE and not self.physical:
            if s in self.local:
                return "commit", dice.commitment(self.room, ply, s + 1,
                                                 self.keys.nonce(ply, s + 1))
            return "commit", self.commits.get(s, "")
        if (roller if actor == CHANCE else actor) == s:
            return "act", written
        return None

    def _author(self, ply: int) -> Optional[int]:
        """The seat that sent entry `ply` (None: electronic dice, nobody's)."""
        actor = self.actors[ply]
        return self.rollers.get(ply) if actor == CHANCE else actor

    def _resend_from(self, ply: int) -> None:
        """Send again our messages from entry `ply` on (a peer is behind: it was away, the
        broker restarted, or its host was restarted from its record)."""
        for m in self._own_messages(ply):
            self.send(m)

    def history(self) -> list[Message]:
        """Our messages about the game so far, as we sent them: what a home resumed from its
        record writes in its seats' pages again (room.py, pages.py)."""
        return self._own_messages(0)

    def _own_messages(self, ply: int) -> list[Message]:
        """Our messages from entry `ply` on, and our part of the roll at the current one."""
        out = []
        for p in range(ply, len(self.record)):
            author = self._author(p)
            if author in self.local:
                out.append(self._message(author, ACT, p, action=self.record[p]))
            elif self.actors[p] == CHANCE and not self.physical:
                for seat in sorted(self.local):
                    nonce = self.keys.nonce(p, seat + 1)
                    out.append(self._message(seat, COMMIT, p, hash=dice.commitment(
                        self.room, p, seat + 1, nonce)))
                    out.append(self._message(seat, REVEAL, p, nonce=nonce.hex()))
        ply = len(self.record)
        for seat in sorted(self.local):
            if seat in self.commits:
                out.append(self._message(seat, COMMIT, ply, hash=self.commits[seat]))
            if seat in self.reveals:
                out.append(self._message(seat, REVEAL, ply, nonce=self.reveals[seat].hex()))
        return out

    def _message(self, seat: int, kind: str, ply: int, **body: Any) -> Message:
        """Our message; about the game (every kind but presence), it carries the chain of
        the record it follows (transcript.py)."""
        if kind != ONLINE:
            body["chain"] = self.chains[ply]
            body["own"] = self.owns[seat][ply]
        return Message(self.room, seat + 1, kind, ply, body)

    # --- one transcript ------------------------------------------------------------------------
    @property
    def agreed(self) -> int:
        """How many entries of our record every seat's messages have pinned: a spectator
        shows the game that far (transcript.py)."""
        seats = [s for s in range(self.players) if s not in self.local]
        return min(self.pins.agreed(seats), len(self.record))

    def _follows(self, seat: int, ply: int, chain: str, m: Optional[Message] = None) -> bool:
        """Whether seat `seat`'s message at `ply` (<= our record's length) follows our
        record (it is pinned that far); if not, the message changes nothing and a spectator
        stops, saying where the seats' histories part."""
        if chain == self.chains[ply]:
            self.pins.pin(seat, ply)
            return True
        why = f"it follows another history than the first {ply} entries read here"
        if m is not None:
            self.refuse(m, why)
        else:
            self.refused += 1
            self.refusals(f"remote: refused seat {seat + 1}'s hello for ply {ply}: {why}")
        if not self.local:
            self._pinned_before_last(seat, ply, chain)
            agreed = self.agreed
            # the entries read since, which the seat's history does not have
            authors = sorted({self._author(p) for p in range(agreed, ply)},
                             key=lambda a: -1 if a is None else a)
            where = f"entry {ply} read here is" if agreed + 1 == ply else \
                f"entries {agreed + 1}-{ply} read here are"
            whose = "" if not authors else f" ({where} " + " and ".join(
                "the dice's" if a is None else f"{self.who(a)}'s" for a in authors) + ")"
            was = self.stopped
            self._stop(f"the seats' histories conflict: {self.who(seat)}'s messages pin "
                       f"another record at entry {ply} than the one read{whose}; every seat "
                       f"agreed on the game up to entry {agreed}", save=False)
            if was is None:
                self.conflict = True
                self._blame()
        return False

    def _pinned_before_last(self, seat: int, ply: int, chain: str) -> None:
        """A seat's message at our record's length that pins another last entry than ours
        still pins the entries before it, if its chain is ours before the last entry and
        then another entry possible there (a spectator tries them all)."""
        if ply != len(self.record) or self._before is None:
            return
        state = self._before
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() \
            else state.legal_actions()
        if any(transcript.follow(self.chains[ply - 1], state.action_to_string(a)) == chain
               for a in actions):
            self.pins.pin(seat, ply - 1)

    def _blame(self) -> None:
        """A spectator that read histories that part: the seat whose own messages contradict
        each other from the entries every seat agreed on (transcript.blame), named in the
        stop's line."""
        agreed = self.agreed
        # a seat's message counts once every part of its before it can have been read:
        # a spectator reads the entries up to SPECTATOR_PLIES past its record (catchup.py)
        read_to = len(self.record) + SPECTATOR_PLIES
        found = []
        for s in range(self.players):
            claims, parts = self.evidence.since(s, agreed, read_to)
            where = transcript.blame(self.owns[s][agreed], agreed, claims, parts)
            if where is not None:
                found.append((where, s))
        if not found:
            return
        (first, last), seat = min(found)
        self.blamed = seat
        entries = f"entry {first + 1}" if first == last else \
            f"one of its entries {first + 1}-{last + 1}"
        self.stopped = (f"{self.who(seat)} rewrote {entries}: showing the game as every seat "
                        f"agreed up to entry {agreed}")
        self.log(f"remote: game stopped: {self.stopped}")

    def say(self, kind: str, **body: Any) -> None:
        """Send a message of this home (on its first seat's topic) about the entry to come:
        a resignation, an offer to end the game or an answer (ending.py)."""
        self.send(self._message(min(self.local), kind, len(self.record), **body))

    def refuse(self, m: Message, why: str) -> None:
        """A peer's message `m` changes nothing: one (rate-limited) log line says why."""
        self.refused += 1
        self.refusals(f"remote: refused seat {m.seat}'s {m.kind} for ply {m.ply}: {why}")

    def fail(self, why: str) -> None:
        """This home could not go on (an error of its own, not a peer's message): stopped
        here, not saved, so that `resume` may try again."""
        self._stop(f"this home failed: {why[:160]}", save=False)

    def _stop(self, why: str, save: bool = True, forfeit: Optional[int] = None) -> None:
        """The game cannot go on: said once, and saved (journal.py), so that `resume`
        reports it instead of playing on.  `forfeit`: the 0-based seat that stopped it (by
        cheating, withholding its dice, turning to another game), whose home loses it:
        the game is saved finished, "won by forfeit" (ending.forfeit_result)."""
        if not self.stopped:
            self.stopped = why
            self.forfeited = forfeit
            self.log(f"remote: game stopped: {why}")
            if save:
                self.journal.save_stop(why, None if forfeit is None
                                       else forfeit_result(self, forfeit, why))
