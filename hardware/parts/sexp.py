"""KiCad's S-expression files (netlists, footprints, symbol libraries) as nested lists of
strings: a quoted string loses its quotes and escapes, everything else stays text."""

import re

_TOKEN = re.compile(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+')


def parse_sexp(text):
    stack, cur = [], []
    for tok in _TOKEN.findall(text):
        if tok == "(":
            stack.append(cur)
            cur = []
        elif tok == ")":
            done, cur = cur, stack.pop()
            cur.append(done)
        elif tok.startswith('"'):
            cur.append(tok[1:-1].replace('\\"', '"').replace("\\\\", "\\"))
        else:
            cur.append(tok)
    if stack or len(cur) != 1:
        raise ValueError("unbalanced S-expression")
    return cur[0]
