"""Talking to a Knockboard over USB serial: transport, link layer, the Board client."""

from .board import Board, BoardError
from .link import Link, LinkDown, LinkError
from .ports import PortInfo, PortNotFound, find_board, list_ports
from .protocol import (Cell, Display, DeviceError, Info, KeyEvent, KeyState, ProtocolError,
                       Scene)
from .transport import SerialTransport, TransportError, pipe_pair

__all__ = ["Board", "BoardError", "Cell", "Display", "DeviceError", "Info", "KeyEvent",
           "KeyState", "Link", "LinkDown", "LinkError", "PortInfo", "PortNotFound",
           "ProtocolError", "Scene", "SerialTransport", "TransportError", "find_board",
           "list_ports", "pipe_pair"]
