"""Unplugging the board at random moments of a scripted game, and in the middle of a knock
chain shown step by step and of a dice roll animation: the cable is pulled (the firmware
loses everything), put back after a while (the board boots anew), and the host must
reconnect and bring the board back to exactly its scene and display, then play on.

A person whose press went nowhere because the board was off presses again; a press that
did reach the host is never repeated. So the game must end with exactly the record of the
same game played without unplugging."""

from __future__ import annotations

import random
import time
from collections import Counter

from autoplay import AutoPlayer
from rig import GAMES, Rig, play_scripted, start

RESTORE_S = 20.0      # board time allowed from plugging in to showing everything again


class UnplugRig(Rig):
    def __init__(self, game, seed, mean_gap_s=8.0, chain_p=0.3, roll_p=0.3):
        self.rng = random.Random(seed)
        self.mean_gap = mean_gap_s
        self.chain_p, self.roll_p = chain_p, roll_p
        self.unplugs = Counter()
        self.restore_s = []        # board seconds from plug-in to all restored
        self.plugged_at = None
        self.off_until = None      # while unplugged: when the cable goes back in
        self.restoring = False
        self.next_at = None
        self._decided = set()      # chain steps and rolls already given their chance
        super().__init__(game)
        self.next_at = self.clock() + self.rng.expovariate(1 / self.mean_gap)

    # --- the cable -----------------------------------------------------------------------
    def run(self, seconds):
        end = self.clock() + seconds
        while self.clock() < end:
            if self.session is not None and not self.restoring:
                self._maybe_pull()
            self.session.step(0.01)

    def _maybe_pull(self):
        now = self.clock()
        if self.off_until is not None:
            if now >= self.off_until:
                self.off_until = None
                self.plug()
                self.plugged_at = now
                self.restoring = True
            return
        reason = None
        s, dev = self.session, self.sim.device
        anim = s.animation
        if anim is not None and anim.index >= 1 and len(anim.steps) > 1:
            key = ("chain", id(anim), anim.index)
            if key not in self._decided:
                self._decided.add(key)
                if self.rng.random() < self.chain_p:
                    reason = "mid knock chain"
        if reason is None and dev is not None and dev.display.rolling:
            key = ("roll", dev.display.tag if hasattr(dev.display, "tag") else 0,
                   len(s.record.actions))
            if key not in self._decided:
                self._decided.add(key)
                if self.rng.random() < self.roll_p:
                    reason = "mid dice roll"
        if reason is None and now >= self.next_at:
            reason = "random moment"
        if reason is None:
            return
        self.unplugs[reason] += 1
        self.unplug()
        # from a blink of the cable to a long search for the USB port
        self.off_until = now + self.rng.choice((0.02, 0.3, 1.0, 3.0, 6.0)) \
            * self.rng.uniform(0.5, 1.5)
        self.next_at = now + self.rng.expovariate(1 / self.mean_gap)

    def restored(self):
        """After a replug: wait until the board shows exactly the host's scene and display
        again (the dice as final faces, no roll replayed). Waits for the cable first if it
        is out."""
        while self.off_until is not None:
            self.run(0.01)
        if not self.restoring:
            return
        took = self.settle(RESTORE_S)
        self.run(0.3)                          # presses still on their way come in
        if took is None:
            raise AssertionError(f"board not restored {RESTORE_S:g} s after plugging in: "
                                 f"{self.in_step()}")
        oled = self.sim.oled()
        d = self.board.display
        if d is not None and d.kind:
            assert not oled.rolling and oled.dice == d.dice, (oled, d)
        assert self.sim.mode == "host"
        self.restore_s.append(self.clock() - self.plugged_at)
        self.restoring = False

    # --- presses: again if the board was off, never twice if the host had it -------------
    def _tap(self, target, hold):
        while True:
            self.restored()
            self.wait_connected()
            n, boots = len(self.made), self.sim.boots
            key = self.sim.key(target)
            self.sim.press(target)
            self.made.append(key + (True,))
            self.run(hold)
            self.sim.release(target)
            self.made.append(key + (False,))
            self.run(0.03)
            end = self.clock() + 60
            while len(self.received) < len(self.made) and self.sim.boots == boots:
                assert self.clock() < end, "press lost without an unplug"
                self.run(0.01)
            if self.sim.boots == boots:
                return
            self.restored()
            got = self.received[n:]
            if got and got[0] == self.made[n]:
                self.made[n:] = got            # the press went through before the pull
                return
            # The press died with the board; a release seen after the reboot is the
            # board reporting a key that was still held when it came back.
            self.unplugs["presses made again"] += 1
            self.unplugs["releases after a reboot"] += len(got)
            del self.received[n:]
            del self.made[n:]


def play_unplugged(game, seed, **kw):
    """The seeded scripted game of `game` with the cable pulled at random moments. Returns
    (rig, figures); the caller compares the record with play_scripted(game)."""
    t0 = time.perf_counter()
    rig = UnplugRig(game, seed, **kw)
    session = start(rig, game)
    assert AutoPlayer(rig, GAMES[game][1], aggressive=True).play(20000), "did not end"
    rig.next_at = rig.chain_p = rig.roll_p = float("inf")   # no more pulls: the last look
    while rig.off_until is not None:
        rig.run(0.05)
    rig.restored()
    rig.wait_delivered()
    assert rig.settle(RESTORE_S) is not None, rig.in_step()
    figures = dict(rig.unplugs)
    figures.update({"unplugs": sum(v for k, v in rig.unplugs.items()
                                   if k in ("random moment", "mid knock chain",
                                            "mid dice roll")),
                    "restores checked": len(rig.restore_s),
                    "max restore s": max(rig.restore_s, default=0.0),
                    "reconnects": rig.board.reconnects,
                    "plies": len(session.record.actions),
                    "board seconds": rig.clock(),
                    "wall seconds": time.perf_counter() - t0})
    return rig, figures


__all__ = ["UnplugRig", "play_scripted", "play_unplugged"]
