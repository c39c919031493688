"""The ``mazzo`` application: the command line (``mazzo.cli`` and one module per command),
terminal play (``mazzo.play``), and the bot server with its web table (``mazzo.serve``).

It sits on top of every other package (``envs``, ``agents``, ``training``) and nothing imports
it.
"""
