"""A player's own cards as a small PNG, for the private message that deals them."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from bot.render.card_faces import card_face
from engine.cards import Card, check_distinct

CARD_WIDTH, CARD_HEIGHT = 90, 126
GAP = 10
BACKGROUND = (31, 111, 67, 255)


def render_cards(cards: Sequence[Card]) -> bytes:
    """PNG of ``cards`` side by side on felt (one to seven cards, all different)."""
    if not 1 <= len(cards) <= 7:
        raise ValueError(f"can draw 1 to 7 cards, not {len(cards)}")
    check_distinct(list(cards))
    width = GAP + len(cards) * (CARD_WIDTH + GAP)
    image = Image.new("RGBA", (width, CARD_HEIGHT + 2 * GAP), BACKGROUND)
    for index, card in enumerate(cards):
        face = card_face(card, CARD_WIDTH, CARD_HEIGHT)
        image.alpha_composite(face, (GAP + index * (CARD_WIDTH + GAP), GAP))
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG")
    return buffer.getvalue()
