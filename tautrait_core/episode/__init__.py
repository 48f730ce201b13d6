"""One episode: its context, the agent/user/trait-backend interfaces, the loop and its result."""
