"""A hand's replay as an animated GIF, within an upload limit.

Frames come from ``replay_frames`` and are drawn by the live table's renderer. They share one
palette, taken from the first and the last frame (which hold every colour between), so
the GIF writer stores each frame as the rectangle that changed: a 6-handed hand of four
streets is about 30 frames and 100 KB (``python -m benchmarks.replay``). A replay larger than
the limit is drawn again with the key frames only (streets only), and if even that is too
large, as the last frame alone: it is never refused. The last frame also goes along as a
PNG for clients that do not animate.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.i18n import ENGLISH, Language
from bot.render.replay_frames import Frame, replay_frames
from bot.render.table_image import draw_table
from engine.hand_record import RecordedHand

DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024
"""Discord's upload limit for a server without boosts (10 MiB)."""


@dataclass(frozen=True, slots=True)
class ReplayImage:
    """The replay to attach: the animation, and the last frame alone for clients that do not
    animate (both together within the limit)."""

    animation: bytes | None
    """The GIF, or ``None`` when not even the streets-only replay fitted the limit."""
    still: bytes
    """The last frame (the result) as a PNG."""
    frames: int
    """Frames in the animation (0 without one)."""
    streets_only: bool
    """Drawn with the key frames only, because every frame did not fit the limit."""


def render_replay(record: RecordedHand, names: Sequence[str], viewer: int | None, *,
                  title: int, limit: int = DEFAULT_UPLOAD_LIMIT,
                  language: Language = ENGLISH, you: int | None = None) -> ReplayImage:
    """The replay of ``record`` as ``viewer`` may see it (see ``replay_frames``, and its
    ``you``), at most ``limit`` bytes in all, its words in ``language``. Slow (a tenth of a
    second or more): call it off the event loop. Raises ``IllegalActionError`` for a record
    that does not fit the rules."""
    frames = replay_frames(record, names, viewer, title=title, you=you)
    still = encode_still(frames[-1], language=language)
    budget = limit - len(still)
    for streets_only, chosen in ((False, frames), (True, [f for f in frames if f.key])):
        animation = encode_gif(chosen, language=language)
        if len(animation) <= budget:
            return ReplayImage(animation, still, len(chosen), streets_only)
    return ReplayImage(None, still, 0, streets_only=True)


def encode_gif(frames: Sequence[Frame], *, language: Language = ENGLISH) -> bytes:
    """The frames as a looping GIF, each shown for its duration, on one shared palette, their
    words in ``language``."""
    images = [draw_table(frame.state, frame.face_down, language=language) for frame in frames]
    palette = _shared_palette(images[0], images[-1])
    paletted = [image.quantize(palette=palette, dither=Image.Dither.NONE) for image in images]
    buffer = io.BytesIO()
    paletted[0].save(buffer, format="GIF", save_all=True, append_images=paletted[1:],
                     duration=[frame.duration_ms for frame in frames], loop=0)
    return buffer.getvalue()


def _shared_palette(first: Image.Image, last: Image.Image) -> Image.Image:
    """One palette for every frame, from the first (the felt, face-down cards, chips) and the
    last (the board, the shown hands and their names): together they hold the colours of
    every frame between."""
    both = Image.new("RGB", (first.width, first.height + last.height))
    both.paste(first, (0, 0))
    both.paste(last, (0, first.height))
    return both.quantize(256, method=Image.Quantize.FASTOCTREE)


def encode_still(frame: Frame, *, language: Language = ENGLISH) -> bytes:
    """One frame as a PNG, its words in ``language``: the still image for clients that do not
    animate."""
    image = draw_table(frame.state, frame.face_down, language=language).quantize(
        256, method=Image.Quantize.FASTOCTREE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()
