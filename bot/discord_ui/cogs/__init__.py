"""Slash commands, one cog per file; each file ends in ``async def setup(bot)``."""
