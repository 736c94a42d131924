"""The simulator window (Tk): the board in its true geometry from knockboard.layouts, each
cell showing its LED; the OLED drawn pixel for pixel from the firmware's framebuffer; OK,
BACK and MENU; the buzzer as a visual cue; the serial port a host connects to.

Tk runs in the main thread and only reads the virtual board (under its lock) every
REFRESH_MS; the firmware itself runs in the PtyPort's driver thread in real time.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any, Callable, Optional

from . import firmware, look
from .pty import PtyPort

REFRESH_MS = 30
OLED_ZOOM = 3
OLED_ON = "#a8e6ff"      # an SSD1306's pixels, lit
OLED_OFF = "#05070c"
CUE_MS = 150             # a click lasts 12 ms: the cue stays lit long enough to be seen
KEY_RELEASE_MS = 40      # X11 auto-repeat sends release+press pairs while a key is held

# keyboard shortcuts: key symbol -> control
KEYS = {"Return": "OK", "KP_Enter": "OK", "o": "OK", "BackSpace": "BACK", "Escape": "BACK",
        "b": "BACK", "m": "MENU"}
HELP = ("click a cell: press it (hold the mouse for a long press) · right-click: keep it "
        "pressed / let go · Enter or O: OK · Backspace, Esc or B: BACK · M: MENU · P: unplug "
        "/ plug in")


def display_problem() -> Optional[str]:
    """Why no Tk window can be opened here, or None."""
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY") \
            and not os.environ.get("WAYLAND_DISPLAY"):
        return "no display (DISPLAY is not set)"
    try:
        import tkinter
    except ImportError as err:
        return f"Tk is not available ({err}; on Debian: apt-get install python3-tk)"
    try:
        root = tkinter.Tk()
        root.destroy()
    except tkinter.TclError as err:
        return f"Tk cannot open the display ({err})"
    return None


class SimWindow:
    def __init__(self, root, port: PtyPort, *, fit_px: Optional[int] = None,
                 on_close: Optional[Callable[[], None]] = None):
        import tkinter as tk

        self.tk = tk
        self.root = root
        self.port = port
        self.vb = vb = port.board
        if vb.layout is None:
            raise ValueError(f"board {vb.board_id!r} has no layout to draw")
        # run first to last when the window closes (the demo stops its host thread here)
        self.close_hooks: list[Callable[[], None]] = [on_close] if on_close else []
        if fit_px is None:
            fit_px = fit_for_screen(root.winfo_screenheight())
        self.fit_px = fit_px
        self.view = look.Viewport(vb.layout, fit_px)
        root.title(f"Knockboard simulator: {vb.name}")
        root.configure(bg=look.BACKGROUND)
        root.protocol("WM_DELETE_WINDOW", self.close)

        self.canvas = tk.Canvas(root, width=self.view.width, height=self.view.height,
                                bg=look.BACKGROUND, highlightthickness=0)
        self.canvas.grid(row=0, column=0, rowspan=2, padx=(CANVAS_ORIGIN[0], 4),
                         pady=CANVAS_ORIGIN[1])
        self.panel = tk.Frame(root, bg=look.BACKGROUND)
        self.panel.grid(row=0, column=1, sticky="n", padx=(4, 10), pady=8)
        self.help = tk.Label(root, text=HELP, bg=look.BACKGROUND, fg=look.TEXT,
                             font=("TkDefaultFont", -11), wraplength=self.view.width + 400,
                             justify="left")
        self.help.grid(row=2, column=0, columnspan=2, sticky="w", padx=10, pady=(0, 8))

        self.cell_items: dict[int, int] = {}
        self.item_cells: dict[int, int] = {}
        self._fills: dict[int, str] = {}
        self._held_shown: set[int] = set()
        self._mouse_cell: Optional[int] = None
        self._latched: set[int] = set()
        # a click (a touchpad tap) is shorter than the firmware's debounce: its release is
        # held back until the firmware has seen the press, so every click is one press
        self.min_hold_ms = min_hold_ms(vb.config.debounce_ms)
        self._clicked: set = set()  # pressed by a click, released by _release
        # the pieces standing on the board (`show_pieces`): where they come from, the
        # position drawn last and the picture it was drawn with
        self._pieces_source: Optional[Callable[[], Any]] = \
            self._pieces_from_host if vb.draws_pieces else None
        self._pieces_shown: Any = None
        self._picture: Any = None
        self._wire: tuple = (None, None)       # the host's last PIECES bytes, decoded
        self._draw_board()
        self._build_panel()
        self._bind_keys()
        self._screen_writes = -1
        self._hal: Any = None
        self._cue_until = 0
        self._after = None
        self.update_now()
        self._after = root.after(REFRESH_MS, self._tick)

    # ---- the board ------------------------------------------------------------------------

    def _draw_board(self) -> None:
        c, v, layout = self.canvas, self.view, self.vb.layout
        x0, y0 = v.px(0, 0)
        x1, y1 = v.px(layout.width_mm, layout.height_mm)
        c.create_rectangle(x0, y0, x1, y1, fill=look.OVERLAY, outline="")
        cells = {cell.space: cell for cell in layout.cells}
        width = max(1.0, 0.6 * v.scale)
        for line in layout.lines:
            a, b = cells[line.a], cells[line.b]
            if line.directed:
                c.create_line(*v.edge_segment(a, b), fill=look.LINE, width=width,
                              arrow="last", arrowshape=(7, 8, 3))
            else:
                c.create_line(*v.centre(a), *v.centre(b), fill=look.LINE, width=width)
        font = ("TkDefaultFont", -max(8, round(v.radius(layout.cells[0]) * 0.42)))
        for cell in layout.cells:
            pts = v.outline(cell)
            start = cell.kind.startswith("start-")
            opts: dict = dict(fill=look.unlit_fill(cell), outline=look.outline_colour(cell),
                        width=3 if start else 1, tags=("cell",))
            item = (c.create_oval(*pts, **opts) if cell.shape == "circle"
                    else c.create_polygon(*pts, **opts))
            self.cell_items[cell.index] = item
            self.item_cells[item] = cell.index
            self._fills[cell.index] = opts["fill"]
            text = cell.label or cell.space
            lx, ly = v.label_point(cell)
            label = c.create_text(lx, ly, text=text, fill=look.TEXT, font=font, tags=("cell",))
            self.item_cells[label] = cell.index
        # printed over the cells' edges: Dodgeball's centre line and the balls on it
        for mark in layout.marks:
            if mark.kind == "line":
                pts = [p for xy in mark.points for p in v.px(*xy)]
                c.create_line(*pts, fill="#c8ccd4", width=max(2.0, 0.8 * v.scale))
        for mark in layout.marks:
            if mark.kind == "circle":
                (cx, cy), = [v.px(*xy) for xy in mark.points[:1]]
                r = mark.size * v.scale
                c.create_oval(cx - r, cy - r, cx + r, cy + r, fill="#e8e8e8",
                              outline=look.CELL_EDGE)
        c.tag_bind("cell", "<ButtonPress-1>", self._cell_down)
        c.tag_bind("cell", "<ButtonPress-3>", self._cell_latch)
        c.bind("<ButtonRelease-1>", self._cell_up)

    def _cell_at_event(self) -> Optional[int]:
        items = self.canvas.find_withtag("current")
        return self.item_cells.get(items[0]) if items else None

    def _cell_down(self, _event) -> None:
        index = self._cell_at_event()
        if index is not None:
            self._mouse_cell = index
            self._press(index)

    def _cell_up(self, _event) -> None:
        # released wherever the mouse is now: the button under it was the one pressed
        if self._mouse_cell is not None:
            if self._mouse_cell not in self._latched:
                self._release(self._mouse_cell)
            self._mouse_cell = None

    def _press(self, target) -> None:
        self._clicked.add(target)
        self.vb.press(target)

    def _release(self, target) -> None:
        """Let go of `target`, but not before the firmware has read it down for
        `min_hold_ms` of its own passes."""
        if target in self._clicked:
            self._clicked.discard(target)
            self._release_once_seen(target)
        else:
            self.vb.release(target)

    def _release_once_seen(self, target) -> None:
        # Counted on the firmware's passes, not on the wall clock: on a busy machine its
        # thread may miss many milliseconds, and a release before a pass min_hold_ms after
        # the first that read the press would be a bounce to the debounce.
        if not self.vb.is_down(target):
            return  # let go meanwhile (unplugged and plugged in again, say)
        seen = self.vb.first_pass_ms(target)
        if seen is not None and self.vb.hal.now >= seen + self.min_hold_ms:
            self.vb.release(target)
        else:
            self.root.after(1, self._release_once_seen, target)

    def _cell_latch(self, _event) -> None:
        index = self._cell_at_event()
        if index is None:
            return
        if index in self._latched:
            self._latched.discard(index)
            self.vb.release(index)
        else:
            self._latched.add(index)
            self.vb.press(index)

    # ---- OLED, controls, buzzer, port ----------------------------------------------------

    def _build_panel(self) -> None:
        tk, p = self.tk, self.panel
        title = tk.Label(p, text=f"{self.vb.name} board", bg=look.BACKGROUND, fg="#e6e9ef",
                         font=("TkDefaultFont", -18, "bold"))
        title.pack(anchor="w")
        w, h = 128 * OLED_ZOOM, 64 * OLED_ZOOM
        self.oled_canvas = tk.Canvas(p, width=w + 16, height=h + 16, bg="#0b0c10",
                                     highlightthickness=1, highlightbackground="#30343c")
        self.oled_canvas.pack(pady=(8, 10))
        self._oled_small = tk.PhotoImage(width=128, height=64)
        self.oled_image = self._oled_small.zoom(OLED_ZOOM)
        self.oled_item = self.oled_canvas.create_image(8, 8, image=self.oled_image,
                                                       anchor="nw")
        row = tk.Frame(p, bg=look.BACKGROUND)
        row.pack(pady=(0, 10))
        self.control_buttons = {}
        for name in ("BACK", "MENU", "OK"):
            b = tk.Button(row, text=name, width=7, font=("TkDefaultFont", -14, "bold"),
                          bg="#2f3541", fg="#e6e9ef", activebackground="#46505f",
                          activeforeground="#ffffff", relief="raised", bd=2)
            b.bind("<ButtonPress-1>", lambda e, n=name: self._press(n))
            b.bind("<ButtonRelease-1>", lambda e, n=name: self._release(n))
            b.pack(side="left", padx=6)
            self.control_buttons[name] = b
        cue = tk.Frame(p, bg=look.BACKGROUND)
        cue.pack(anchor="w", pady=(0, 8))
        self.cue_canvas = tk.Canvas(cue, width=28, height=28, bg=look.BACKGROUND,
                                    highlightthickness=0)
        self.cue_canvas.pack(side="left")
        self.cue_item = self.cue_canvas.create_oval(4, 4, 24, 24, fill="#2a2d33",
                                                    outline="#555b66", width=2)
        self.cue_label = tk.Label(cue, text="buzzer: quiet", bg=look.BACKGROUND, fg=look.TEXT,
                                  font=("TkDefaultFont", -13))
        self.cue_label.pack(side="left", padx=6)
        self.status = tk.Label(p, text="", bg=look.BACKGROUND, fg="#e6e9ef",
                               font=("TkDefaultFont", -13), justify="left")
        self.status.pack(anchor="w")
        tk.Label(p, text="serial port for the host:", bg=look.BACKGROUND, fg=look.TEXT,
                 font=("TkDefaultFont", -12)).pack(anchor="w", pady=(10, 0))
        port = tk.Entry(p, width=34, font=("TkFixedFont", -13), readonlybackground="#20232a",
                        fg="#e6e9ef", relief="flat")
        port.insert(0, self.port.path)
        port.configure(state="readonly")
        port.pack(anchor="w", pady=(2, 2))
        tk.Label(p, text=f"knockboard play ... --port {self.port.path}", bg=look.BACKGROUND,
                 fg=look.TEXT, font=("TkFixedFont", -11)).pack(anchor="w")
        self.power_button = tk.Button(p, text="Unplug", command=self.toggle_power,
                                      bg="#3a2f2f", fg="#e6e9ef", activebackground="#5a4040",
                                      font=("TkDefaultFont", -12))
        self.power_button.pack(anchor="w", pady=(12, 0))

    def _bind_keys(self) -> None:
        self._key_release_jobs: dict[str, str] = {}
        for sym, control in KEYS.items():
            self.root.bind(f"<KeyPress-{sym}>", lambda e, c=control: self._key_down(c))
            self.root.bind(f"<KeyRelease-{sym}>", lambda e, c=control: self._key_up(c))
        self.root.bind("<KeyPress-p>", lambda e: self.toggle_power())

    def _key_down(self, control: str) -> None:
        job = self._key_release_jobs.pop(control, None)
        if job is not None:  # auto-repeat: the key never went up
            self.root.after_cancel(job)
        self.vb.press(control)

    def _key_up(self, control: str) -> None:
        def release():
            self._key_release_jobs.pop(control, None)
            self.vb.release(control)
        self._key_release_jobs[control] = self.root.after(KEY_RELEASE_MS, release)

    def toggle_power(self) -> None:
        if self.vb.powered:
            self.vb.power_off()
        else:
            self.vb.power_on()
        self.update_now()

    # ---- refresh ---------------------------------------------------------------------------

    def _tick(self) -> None:
        self.update_now()
        self._after = self.root.after(REFRESH_MS, self._tick)

    def update_now(self) -> None:
        """Copy the virtual board's LEDs, OLED, buzzer and status into the window."""
        vb = self.vb
        with vb.lock:
            leds = vb.leds()
            hal = vb.hal
            held = {i for i in range(vb.cells) if hal.keys[i // vb.config.cols]
                    >> (i % vb.config.cols) & 1}
            screen = bytes(hal.screen) if (hal is not self._hal or
                                           hal.screen_writes != self._screen_writes) else None
            self._hal, self._screen_writes = hal, hal.screen_writes
            tones = vb.take_tones()
            sounds = vb.take_sounds()
            tone_hz = hal.tone_hz
            mode = vb.mode
        for index, rgb in enumerate(leds):
            cell = vb.layout.cells[index]
            fill = look.hex_colour(look.led_on_screen(rgb)) if any(rgb) else \
                look.unlit_fill(cell)
            if fill != self._fills[index]:
                self._fills[index] = fill
                self.canvas.itemconfigure(self.cell_items[index], fill=fill)
        for index in held ^ self._held_shown:
            cell = vb.layout.cells[index]
            down = index in held
            self.canvas.itemconfigure(
                self.cell_items[index], outline=look.HELD if down else look.outline_colour(cell),
                width=3 if down or cell.kind.startswith("start-") else 1)
        self._held_shown = held
        if screen is not None:
            self._draw_oled(screen)
        self._show_cue(tones, sounds, tone_hz)
        self.status.configure(text={"host": "host connected",
                                    "waiting": "waiting for a host (dice roller)",
                                    "off": "unplugged", "stopped": "firmware stopped (REPL)"
                                    }[mode])
        self.power_button.configure(text="Plug in" if mode == "off" else "Unplug")
        self._draw_pieces()

    # ---- the pieces ------------------------------------------------------------------------

    def show_pieces(self, source: Callable[[], Any]) -> None:
        """Draw the pieces that would stand on the board, as the game view draws them:
        `source()` gives (game, the engine's view of the position) or None, and may be
        called from Tk's thread at any time (the session keeps it as one snapshot)."""
        self._pieces_source = source
        self._pieces_shown = None

    def _pieces_from_host(self) -> Any:
        """(game, view) of the host's last PIECES frame (`gameview.wire`), or None: so
        every host draws its pieces here, `play --port` from another program as much as
        `play --sim` and `replay --sim` in this one."""
        data = self.vb.shown_pieces()
        if data is not self._wire[0]:
            from ..gameview.wire import WireError, decode_view
            try:
                shown = decode_view(data) if data else None
            except WireError:
                shown = None                 # drawn as no pieces, not as a crash
            self._wire = (data, shown)
        return self._wire[1]

    def _draw_pieces(self) -> None:
        shown = self._pieces_source() if self._pieces_source is not None else None
        if shown is self._pieces_shown:
            return
        self._pieces_shown = shown
        self.canvas.delete("piece")
        if shown is None:
            return
        from ..gameview.picture import Picture
        from ..gameview.window import draw
        from ..session.adapters import get_ui
        game, view = shown
        if self._picture is None or self._picture.ui.game is not game:
            self._picture = Picture(get_ui(game), self.fit_px)
        # on top of the LED-lit cells, their light still round each piece; "disabled":
        # a click on a piece goes to its cell
        draw(self.canvas, self._picture.pieces(view), tags=("piece",), state="disabled")

    def _draw_oled(self, screen: bytes) -> None:
        rows = []
        for y in range(64):
            page, bit = (y >> 3) * 128, 1 << (y & 7)
            rows.append("{" + " ".join(OLED_ON if screen[page + x] & bit else OLED_OFF
                                       for x in range(128)) + "}")
        self._oled_small.put(" ".join(rows), to=(0, 0))
        self.oled_image = self._oled_small.zoom(OLED_ZOOM)
        self.oled_canvas.itemconfigure(self.oled_item, image=self.oled_image)

    def _show_cue(self, tones, sounds, tone_hz) -> None:
        now = self.vb.clock.ms
        if tone_hz or any(f for _, f in tones):
            self._cue_until = now + CUE_MS
        lit = now < self._cue_until
        self.cue_canvas.itemconfigure(self.cue_item, fill="#ffb020" if lit else "#2a2d33")
        if sounds:
            self.cue_label.configure(text=f"buzzer: {sounds[-1][1]}")
        elif not lit:
            self.cue_label.configure(text="buzzer: quiet")

    def close(self) -> None:
        if self._after is not None:
            try:
                self.root.after_cancel(self._after)
            except self.tk.TclError:
                pass
            self._after = None
        hooks, self.close_hooks = self.close_hooks, []
        for hook in hooks:
            hook()
        # the OLED's images let go here, on Tk's thread: left to the garbage collector they
        # may be deleted from another thread, which Tk refuses ("main thread is not in main
        # loop", seen in a test run); a second close finds them gone
        self.__dict__.pop("oled_image", None)
        self.__dict__.pop("_oled_small", None)
        try:
            self.root.destroy()
        except self.tk.TclError:
            pass


def min_hold_ms(debounce_ms: int) -> int:
    """How long a click keeps its button down: the firmware's debounce (its board.json
    value) and two of its key scans, so that a scan sees the press settled."""
    return debounce_ms + 2 * firmware.load().app.SCAN_MS


def fit_for_screen(screen_height: int) -> int:
    """The board's size in pixels on a screen this tall (room left for the title bar)."""
    return max(420, min(720, screen_height - 140))


# where the board's canvas starts inside the window (its grid padding), for scripts that
# click cells from outside, as the window tests do
CANVAS_ORIGIN = (8, 8)


def fit_beside(screen_width: int, screen_height: int, beside_px: int) -> int:
    """The board's size when a window `beside_px` wide besides its own board (the game
    view's text column) must fit on the screen too: the two boards share what is left."""
    shared = (screen_width - SIM_PANEL_PX - beside_px - 40) // 2
    return max(MIN_FIT_PX, min(fit_for_screen(screen_height), shared))


# the width of the window beside the board (the OLED, the buttons) and the smallest board
SIM_PANEL_PX = 128 * OLED_ZOOM + 40
MIN_FIT_PX = 320


def run_window(board: str = "knockabout", *, seed: Optional[int] = None,
               out=sys.stdout, on_ready: Optional[Callable] = None,
               beside_px: int = 0) -> int:
    """`knockboard sim`: the window for a virtual `board`, until it is closed. `on_ready`
    (port, window) runs once the window is up (the demo starts its host there);
    `beside_px`: a window that wide besides its board opens beside this one (`--view`)."""
    import tkinter as tk

    from .pty import start_pty

    port = start_pty(board, seed=seed, pieces=True)
    try:
        root = tk.Tk()
        fit = fit_beside(root.winfo_screenwidth(), root.winfo_screenheight(), beside_px) \
            if beside_px else None
        window = SimWindow(root, port, on_close=port.close, fit_px=fit)
        print(f"knockboard sim: {port.board.name} board on {port.path} "
              f"(host: knockboard play ... --port {port.path})", file=out, flush=True)
        if on_ready is not None:
            on_ready(port, window)
        # Tk swallows a KeyboardInterrupt raised inside its callbacks: Ctrl-C in the
        # terminal closes the window instead.
        previous = signal.signal(signal.SIGINT, lambda *_: root.after_idle(window.close)) \
            if threading.current_thread() is threading.main_thread() else None
        try:
            root.mainloop()
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
    finally:
        port.close()
    return 0
