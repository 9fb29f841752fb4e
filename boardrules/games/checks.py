"""Argument checks shared by the game facades (options and indices)."""

from __future__ import annotations

from boardrules.errors import InvalidOptionError


def check_index(name: str, value: object, size: int) -> None:
    """``value`` is an int index in ``0 .. size - 1`` (TypeError / ValueError)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int")
    if not 0 <= value < size:
        raise ValueError(f"{name} must be 0 to {size - 1}")


def check_int_option(name: str, value: object, low: int, high: int) -> None:
    """An integer option in ``low .. high`` (InvalidOptionError; a bool is refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptionError(f"{name} must be an integer")
    if not low <= value <= high:
        raise InvalidOptionError(f"{name} must be {low} to {high}, not {value}")


def check_picture_size(size: object, low: int, high: int, meaning: str) -> int:
    """``size`` of a picture (``render_svg``): an int (a bool refused) from ``low`` to
    ``high`` pixels, else ``ValueError`` naming the range and what the size measures
    (``meaning``: "the picture's width", "a square's width"...).  Every game checks its
    ``size`` here, so NaN, infinity, a fraction, zero, a negative or a huge number never
    reaches the drawing (which would write ``width="nan"`` or overflow)."""
    if isinstance(size, bool) or not isinstance(size, int) or not low <= size <= high:
        raise ValueError(f"size ({meaning}) must be an integer from {low} to {high} pixels")
    return size
