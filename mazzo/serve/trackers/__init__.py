"""Seat trackers: one seat's exact ``InfoView`` rebuilt from what the seat is told (its cards,
the public actions, the reveals it is owed), which the seat sessions of ``mazzo serve``
(``mazzo.serve.seat``) hand to a bot. ``seat_tracker`` holds the game-free machinery,
``registry`` finds a game's tracker, and ``<game>.py`` is each game's tracker (``TRACKER``).

Must not import torch or training/.
"""
