"""The printed parts: each cell's stack-up, the caps and frame tiles (STL), the
overlays and assembly views, and the registration marks that line them up with the PCBs."""
