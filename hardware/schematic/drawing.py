"""A readable schematic as SVG, drawn from a netlist: every part as a symbol box with its
pin numbers and names, every pin ending in the label of its net (pins with the same label
are connected, as in a net-label schematic), grouped into the functional blocks of the
circuit. SKiDL's own SVG needs KiCad symbol graphics, which parts defined in SKiDL don't
have, so this is drawn here from the same netlist that goes to KiCad."""

from xml.sax.saxutils import escape

from ..parts.catalogue import CATALOGUE
from ..parts.refdes import natural_order

CH = 6.6            # px per character, 11 px monospace
PITCH = 14
STUB = 16
HEAD = 30           # space above a box for ref and value
FOOT = 26           # below: MPN and footprint
GAP = 18
POWER_NETS = {"+5V", "+5V_IN", "+3V3", "VSYS", "VBUS"}

# pins on the left / right (top to bottom) where the package order reads badly
SIDES = {
    "sk6812mini": (["4", "1"], ["2", "3"]),
    "nmos": (["1"], ["3", "2"]),
    "pico": ([str(i) for i in range(1, 21)], [str(i) for i in range(40, 20, -1)]),
    "rn10k": (["1", "2", "3", "4"], ["8", "7", "6", "5"]),
}
ONE_SIDE = {"idc20", "vh3", "vh2", "oled_hdr", "jack"}


def _sides(comp):
    key = comp.fields["Catalogue"]
    nums = [n for n, _, _ in CATALOGUE[key].pins]
    if key in SIDES:
        return SIDES[key]
    if key in ONE_SIDE:
        return [], nums
    if len(nums) <= 3:
        return nums[:1], nums[1:]
    half = len(nums) // 2
    return nums[:half], list(reversed(nums[half:]))


def _net_color(net):
    if net is None:
        return "#999"
    if net == "GND":
        return "#1b5e20"
    if net in POWER_NETS:
        return "#c62828"
    return "#1565c0"


class Symbol:
    def __init__(self, comp):
        self.comp = comp
        self.left, self.right = _sides(comp)
        names = [comp.pin_name(n) for n in self.left + self.right]
        def label_w(side):
            return max([len(comp.pins.get(n) or "NC") for n in side] or [0]) * CH

        def name_w(side):
            return max([len(comp.pin_name(n)) for n in side] or [0]) * CH
        self.box_w = max(70, name_w(self.left) + name_w(self.right) + 44,
                         len(comp.value) * CH + 10)
        del names
        self.lab_l = label_w(self.left) + STUB + 6 if self.left else 0
        self.lab_r = label_w(self.right) + STUB + 6 if self.right else 0
        rows = max(len(self.left), len(self.right), 1)
        self.box_h = rows * PITCH + 10
        foot = max(len(comp.fields.get("MPN", "")), len(comp.footprint.split(":")[-1])) * CH * 0.85
        self.w = max(self.lab_l + self.box_w + self.lab_r, foot)
        self.h = HEAD + self.box_h + FOOT

    def svg(self, x, y):
        c = self.comp
        out = []
        bx = x + self.lab_l
        by = y + HEAD
        out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="{self.box_w:.1f}" '
                   f'height="{self.box_h:.1f}" fill="#fffde7" stroke="#5d4037" '
                   'stroke-width="1.4"/>')
        out.append(f'<text x="{bx:.1f}" y="{by - 16:.1f}" class="ref">{escape(c.ref)}</text>')
        out.append(f'<text x="{bx:.1f}" y="{by - 4:.1f}" class="val">{escape(c.value)}</text>')
        out.append(f'<text x="{x:.1f}" y="{by + self.box_h + 12:.1f}" '
                   f'class="mpn">{escape(c.fields.get("Manufacturer", ""))} '
                   f'{escape(c.fields.get("MPN", ""))}</text>')
        out.append(f'<text x="{x:.1f}" y="{by + self.box_h + 22:.1f}" class="mpn">'
                   f'{escape(c.footprint.split(":")[-1])}</text>')
        for side, pins in (("L", self.left), ("R", self.right)):
            for k, num in enumerate(pins):
                py = by + 12 + k * PITCH
                net = c.pins.get(num)
                col = _net_color(net)
                name = escape(c.pin_name(num))
                if side == "L":
                    x0, x1 = bx - STUB, bx
                    out.append(f'<line x1="{x0:.1f}" y1="{py:.1f}" x2="{x1:.1f}" y2="{py:.1f}" '
                               f'stroke="{col}"/>')
                    out.append(f'<text x="{bx + 4:.1f}" y="{py + 3.5:.1f}" '
                               f'class="pin">{name}</text>')
                    out.append(f'<text x="{bx - 3:.1f}" y="{py - 2:.1f}" class="num" '
                               f'text-anchor="end">{num}</text>')
                    lx, anchor = x0 - 4, "end"
                else:
                    x0, x1 = bx + self.box_w, bx + self.box_w + STUB
                    out.append(f'<line x1="{x0:.1f}" y1="{py:.1f}" x2="{x1:.1f}" y2="{py:.1f}" '
                               f'stroke="{col}"/>')
                    out.append(f'<text x="{x0 - 4:.1f}" y="{py + 3.5:.1f}" class="pin" '
                               f'text-anchor="end">{name}</text>')
                    out.append(f'<text x="{x0 + 3:.1f}" y="{py - 2:.1f}" class="num">{num}</text>')
                    lx, anchor = x1 + 4, "start"
                if net is None:
                    xe = x0 if side == "L" else x1
                    out.append(f'<path d="M{xe - 3:.1f},{py - 3:.1f} l6,6 m0,-6 l-6,6" '
                               'stroke="#999"/>')
                else:
                    out.append(f'<text x="{lx:.1f}" y="{py + 3.5:.1f}" class="net" fill="{col}" '
                               f'text-anchor="{anchor}">{escape(net)}</text>')
        return "\n".join(out)


STYLE = """<style>
text { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; }
.ref { font-size: 12px; font-weight: bold; fill: #3e2723; }
.val { font-size: 11px; fill: #3e2723; }
.pin { font-size: 10px; fill: #333; }
.num { font-size: 8px; fill: #777; }
.net { font-size: 11px; }
.mpn { font-size: 8.5px; fill: #666; }
.block { font-size: 15px; font-weight: bold; fill: #263238; }
.title { font-size: 20px; font-weight: bold; fill: #263238; }
.note { font-size: 11px; fill: #455a64; }
</style>"""



_CELL_ORDER = {"LED": 0, "C": 1, "SW": 2, "D": 3}


def _order(c):
    """Parts in reference order; a cell board's parts cell by cell (LED, C, SW, D)."""
    head = c.ref.rstrip("0123456789")
    if "Cell" in c.fields or c.fields.get("Block") == "Cells":
        return (int(c.ref[len(head):] or 0), _CELL_ORDER.get(head, 9), head)
    return natural_order(c.ref) + (0, "")


class _Columns:
    """Blocks of symbols stacked down columns no taller than `max_h`, the next column to the
    right of the widest symbol of the last."""

    def __init__(self, top, max_h):
        self.top, self.max_h = top, max_h
        self.x, self.y, self.col_w = 20.0, float(top), 0.0
        self.page_w, self.page_h = 0.0, 0.0
        self.body = []

    def _next_column(self):
        self.x += self.col_w + 40
        self.y, self.col_w = float(self.top), 0.0

    def _full(self, need):
        return self.y + need > self.top + self.max_h and self.y > self.top

    def add_block(self, block, syms, elisions):
        block_h = 28 + sum(s.h + GAP for s in syms)
        if self._full(block_h) and block_h <= self.max_h:
            self._next_column()            # keep a block together when a fresh column holds it
        first = True
        for s in syms:
            if self._full(s.h + GAP + (28 if first else 0)):
                self._next_column()
                first = True
            if first:
                self._heading(block)
                first = False
            for text in (e for b, before, e in elisions if b == block and before == s.comp.ref):
                self.body.append(f'<text x="{self.x:.1f}" y="{self.y + 4:.1f}" '
                                 f'class="note">{escape(text)}</text>')
                self.y += 24
            self._symbol(s)
        self.y += 14

    def _heading(self, block):
        x, y = self.x, self.y
        self.body.append(f'<text x="{x:.1f}" y="{y + 16:.1f}" class="block">{escape(block)}</text>')
        self.body.append(f'<line x1="{x:.1f}" y1="{y + 22:.1f}" x2="{x + 160:.1f}" '
                         f'y2="{y + 22:.1f}" stroke="#263238"/>')
        self.y += 28

    def _symbol(self, s):
        self.body.append(s.svg(self.x, self.y))
        self.y += s.h + GAP
        self.col_w = max(self.col_w, s.w)
        self.page_w = max(self.page_w, self.x + self.col_w)
        self.page_h = max(self.page_h, self.y)


def schematic_svg(nl, title, notes=(), blocks=None, refs=None, max_h=1150, elisions=()):
    """SVG text of netlist `nl`: parts grouped by their "Block" field in the order `blocks`,
    stacked into columns no taller than `max_h`. `refs` limits the drawing to those parts;
    `elisions` [(block, ref, text)] puts a note before part `ref` in place of those left out."""
    comps = [c for c in nl.components.values() if refs is None or c.ref in refs]
    order = blocks or sorted({c.fields.get("Block", "") for c in comps})
    groups = [(b, sorted((c for c in comps if c.fields.get("Block", "") == b), key=_order))
              for b in order]
    cols = _Columns(60 + 16 * len(notes), max_h)
    for block, members in groups:
        if members:
            cols.add_block(block, [Symbol(c) for c in members], elisions)
    page_w, page_h, body = cols.page_w, cols.page_h, cols.body
    text_w = max([len(title) * 12.5] + [len(n) * CH for n in notes])
    w, h = max(page_w, text_w + 20) + 30, page_h + 20
    head = [f'<text x="20" y="32" class="title">{escape(title)}</text>']
    for k, n in enumerate(notes):
        head.append(f'<text x="20" y="{52 + 16 * k}" class="note">{escape(n)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" viewBox="0 '
            f'0 {w:.0f} {h:.0f}">\n{STYLE}\n<rect width="100%" height="100%" '
            'fill="white"/>\n' + "\n".join(head + body) + "\n</svg>\n")
