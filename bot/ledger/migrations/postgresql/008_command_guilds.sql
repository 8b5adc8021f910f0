-- As sqlite/008: the servers that hold a copy of the bot's slash commands.

CREATE TABLE command_guilds (
    guild_id BIGINT PRIMARY KEY
);
