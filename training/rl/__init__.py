"""Self-play reinforcement learning on the vector runner; every game of ``mazzo.envs.registry``
trains with the same code. The trainers, each one file read top to bottom: ``ppo`` and ``dmc``, on
the run object of ``run`` (opening or resuming a run, its rollouts, logging, evaluation,
checkpoints, the clean stop). The machinery they share: ``collect`` (self-play rollouts and
their advantages), ``actors`` (collectors in worker processes), ``opponents`` (the opponent
pool), ``imitation`` (behaviour cloning of expert agents). The edges: ``config`` (the configs
and their TOML files), ``checkpoint`` (the files of a checkpoint), ``evaluate`` (the arena's
margin of a policy), ``progress`` (the terminal's bar) and ``ship`` (a trained bot's folder)."""
