"""Card faces drawn with Pillow shapes, cached per card and size.

Suits are drawn as shapes rather than font glyphs (Pillow's bundled font has no ♠♥♦♣), in
four colours so that a small image on a phone still tells diamonds from hearts.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.cards import RANK_CHARS, Card, rank_of, suit_of

SUIT_COLOURS = ((22, 130, 60), (30, 90, 200), (200, 30, 40), (20, 20, 24))  # c d h s
FACE_COLOUR = (250, 250, 246)
EDGE_COLOUR = (60, 60, 60)
BACK_COLOUR = (150, 30, 40)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels: nothing needs installing."""
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=256)
def card_face(card: Card, width: int, height: int) -> Image.Image:
    """A face-up card (rank in the corner, a big suit in the middle). Treat as read-only."""
    image = _blank_card(width, height, FACE_COLOUR)
    draw = ImageDraw.Draw(image)
    colour = SUIT_COLOURS[suit_of(card)]
    rank = "10" if RANK_CHARS[rank_of(card)] == "T" else RANK_CHARS[rank_of(card)]
    rank_font = font(max(10, height * 2 // 5))
    draw.text((width * 0.1, height * 0.04), rank, font=rank_font, fill=colour)
    pip = width * 0.42
    draw_suit(draw, suit_of(card), (width * 0.55, height * 0.68), pip, colour)
    return image


@lru_cache(maxsize=8)
def card_back(width: int, height: int) -> Image.Image:
    """A face-down card."""
    image = _blank_card(width, height, FACE_COLOUR)
    draw = ImageDraw.Draw(image)
    inset = max(2, width // 10)
    draw.rounded_rectangle((inset, inset, width - 1 - inset, height - 1 - inset),
                           radius=max(2, width // 12), fill=BACK_COLOUR)
    return image


def _blank_card(width: int, height: int, colour: tuple[int, int, int]) -> Image.Image:
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, width - 1, height - 1), radius=max(3, width // 8), fill=colour,
        outline=EDGE_COLOUR, width=1)
    return image


def draw_suit(draw: ImageDraw.ImageDraw, suit: int, centre: tuple[float, float], size: float,
              colour: tuple[int, int, int]) -> None:
    """Draw the suit (0 clubs, 1 diamonds, 2 hearts, 3 spades) in a ``size`` square."""
    x, y = centre
    half = size / 2
    lobe = size * 0.27
    if suit == 1:
        draw.polygon([(x, y - half), (x + half * 0.75, y), (x, y + half), (x - half * 0.75, y)],
                     fill=colour)
    elif suit == 2:
        top = y - half * 0.45
        _circle(draw, (x - lobe * 0.95, top), lobe, colour)
        _circle(draw, (x + lobe * 0.95, top), lobe, colour)
        draw.polygon([(x - half * 0.98, top + lobe * 0.35), (x + half * 0.98, top + lobe * 0.35),
                      (x, y + half)], fill=colour)
    elif suit == 3:
        bottom = y + half * 0.15
        _circle(draw, (x - lobe * 0.95, bottom), lobe, colour)
        _circle(draw, (x + lobe * 0.95, bottom), lobe, colour)
        draw.polygon([(x - half * 0.98, bottom - lobe * 0.35),
                      (x + half * 0.98, bottom - lobe * 0.35), (x, y - half)], fill=colour)
        _stem(draw, x, bottom, y + half, size, colour)
    else:
        _circle(draw, (x, y - half * 0.45), lobe, colour)
        _circle(draw, (x - half * 0.5, y + half * 0.08), lobe, colour)
        _circle(draw, (x + half * 0.5, y + half * 0.08), lobe, colour)
        _stem(draw, x, y, y + half, size, colour)


def _circle(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float,
            colour: tuple[int, int, int]) -> None:
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)


def _stem(draw: ImageDraw.ImageDraw, x: float, top: float, bottom: float, size: float,
          colour: tuple[int, int, int]) -> None:
    draw.polygon([(x, top), (x + size * 0.2, bottom), (x - size * 0.2, bottom)], fill=colour)
