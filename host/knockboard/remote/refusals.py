"""The log lines of refused messages, which a hostile peer can cause at will: each line is
cut to LINE_CHARS, and at most BURST lines are written in PERIOD_S; the others are counted
and summed up in one line when the period is over, so a flood of junk costs the log a few
short lines, not one per message."""

from typing import Callable

LINE_CHARS = 200
BURST = 20
PERIOD_S = 10.0


def cut(line: str, limit: int = LINE_CHARS) -> str:
    return line if len(line) <= limit else line[:limit - 3] + "..."


class RefusalLog:
    def __init__(self, log: Callable[[str], None], clock: Callable[[], float], burst: int = BURST,
                 period: float = PERIOD_S) -> None:
        self.log, self.clock = log, clock
        self.burst, self.period = burst, period
        self._since = clock()
        self._written = 0
        self.dropped = 0            # lines not written in the current period

    def __call__(self, line: str) -> None:
        self.flush()
        if self._written < self.burst:
            self._written += 1
            self.log(cut(line))
        else:
            self.dropped += 1

    def flush(self) -> None:
        """The period is over: say how many lines it left out, and start a new one."""
        now = self.clock()
        if now - self._since < self.period:
            return
        if self.dropped:
            self.log(f"remote: {self.dropped} more refused messages in the last "
                     f"{now - self._since:.0f} s, not logged one by one")
        self._since, self._written, self.dropped = now, 0, 0
