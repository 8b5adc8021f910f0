"""Images for the Discord front end: the public table and a player's own cards (Pillow)."""

from bot.render.cards_image import render_cards
from bot.render.table_image import render_table, table_image_key

__all__ = ["render_cards", "render_table", "table_image_key"]
