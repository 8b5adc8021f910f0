"""Reading the images the renderer produced back, for tests of what a frame shows."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageSequence


def gif_frames(data: bytes) -> list[Image.Image]:
    """Every frame of a GIF, decoded to RGB."""
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "GIF"
        return [frame.convert("RGB") for frame in ImageSequence.Iterator(image)]


def card_difference(region: Image.Image, sprite: Image.Image) -> float:
    """Mean difference (0-255) between a card region and a card sprite, on the card's own
    pixels (its transparent corners show the table)."""
    card = np.asarray(sprite.convert("RGBA"), dtype=np.int16)
    shown = np.asarray(region.convert("RGB"), dtype=np.int16)
    inside = card[:, :, 3] == 255
    grey = np.abs(shown - card[:, :, :3]).mean(axis=2)
    return float(grey[inside].mean())
