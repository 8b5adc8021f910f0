"""Slash commands, one cog per file; each file ends in ``async def setup(bot)``."""

EXTENSIONS = (
    "bot.discord_ui.cogs.table",
    "bot.discord_ui.cogs.actions",
    "bot.discord_ui.cogs.account",
    "bot.discord_ui.cogs.admin",
    "bot.discord_ui.cogs.tournament",
    "bot.discord_ui.cogs.help",
)
"""The cogs the application loads, by module name: every slash command the bot has."""
