"""The Discord front end: the client and its command tree, cogs, views, the live table
message and the notifier that shows the table runtime's events in channels and DMs."""
