"""A player's own cards as a small PNG, for the private message that deals them.

Drawn for every player of every hand, so it is composed like the table (``table_image``):
each card on the felt is reduced to the table's palette once per process, a picture is those
pasted side by side and encoded at zlib level 6. Measured on two cards: 0.19 ms to compose
and 0.55 ms to encode, 2.2 KB, where level 1 and 3 take longer (0.70, 0.66 ms) for more bytes
(2.8, 2.5 KB) and level 9 takes 4.2 ms for 2.0 KB; drawn in RGB as before it took 2.2 ms for
3.3 KB. A picture is then kept: the hole cards of every hand and every press of My cards ask
for one, and there are only 2,652 ordered pairs of cards.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache, partial

from PIL import Image

from bot.render.cache import BoundedCache
from bot.render.card_faces import card_face
from bot.render.table_image import FELT, palette, reduce
from engine.cards import Card, check_distinct

CARD_WIDTH, CARD_HEIGHT = 90, 126
GAP = 10
BACKGROUND = (*FELT, 255)
COMPRESS_LEVEL = 6
PICTURES_BUDGET = 8 * 1024 * 1024
"""Bytes of kept pictures: every ordered pair of hole cards (2,652 pictures, 6.9 MB with the
cache's bookkeeping as ``tracemalloc`` measured them) fits, and pictures of more cards take
turns beside them."""


def render_cards(cards: Sequence[Card]) -> bytes:
    """PNG of ``cards`` side by side on felt (one to seven cards, all different)."""
    if not 1 <= len(cards) <= 7:
        raise ValueError(f"can draw 1 to 7 cards, not {len(cards)}")
    check_distinct(list(cards))
    return _pictures.get(tuple(cards), partial(_draw, tuple(cards)))


def _draw(cards: tuple[Card, ...]) -> bytes:
    width = GAP + len(cards) * (CARD_WIDTH + GAP)
    image = Image.new("P", (width, CARD_HEIGHT + 2 * GAP), _felt_index())
    image.putpalette(palette().getpalette() or ())
    for index, card in enumerate(cards):
        image.paste(_card(card), (GAP + index * (CARD_WIDTH + GAP), GAP))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=COMPRESS_LEVEL)
    return buffer.getvalue()


def kept_size(png: bytes) -> int:
    """Bytes a kept picture takes: the PNG, and its key and entry in the cache (``tracemalloc``
    counted 2,590 bytes held for each of the 2,652 pairs, whose PNGs average 2,088)."""
    return len(png) + 500


_pictures: BoundedCache[tuple[Card, ...], bytes] = BoundedCache(kept_size, PICTURES_BUDGET)


@lru_cache(maxsize=52)
def _card(card: Card) -> Image.Image:
    """One card on the felt, in the palette (52 of 11 KB at most)."""
    on_felt = Image.alpha_composite(Image.new("RGBA", (CARD_WIDTH, CARD_HEIGHT), BACKGROUND),
                                    card_face(card, CARD_WIDTH, CARD_HEIGHT))
    return Image.fromarray(reduce(on_felt), "P")


@lru_cache(maxsize=1)
def _felt_index() -> int:
    return int(reduce(Image.new("RGB", (1, 1), FELT))[0, 0])
