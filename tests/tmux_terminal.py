"""A command in a real terminal: tmux runs it in an 80x24 window on a private server,
``send-keys`` types, ``capture-pane`` reads the screen."""

from __future__ import annotations

import subprocess
import time

import pytest

WAIT_S = 60.0


class Terminal:
    """A command in a detached 80x24 tmux session on a private tmux server."""

    def __init__(self, command: str, socket: str) -> None:
        self.socket = socket
        self.tmux("new-session", "-d", "-s", "view", "-x", "80", "-y", "24", command)

    def tmux(self, *arguments: str) -> str:
        """Run a tmux command on this terminal's server; its output."""
        done = subprocess.run(
            ["tmux", "-L", self.socket, *arguments], capture_output=True, text=True, check=True
        )
        return done.stdout

    def screen(self) -> str:
        """The 24 lines on the screen now."""
        return self.tmux("capture-pane", "-p", "-t", "view")

    def type(self, answer: str) -> None:
        """Type ``answer`` and Enter."""
        self.tmux("send-keys", "-t", "view", "-l", answer)
        self.tmux("send-keys", "-t", "view", "Enter")

    def wait_for(self, *texts: str) -> str:
        """The screen, once it shows every one of ``texts`` (fails after a minute)."""
        deadline = time.monotonic() + WAIT_S
        while True:
            screen = self.screen()
            if all(text in screen for text in texts):
                return screen
            if time.monotonic() > deadline:
                pytest.fail(f"never shown: {texts}; the screen:\n{screen}")
            time.sleep(0.2)

    def close(self) -> None:
        """Stop the tmux server (and the command in it)."""
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
