"""The rules of No-Limit Texas Hold'em, pure and synchronous: no asyncio, no I/O, no Discord."""
