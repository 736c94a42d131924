"""The pcbnew boundary. run.py (the project's Python) runs the scripts beside it under
Debian's /usr/bin/python3, the only Python with `import pcbnew`: board_file.py writes a plan
as a KiCad 6 board with its pour, DRC and Gerbers (silk.py its silkscreen), fab_facts.py and
copper.py read a board back for the checks. Those scripts import the standard library and
pcbnew only, and nothing else in hardware/ imports pcbnew."""
