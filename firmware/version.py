# Reported in the handshake; `knockboard flash` compares it with the board's answer.
VERSION = "0.1.0"
