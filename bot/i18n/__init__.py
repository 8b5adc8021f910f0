"""Everything a person reads, in their language: catalog messages (``Text``) and languages.

Neutral like ``bot.errors``: any layer may build a ``Text``; only front ends render one.
"""

from bot.i18n.languages import ENGLISH, Language, language_for, languages
from bot.i18n.text import Message, Text, tr, tr_c, tr_n

__all__ = ["ENGLISH", "Language", "Message", "Text", "language_for", "languages", "tr", "tr_c",
           "tr_n"]
