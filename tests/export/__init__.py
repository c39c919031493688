"""Tests of what exported bots and their front ends rely on."""
