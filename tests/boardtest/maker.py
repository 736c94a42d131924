"""A maker at a simulated board doing what the board test asks: reads the OLED, looks at the
LEDs, presses the keys and the controls, as a person would."""

from knockboard.boardtest.runner import Runner



class Maker:
    def __init__(self, look, press, layout, patience=4):
        """`look()`: (OLED lines, {cell: lit?}) now; `press(target)`: a tap of a cell index
        or "OK"/"BACK"/"MENU"; `patience`: looks at an unchanged screen after a press
        before deciding the press did nothing."""
        self.look, self.press, self.layout = look, press, layout
        self.patience = patience
        self.seen = None       # the screen of the last press
        self.waited = 0

    def act(self):
        lines, lit = self.look()
        if len(lines) < 2:
            return
        if tuple(lines) == self.seen:
            self.waited += 1
            if self.waited >= self.patience:      # a key press that did nothing: the key is dead
                self._tap("MENU", lines)
            return
        head = lines[0]
        if head.endswith("is dark"):             # "do the later cells light?"
            self._tap("OK" if any(lit.values()) else "BACK", lines)
            return
        cell = self.layout.cell(head.split()[-1]).index
        if lines[1] == "press lit key" and not lit.get(cell):
            self._tap("BACK", lines)
        else:
            self._tap(cell, lines)

    def _tap(self, target, lines):
        self.seen, self.waited = tuple(lines), 0
        self.press(target)


def run_with_maker(board, test, maker, out, settle, limit=3000):
    """Runs the test on `board` with `maker` answering; `settle()` lets the board take in
    what it was sent (its firmware shows it) before the maker looks."""
    runner = Runner(board, test, out=out)
    runner.start()
    for _ in range(limit):
        runner.step()
        if test.done:
            break
        board.flush()
        settle()
        maker.act()
    assert test.done, f"the test did not finish: {test.progress()}"
    return runner.finish()
