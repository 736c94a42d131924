"""A reader for the KiCad netlists written here, independent of SKiDL: the tests check the
committed files themselves, as KiCad would read them. Pin names come from the part
catalogue (each component's "Catalogue" field), since the netlist carries only numbers."""

from dataclasses import dataclass, field

from ..parts.catalogue import CATALOGUE
from ..parts.sexp import parse_sexp  # noqa: F401 (read here, and by the footprint readers through here)


def _get(node, key):
    for x in node[1:]:
        if isinstance(x, list) and x and x[0] == key:
            return x
    return None


def _val(node, key, default=""):
    x = _get(node, key)
    return x[1] if x is not None and len(x) > 1 else default


@dataclass
class Component:
    ref: str
    value: str
    footprint: str
    fields: dict
    pins: dict = field(default_factory=dict)     # pin number -> net name

    @property
    def part(self):
        return CATALOGUE[self.fields["Catalogue"]]

    def pin_name(self, num):
        return {n: name for n, name, _ in self.part.pins}[num]

    def pin_num(self, name):
        return {nm: n for n, nm, _ in self.part.pins}[name]

    def net_of(self, name):
        """The net on the pin called `name` (None: not connected)."""
        return self.pins.get(self.pin_num(name))


@dataclass
class Netlist:
    components: dict        # ref -> Component
    nets: dict              # net name -> [(ref, pin number)]

    def pins_on(self, net):
        return self.nets.get(net, [])


def read(text):
    root = parse_sexp(text)
    comps = {}
    for c in _get(root, "components")[1:]:
        fields = {}
        fl = _get(c, "fields")
        for f in (fl[1:] if fl else []):
            name = _val(f, "name")
            fields[name] = f[2] if len(f) > 2 and not isinstance(f[2], list) else ""
        ref = _val(c, "ref")
        comps[ref] = Component(ref, _val(c, "value"), _val(c, "footprint"), fields)
    nets = {}
    for n in _get(root, "nets")[1:]:
        name = _val(n, "name")
        nodes = [(_val(x, "ref"), _val(x, "pin")) for x in n[1:]
                 if isinstance(x, list) and x[0] == "node"]
        nets[name] = nodes
        for ref, pin in nodes:
            comps[ref].pins[pin] = name
    return Netlist(comps, nets)


def read_file(path):
    with open(path) as f:
        return read(f.read())
