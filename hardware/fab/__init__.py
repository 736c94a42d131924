"""The files a fab takes: JLCPCB's BOM and placement (CPL) per board, and a reader of
Gerbers and drill files for checking what the fab will read."""
