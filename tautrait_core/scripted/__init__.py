"""The scripted model server: an OpenAI-compatible server on loopback that plays whole
episodes (agent, user, judge) from each task's gold, so model-backed runs work offline
(``tautrait serve-scripted``, the tests, the benchmarks). Above analysis, whose judge
prompts it answers; below the CLI and the testing package that re-export it."""
