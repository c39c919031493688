"""Shared environment-layer code of mazzo (numpy and PettingZoo level): bit blocks to arrays,
the AEC base both card games use, and the illegal-move wrapper.

The pure, stdlib-only card core lives in ``mazzo.envs.cards``; this package is the layer above it.
"""
