"""The table runtime: one table per channel, run by asyncio, knowing nothing of Discord.

Front ends drive it through ``TableManager`` and see it through the ``Notifier`` they pass in.
"""
