"""The game in a browser (`--web [HOST:]PORT`): a small read-only web server that pushes the
game, as the game view draws it, to any page that asks (docs/web.md)."""
