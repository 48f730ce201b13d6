"""Grading: an episode's reward (database hash against the gold replay, required outputs,
τ²-style criteria, the NL-assertion judge), the task checks that replay gold actions, and
pass^k over a run's rewards. Above the domain (it replays tools), below the episode loop."""
