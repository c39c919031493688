"""``mazzo serve``: the bot protocol ``mazzo-bot/1`` (``docs/protocol.md``) over stdio and
WebSocket. ``protocol`` parses and checks messages, ``bots`` holds the server's bots,
``sessions`` the session modes, ``table`` the refereed table sessions, ``views`` the VIEW
objects, ``server`` the transport-agnostic ``Server``, ``stdio`` and ``web`` the transports.
"""
