"""The copper: the grid router, the escape from fine-pitch pads, and the routing of a
placed plan, net by net; a picture of the routed plan."""
