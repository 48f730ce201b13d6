"""Handing the conversation to people."""

from __future__ import annotations

from tautrait_core import EpisodeDB, tool


@tool
def transfer_to_human_support(db: EpisodeDB, reason: str) -> str:
    """Hand the patient over to a human support representative; the conversation ends
    here. Use it for platform or technical problems, requests the other tools cannot
    handle, or when the patient insists on a person.

    Args:
        reason: Why the patient is being transferred, in a sentence, for the representative.
    """
    return "\n".join(
        [
            "Transferring you to a human support representative.",
            "",
            f"Reason for transfer: {reason}",
            "",
            "Please hold while we connect you to a member of our support team. "
            "They will be able to assist you with your request.",
            "",
            "Estimated wait time: 2-3 minutes.",
            "",
            "Thank you for your patience.",
        ]
    )
