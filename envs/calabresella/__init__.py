"""Calabresella: the pure rules engine (``rules``, ``scoring``, ``match``, ``view``, ``record``),
its encoder (``encode``) and the PettingZoo face (``env``, exported as ``envs.calabresella_v0``)."""
