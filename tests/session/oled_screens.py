"""The OLED pictures in docs/oled/ (docs/playing.md, "What the OLED says"): situations of
each game played through the session on the simulator's board, and the firmware's own
framebuffer saved as it shows them.  Made again with

    python3 tests/session/oled_screens.py docs/oled
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for path in (os.path.join(ROOT, "host"), HERE):
    if path not in sys.path:
        sys.path.insert(0, path)

from knockboard.session.oled import PAGE_S  # noqa: E402
from knockboard.session.types import ROLL_TITLE  # noqa: E402

from autoplay import AutoPlayer  # noqa: E402
from board_driver import VirtualBoard  # noqa: E402

SCALE = 3
LIT, DARK = (120, 220, 255), (8, 12, 20)


def save(vb, path):
    """The OLED as the firmware drew it (rolling dice settled first), SCALE times larger."""
    from PIL import Image
    vb.run(1.2 if vb.sim.oled().rolling else 0.0)
    oled = vb.sim.oled()
    image = Image.new("RGB", (128, 64), DARK)
    image.putdata([LIT if oled.pixel(x, y) else DARK for y in range(64) for x in range(128)])
    image.resize((128 * SCALE, 64 * SCALE), Image.NEAREST).save(path, optimize=True)
    print(path, "|", " / ".join(oled.lines))


def play_until(vb, player, done, most=4000):
    for _ in range(most):
        if done():
            return
        if not player.act():
            break
    raise RuntimeError("the situation was not reached")


def knockabout_rolloff(out):
    vb = VirtualBoard("knockabout")
    vb.start("knockabout", ["human", "human"], seed=5)
    save(vb, os.path.join(out, "knockabout-rolloff.png"))


def dodgeball_duel(out):
    vb = VirtualBoard("dodgeball")
    s = vb.start("dodgeball", ["human", "human"], seed=3, options={"setup": "quick"})
    play_until(vb, AutoPlayer(vb, 3, aggressive=True),
               lambda: s.animation is not None and s.animation.title == ROLL_TITLE
               and ":throw " in s.record.actions[-4])
    save(vb, os.path.join(out, "dodgeball-duel.png"))


def knockoff_computer(out):
    vb = VirtualBoard("knockoff")
    s = vb.start("knockoff", ["human", "fair"], seed=2)

    def second_move():
        a = s.animation
        return a is not None and a.title == "Green" and a.step.kind == "move" \
            and len(s.state.view().dice) == 0 \
            and re.match(r"roll \d-\d", s.record.actions[-3]) is not None
    play_until(vb, AutoPlayer(vb, 2), second_move)
    save(vb, os.path.join(out, "knockoff-computer.png"))


def knockoff_physical(out):
    vb = VirtualBoard("knockoff")
    vb.start("knockoff", ["human", "human"], seed=3, physical_dice=True)
    for _ in range(3):
        vb.menu()
    vb.ok()
    vb.ok()                       # the roll-off: Red 4, Green 1
    for _ in range(4):
        vb.menu()
    vb.ok()                       # Red's first die: 5
    save(vb, os.path.join(out, "knockoff-physical.png"))


def knockoff_refusal(out):
    vb = VirtualBoard("knockoff")
    s = vb.start("knockoff", ["human", "human"], seed=3)
    vb.press_space(s.ui.homes()[1 - s.state.current_player()])
    save(vb, os.path.join(out, "knockoff-refusal.png"))


def menu_entry(out):
    vb = VirtualBoard("knockoff")
    vb.start("knockoff", ["human", "human"], seed=3)
    vb.menu()
    while not (vb.menu_entry() or "").startswith("End game"):
        vb.menu()
    save(vb, os.path.join(out, "menu-long-entry.png"))


def knockabout_over(out):
    vb = VirtualBoard("knockabout")
    s = vb.start("knockabout", seed=11)
    play_until(vb, AutoPlayer(vb, 11, aggressive=True), lambda: s.mode == "over", 8000)
    while vb.oled()[0][0] != "Game over":
        vb.run(0.5)
    save(vb, os.path.join(out, "knockabout-over-1.png"))
    vb.run(PAGE_S)
    save(vb, os.path.join(out, "knockabout-over-2.png"))


def names(out):
    """MENU -> Names: a name of an earlier game chosen, one spelt, then the turn by name."""
    vb = VirtualBoard("knockabout")
    s = vb.start("knockabout", ["human", "human"], seed=5, names=["Ann", ""])
    vb.menu()
    while vb.menu_entry() != "Names":
        vb.menu()
    vb.ok()
    save(vb, os.path.join(out, "names-choose.png"))
    vb.ok()                       # White stays Ann
    while vb.oled()[0][1] != "> spell a name":
        vb.menu()
    vb.ok()
    for letter in "BEN":
        while vb.oled()[0][1] != f"> {letter}":
            vb.menu()
        if letter == "N":
            save(vb, os.path.join(out, "names-spell.png"))
        vb.ok()
    while vb.oled()[0][1] != "> end: keep it":
        vb.menu()
    vb.ok()
    vb.back()                     # the menu closed: the game, its turn by name
    assert s.ui.seat_name(1) == "Ben"
    save(vb, os.path.join(out, "names-turn.png"))


SITUATIONS = (knockabout_rolloff, dodgeball_duel, knockoff_computer, knockoff_physical,
              knockoff_refusal, menu_entry, knockabout_over, names)


if __name__ == "__main__":
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "oled")
    os.makedirs(folder, exist_ok=True)
    for situation in SITUATIONS:
        situation(folder)
