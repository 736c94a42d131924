"""The power path measured: the boards' copper as a resistor network (rails), the
controller's power section simulated with ngspice, track widths against the current, and
the power section of docs/build.md."""
