"""Where the parts go on each PCB, from the game layouts (the cell boards, split into
tiles where the fab's panel is too small) and from the netlist (the controller): a board
plan, as plain data."""
