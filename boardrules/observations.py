"""Observation tensors: what one player may see, as a flat ``float32`` vector.

Each game's core writes a player's observation straight into a numpy array
(:meth:`State.observation <boardrules.State.observation>`, no Python per cell); the
game's :class:`ObservationLayout` (:attr:`Game.observation_layout
<boardrules.Game.observation_layout>`) is its legend: named fields, each a slice of the
vector with a shape of its own, so ``layout.split(obs)["board"]`` is the board planes.

The conventions every game follows (docs/adapters.rst, "Observation tensors"):

* **only what the player may see**: the tensor carries the information of
  ``state.view(player)`` and nothing more.  The conformance suite checks it twice: the core's
  tensor equals the one each game's ``observation.py`` computes from the view in Python
  (:meth:`Game.observation_from_view <boardrules.Game.observation_from_view>`), and two
  truths that differ only in what the player cannot see give him equal tensors;
* **seats relative to the observer**: a per-seat field lists the observer first, then the
  next seats in turn order (seat ``(player + k) % num_players`` at index ``k``), so one
  network plays every seat;
* one-hot flags are 0.0 / 1.0; counts are plain counts (not scaled), so the legend's words
  are the whole meaning of a value.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

#: The dtype of every observation tensor.
OBSERVATION_DTYPE = np.float32
#: The dtype of every action mask (1 legal, 0 not), as PettingZoo's classic games use.
ACTION_MASK_DTYPE = np.int8

Observation = npt.NDArray[np.float32]
ActionMask = npt.NDArray[np.int8]


@dataclass(frozen=True)
class ObservationField:
    """One named part of an observation: ``obs[start:stop]``, read as ``shape``; each of
    its floats lies in ``low`` .. ``high`` (the bounds of the Gymnasium ``Box``)."""

    name: str
    start: int
    shape: tuple[int, ...]
    description: str
    low: float = 0.0
    high: float = 1.0

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def stop(self) -> int:
        return self.start + self.size


class ObservationLayout:
    """The legend of a game's observation tensor: its fields, in order, end to end."""

    def __init__(self, fields: Iterable[FieldSpec]) -> None:
        """``fields``: ``(name, shape, description)`` for a field of 0/1 flags, or
        ``(name, shape, description, high)`` for counts up to ``high``, or ``(name, shape,
        description, high, low)``."""
        built: list[ObservationField] = []
        start = 0
        for name, shape, description, *bounds in fields:
            dims = tuple(int(d) for d in shape)
            if any(d <= 0 for d in dims):
                raise ValueError(f"observation field {name!r}: every dimension is >= 1")
            if any(f.name == name for f in built):
                raise ValueError(f"observation field {name!r} given twice")
            high = float(bounds[0]) if bounds else 1.0
            low = float(bounds[1]) if len(bounds) > 1 else 0.0
            if not low < high:
                raise ValueError(f"observation field {name!r}: low {low} >= high {high}")
            built.append(ObservationField(name, start, dims, description, low, high))
            start += built[-1].size
        self._fields = tuple(built)
        self._size = start

    @property
    def fields(self) -> tuple[ObservationField, ...]:
        return self._fields

    @property
    def size(self) -> int:
        """Floats in the whole tensor."""
        return self._size

    @property
    def shape(self) -> tuple[int]:
        return (self._size,)

    def field(self, name: str) -> ObservationField:
        for f in self._fields:
            if f.name == name:
                return f
        raise KeyError(f"no observation field {name!r}; fields: "
                       f"{', '.join(f.name for f in self._fields)}")

    def split(self, observation: Observation) -> dict[str, Observation]:
        """Each field of ``observation`` as a view of its own shape (no copy)."""
        array = np.asarray(observation)
        if array.shape != self.shape:
            raise ValueError(f"an observation of this layout has shape {self.shape}, "
                             f"not {array.shape}")
        return {f.name: array[f.start:f.stop].reshape(f.shape) for f in self._fields}

    def bounds(self) -> tuple[Observation, Observation]:
        """The lowest and highest value of each float (a Gymnasium ``Box``'s ``low`` and
        ``high``)."""
        low, high = self.zeros(), self.zeros()
        for f in self._fields:
            low[f.start:f.stop] = f.low
            high[f.start:f.stop] = f.high
        return low, high

    def out_of_bounds(self, observation: Observation) -> str | None:
        """The first float of ``observation`` outside its field's bounds, in words, or
        ``None``."""
        for name, part in self.split(observation).items():
            f = self.field(name)
            bad = ((part < f.low) | (part > f.high) | ~np.isfinite(part)).nonzero()
            if len(bad[0]):
                at = tuple(int(i[0]) for i in bad)
                return f"field {name!r}{list(at)} = {part[at]} is outside {f.low} .. {f.high}"
        return None

    def zeros(self) -> Observation:
        """A zero tensor of this layout (a buffer for :meth:`State.observation`)."""
        return np.zeros(self.shape, dtype=OBSERVATION_DTYPE)

    def legend(self) -> str:
        """The fields as a plain-text table: offset, shape, name, meaning."""
        rows = [f"{f.start:>5}  {'x'.join(map(str, f.shape)):>8}  {_range(f):>8}  {f.name}: "
                f"{f.description}" for f in self._fields]
        return "\n".join([f"{'start':>5}  {'shape':>8}  {'range':>8}  field", *rows,
                          f"{self._size:>5}  floats in all"])

    def __repr__(self) -> str:
        return f"ObservationLayout({len(self._fields)} fields, {self._size} floats)"


#: A field as :class:`ObservationLayout` takes it: name, shape, description, then
#: optionally its highest and lowest value (1.0 and 0.0 when left out: flags).
FieldSpec = tuple[Any, ...]


def _range(f: ObservationField) -> str:
    if (f.low, f.high) == (0.0, 1.0):
        return "0/1"
    return f"{f.low:g}..{f.high:g}"


class ObservationWriter:
    """Builds an observation field by field in Python: each game's reference
    ``observation_from_view`` uses it, so that the fields land where the layout says."""

    def __init__(self, layout: ObservationLayout) -> None:
        self.layout = layout
        self.array = layout.zeros()
        self._parts = layout.split(self.array)

    def __getitem__(self, name: str) -> Observation:
        return self._parts[name]

    def one_hot(self, name: str, index: int | None, *at: int) -> None:
        """Set ``field[*at, index]`` to 1 (nothing when ``index`` is ``None``)."""
        if index is not None:
            self._parts[name][(*at, index)] = 1.0


def relative_seat(player: int, seat: int, num_players: int) -> int:
    """Where ``seat`` is listed in ``player``'s per-seat fields (his own seat first)."""
    return (seat - player) % num_players


def check_buffer(out: Any, size: int, dtype: Any, what: str) -> None:
    """``out`` must be a writable, C-contiguous numpy array of ``size`` entries of
    ``dtype`` (a ``TypeError`` or ``ValueError`` saying which it is not)."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy array, not {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"out must have dtype {np.dtype(dtype).name}, not {out.dtype.name}")
    if out.shape != (size,):
        raise ValueError(f"out must have shape ({size},) for {what}, not {out.shape}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("out must be a writable, C-contiguous array")
