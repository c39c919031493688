"""The ``mazzo`` application: the command line (``mazzo.cli``, one module per command in
``mazzo.commands``), terminal play (``mazzo.play``), and the bot server with its seat trackers
and web table (``mazzo.serve``).

It sits on top of every other package (``mazzo.envs``, ``mazzo.agents``, ``mazzo.arena``,
``mazzo.training``, linked in from the repository's top-level folders) and nothing imports it.
"""
