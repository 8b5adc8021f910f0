"""PNG encoding that compresses only the rows that changed since a picture like it was encoded.

A PNG's pixels are one zlib stream, but a deflate stream may be cut into segments that refer
to nothing before them (each compressed alone and ended with a full flush): so the picture is
cut into bands of rows, each band compressed once and kept under a key that determines its
pixels (for the table, the pieces drawn in it), and a PNG is the kept bands put together with
the checksums combined. An edit of a table changes a few bands (the seat that acted, the one
to act, the last action's line), so it compresses a fraction of the picture: in bands of 32
rows, a quarter of the time of compressing it all at once, for 1 % more bytes
(``table_image.BAND_LEVEL``). The compressor is zlib-ng's, which writes the same format as
zlib: on the reference pictures' bands, at level 6, in 61-63 % of zlib's time and 2-4 %
fewer bytes.
"""

from __future__ import annotations

import struct
from collections.abc import Hashable, Sequence
from functools import partial

import numpy as np
from zlib_ng import zlib_ng as zlib

from bot.render.cache import BoundedCache

_ADLER_BASE = 65521
_FINAL_BLOCK = b"\x03\x00"
"""An empty final block of fixed codes, ending a stream of full-flushed segments."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + \
        struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings end to end, from theirs (zlib's ``adler32_combine``,
    which Python's ``zlib`` does not offer)."""
    remainder = second_length % _ADLER_BASE
    low = first & 0xFFFF
    high = (remainder * low) % _ADLER_BASE
    low += (second & 0xFFFF) + _ADLER_BASE - 1
    high += (first >> 16) + (second >> 16) + _ADLER_BASE - remainder
    return low % _ADLER_BASE | (high % _ADLER_BASE) << 16


class BandedPng:
    """Encodes paletted pictures of one size and palette, ``rows`` rows a band, each band
    compressed at ``level`` once per key and kept within ``budget`` bytes."""

    def __init__(self, size: tuple[int, int], palette: Sequence[int], *, rows: int,
                 level: int, budget: int) -> None:
        self.width, self.height = size
        self.rows = rows
        self._level = level
        colours = bytes(palette)[:768]
        self._head = b"\x89PNG\r\n\x1a\n" + _chunk(
            b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 3, 0, 0, 0)) + \
            _chunk(b"PLTE", colours)
        self._bands: BoundedCache[tuple[int, Hashable], tuple[bytes, int]] = \
            BoundedCache(lambda band: len(band[0]) + 300, budget)

    @property
    def bands(self) -> int:
        """How many bands a picture has."""
        return -(-self.height // self.rows)

    def encode(self, pixels: np.ndarray, keys: Sequence[Hashable]) -> bytes:
        """``pixels`` (one row of this palette's indices per row of the picture) as a PNG;
        ``keys[band]`` must be equal only for bands of equal pixels."""
        parts: list[bytes] = []
        checksum = 1
        for band, key in enumerate(keys):
            data, adler = self._bands.get((band, key), partial(self._compress, pixels, band))
            parts.append(data)
            length = (self.width + 1) * (min(self.height, (band + 1) * self.rows)
                                         - band * self.rows)
            checksum = _adler32_combine(checksum, adler, length)
        stream = b"\x78\x9c" + b"".join(parts) + _FINAL_BLOCK + struct.pack(">I", checksum)
        return self._head + _chunk(b"IDAT", stream) + _chunk(b"IEND", b"")

    def _compress(self, pixels: np.ndarray, band: int) -> tuple[bytes, int]:
        rows = pixels[band * self.rows:(band + 1) * self.rows]
        raw = np.zeros((rows.shape[0], self.width + 1), dtype=np.uint8)  # filter 0: none
        raw[:, 1:] = rows
        data = raw.tobytes()
        compressor = zlib.compressobj(self._level, zlib.DEFLATED, -zlib.MAX_WBITS)
        return compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH), \
            zlib.adler32(data)
