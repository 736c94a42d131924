"""The tokenizer the position parsers share.  A position is one line of fields separated
by white space; a field may hold a list of items separated by commas, with `-` for an empty
list.  The parsers turn these tokens into plain values, then check the values against the
rules, so each step stays small and names the field it rejects."""

from typing import List, Optional

from .base import PositionError


def split_fields(text: object, not_text: str, sep: Optional[str] = None) -> List[str]:
    """The fields of a position, split at white space (or at each `sep`, for a format that
    reports empty fields); PositionError(`not_text`) when `text` is not a string."""
    if not isinstance(text, str):
        raise PositionError(not_text)
    return text.split(sep)


def split_items(body: str, sep: str = ",", none: str = "-") -> List[str]:
    """The items of a list field: [] for `none`, otherwise the parts between `sep`."""
    return [] if body == none else body.split(sep)
