"""A set of string keys (message ids, message+list pairs) kept as digests in a sorted array.

A Python set of a million message ids costs ~130 MB (the strings, the set's slots), and the
small objects it keeps alive pin the allocator's arenas while the rows around them come and go;
here a key costs 16 bytes in one array. Keys are 128-bit BLAKE2b digests whose last byte is
fixed to 1 (numpy strips trailing NULs from fixed-width bytes): two keys of a billion share a
digest with a chance of ~1e-20.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np

DIGEST = 16
DTYPE = f"S{DIGEST}"
MERGE_AT = 65536  # keys added since the last merge, held in a small set until then


def digest(key: str) -> bytes:
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=DIGEST - 1).digest() + b"\x01"


class KeySet:
    """Membership of string keys, checked a batch at a time (`contains`)."""

    __slots__ = ("_sorted", "_recent")

    def __init__(self, keys: Iterable[str] = ()) -> None:
        self._sorted = np.empty(0, dtype=DTYPE)
        self._recent: set[bytes] = set()
        for key in keys:
            self.add(digest(key))

    def add(self, d: bytes) -> None:
        """Add a key by its digest."""
        self._recent.add(d)
        if len(self._recent) >= MERGE_AT:
            self._merge()

    def _merge(self) -> None:
        if self._recent:
            self._sorted = np.union1d(self._sorted, np.array(list(self._recent), dtype=DTYPE))
            self._recent = set()

    def contains(self, ds: list[bytes]) -> list[bool]:
        """Whether each digest is in the set (one binary search over the array for all)."""
        a = self._sorted
        if not ds:
            return []
        if len(ds) == 1:  # a worker asks per message: no arrays built (4 us -> 0.7 us)
            d = ds[0]
            i = int(a.searchsorted(d)) if len(a) else 0
            return [(i < len(a) and a[i] == d) or d in self._recent]
        if len(a):
            q = np.array(ds, dtype=DTYPE)
            i = np.searchsorted(a, q)
            hit = (a[np.minimum(i, len(a) - 1)] == q) & (i < len(a))
            found = hit.tolist()
        else:
            found = [False] * len(ds)
        recent = self._recent
        return [f or d in recent for f, d in zip(found, ds, strict=True)]

    def __contains__(self, key: str) -> bool:
        return self.contains([digest(key)])[0]

    def __len__(self) -> int:
        self._merge()
        return len(self._sorted)

    def __bool__(self) -> bool:  # without the merge `len` does
        return bool(len(self._sorted) or self._recent)

    def packed(self) -> bytes:
        """Every digest, sorted, end to end (16 bytes each): what `extend` reads back."""
        self._merge()
        return self._sorted.tobytes()

    def extend(self, packed: bytes) -> None:
        """Add digests given end to end (a block of `packed`, or of digests joined). A `packed`
        block into an empty set is taken as it is; a small one goes to the recent keys (a merge
        sorts the whole array: not once per block)."""
        block = np.frombuffer(packed, dtype=DTYPE)
        if not len(self._sorted) and not self._recent and _ascending(block):
            self._sorted = block
        elif len(block) < MERGE_AT:
            for d in block.tolist():
                self.add(d)
        else:
            self._merge()
            self._sorted = np.union1d(self._sorted, block)

    def digests(self) -> frozenset[bytes]:
        """Every key's digest (to compare two sets)."""
        self._merge()
        return frozenset(self._sorted.tolist())


def _ascending(a: np.ndarray) -> bool:
    """Strictly: sorted and without repeats, as a KeySet's array is."""
    return len(a) < 2 or bool((a[1:] > a[:-1]).all())
