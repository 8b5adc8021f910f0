"""The web companion: pages and live streams of a server's tables, hands, leaderboards and
players, read from the same ledger (and, for live tables, the bot process's runtime)."""
