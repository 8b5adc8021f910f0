-- The servers that hold a copy of the bot's slash commands (DEV_GUILD_ID syncs them to one
-- server), so that once the bot syncs elsewhere it clears those copies, which would otherwise
-- show every command twice there. Discord cannot list them: it answers server by server.

CREATE TABLE command_guilds (
    guild_id INTEGER PRIMARY KEY
);
