"""The words of the pages: catalog messages the templates show as ``t(w.NAME)``.

Templates hold no English of their own: every word is a message here (or built with its
values by the route), so the catalog tools find it and each page reads in English, 简体 or
繁體 like the bot's messages.
"""

from __future__ import annotations

from bot.i18n import tr

SITE_INTRO = tr("Tables, hands, leaderboards and players of the Discord servers this bot "
                "plays in. In a server, /web gives the link to its page.")
LOG_IN = tr("Log in with Discord")
LOG_OUT = tr("Log out")
LANGUAGE = tr("Language")
BACK_HOME = tr("Home")
SERVER = tr("Server")
OPEN_TABLES = tr("Open tables")
NO_OPEN_TABLES = tr("No table is open now.")
WATCH = tr("Watch")
TOURNAMENTS = tr("Tournaments")
NO_TOURNAMENTS = tr("No tournament is registering or running.")
RECENT_TOURNAMENTS = tr("Recent tournaments")
LEADERBOARDS = tr("Leaderboards")
NOBODY = tr("Nobody on this page yet.")
PREVIOUS_PAGE = tr("Previous page")
NEXT_PAGE = tr("Next page")
RECENT_HANDS = tr("Recent hands")
NO_HANDS = tr("No finished hand yet.")
HAND = tr("Hand")
NET = tr("Net")
HISTORY = tr("History")
REPLAY = tr("Replay")
PREVIOUS = tr("Previous")
NEXT = tr("Next")
STEP_HINT = tr("Step with the buttons or the ← → arrow keys.")
NO_REPLAY = tr("This hand has no replay: it was played before replays were recorded, or its "
               "details were pruned.")
POT = tr("Pot")
STRUCTURE = tr("Structure")
ENTRANTS = tr("Entrants")
PLACES = tr("Places and prizes")
TABLES = tr("Tables")
BUY_IN = tr("Buy-in")
PRIZE_POOL = tr("Prize pool")
STATUS = tr("Status")
STATUSES = {"registering": tr("registering"), "running": tr("running"),
            "finished": tr("finished"), "cancelled": tr("cancelled")}
"""A tournament's status as its page says it."""
