"""The built-in agents, users and prompt traits, registered like any plugin."""
