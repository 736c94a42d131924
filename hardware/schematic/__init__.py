"""The circuits (SKiDL): the controller and every game's cell board, their KiCad
netlists, schematic drawings, wiring table and the design checks run on the netlists."""
