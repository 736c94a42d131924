"""What the design starts from, beside the parts: the firmware's pin map
(firmware/pinmap.json), the games' layouts (knockboard's registry, firmware/boards.json),
the power budget, the fab's rules and the current a track carries (IPC-2221)."""
