"""The game view: the position drawn as players see their pieces (window and SVG)."""
