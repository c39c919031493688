"""Calabresella: the pure rules engine (``rules`` the flags, ``state`` the deal, ``scoring``,
``match``, ``view``, ``record``), its encoder (``encode``) and the PettingZoo face (``env``,
exported as ``mazzo.envs.calabresella_v0``)."""
