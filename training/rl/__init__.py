"""Self-play reinforcement learning on the vector runner: the networks, the collector of
self-play trajectories with an opponent pool, advantage estimation, checkpoints, and the
trainers (``training.rl.ppo``). Every game of ``envs.registry`` trains with the same code."""
