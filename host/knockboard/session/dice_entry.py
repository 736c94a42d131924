"""Entering the values of real dice on the board ("physical dice"): MENU counts the shown
value up (1, 2, ..., the die's top face, then "menu", then 1 again), OK takes it, BACK
takes back the last value entered."""

DONE, CHANGED, IGNORED, OPEN_MENU = "done", "changed", "ignored", "menu"


class DiceEntry:
    def __init__(self, labels, kind):
        self.labels = list(labels)     # one per die: "White d6", "thrower d6"
        self.kind = kind
        self.values = []
        self.current = 1               # kind + 1 stands for the "menu" entry

    @property
    def label(self):
        return self.labels[len(self.values)]

    @property
    def on_menu(self):
        return self.current > self.kind

    def menu(self):
        self.current = self.current % (self.kind + 1) + 1
        return CHANGED

    def ok(self):
        if self.on_menu:
            self.current = 1
            return OPEN_MENU
        self.values.append(self.current)
        self.current = 1
        return DONE if len(self.values) == len(self.labels) else CHANGED

    def back(self):
        if not self.values:
            return IGNORED
        self.current = self.values.pop()
        return CHANGED
