"""A tiny library-loans domain, registered in-process by the tests (never installed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlmodel import JSON, Column, Field, SQLModel

from tautrait_core import Domain, EpisodeDB, Task, TaskSet, hookimpl, tool
from tautrait_core.domain.common_tools import calculate, think


class Member(SQLModel, table=True):
    __tablename__ = "toylib_members"

    member_id: str = Field(primary_key=True)
    name: str
    email: str = Field(index=True)
    loans: list[str] = Field(default_factory=list, sa_column=Column(JSON))


class Book(SQLModel, table=True):
    __tablename__ = "toylib_books"

    book_id: str = Field(primary_key=True)
    title: str
    available: bool = True
    details: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON))


@tool
def find_member(db: EpisodeDB, email: str) -> str:
    """Find a member's id from their email address.

    Args:
        email: The member's email address.
    """
    from sqlmodel import select

    member = db.exec(select(Member).where(Member.email == email.lower())).first()
    return member.member_id if member else "Error: member not found"


@tool
def get_book(db: EpisodeDB, book_id: str) -> str:
    """Show a book's title, availability and shelf.

    Args:
        book_id: The book id, such as 'B1'.
    """
    book = db.get(Book, book_id)
    if book is None:
        return "Error: book not found"
    return book.model_dump_json()


@tool
def borrow_book(db: EpisodeDB, member_id: str, book_id: str, days: int = 14) -> str:
    """Lend a book to a member.

    Args:
        member_id: The member's id.
        book_id: The book to lend.
        days: Loan length in days.
    """
    member, book = db.get(Member, member_id), db.get(Book, book_id)
    if member is None or book is None:
        return "Error: member or book not found"
    if not book.available:
        return "Error: book is already on loan"
    book.available = False
    book.details["due_in_days"] = days
    member.loans.append(book_id)
    return f"{book.title} lent to {member.name} for {days} days"


@tool
def explode(db: EpisodeDB, book_id: str) -> str:
    """Mark a book damaged, then fail (for error-handling tests).

    Args:
        book_id: The book.
    """
    book = db.get(Book, book_id)
    book.details["damaged"] = True  # type: ignore[union-attr]
    raise RuntimeError("shelf collapsed")


@tool
def transfer_to_librarian(db: EpisodeDB, summary: str) -> str:
    """Hand the conversation to a human librarian; ends the conversation.

    Args:
        summary: What the member needs.
    """
    return "Transferred"


def seed_rows() -> list[SQLModel]:
    return [
        Member(member_id="ann_1", name="Ann Lee", email="ann@example.org"),
        Member(member_id="bo_2", name="Bo Chan", email="bo@example.org", loans=["B3"]),
        Book(book_id="B1", title="Dune", details={"shelf": "SF-1"}),
        Book(book_id="B2", title="Emma", details={"shelf": "CL-4"}),
        Book(book_id="B3", title="Ulysses", available=False, details={"shelf": "CL-9"}),
    ]


TASKS = [
    Task(
        user_id="ann_1",
        instruction="You are Ann Lee (ann@example.org). Borrow Dune (B1) for 7 days.",
        actions=[
            {"name": "find_member", "kwargs": {"email": "ann@example.org"}},
            {"name": "borrow_book", "kwargs": {"member_id": "ann_1", "book_id": "B1", "days": 7}},
        ],
    ),
    Task(
        user_id="bo_2",
        instruction="You are Bo Chan. Ask which shelf Emma (B2) is on.",
        actions=[{"name": "get_book", "kwargs": {"book_id": "B2"}}],
        outputs=["CL-4"],
    ),
    Task(
        user_id="ann_1",
        instruction="You are Ann Lee. Borrow Emma (B2), then ask for a librarian.",
        actions=[
            {"name": "borrow_book", "kwargs": {"member_id": "ann_1", "book_id": "B2"}},
            {"name": "transfer_to_librarian", "kwargs": {"summary": "wants a librarian"}},
        ],
    ),
]


DEFECTIVE_TASKS = [
    Task(
        user_id="ghost_9",
        instruction="A user who does not exist.",
        actions=[
            {"name": "teleport", "kwargs": {}},
            {"name": "get_book", "kwargs": {"id": "B1"}},
            {"name": "borrow_book", "kwargs": {"member_id": "ann_1", "book_id": "B3"}},
            {"name": "get_book", "kwargs": {"book_id": "B1"}},
        ],
        outputs=["Dune", "Narnia"],
    ),
    TASKS[0],
]


def build_domain() -> Domain:
    return Domain(
        name="toylib",
        policy="You are a library assistant. Identify the member by email before lending.",
        tables=[Member, Book],
        seed_data=seed_rows,
        tools=[
            find_member,
            get_book,
            borrow_book,
            explode,
            calculate,
            think,
            transfer_to_librarian,
        ],
        task_sets={
            "test": TaskSet(name="test", load_tasks=lambda: TASKS, description="toy tasks"),
            "defective": TaskSet(name="defective", load_tasks=lambda: DEFECTIVE_TASKS),
        },
        terminating_tools=["transfer_to_librarian"],
        user_table=Member,
        write_tools=["borrow_book", "explode"],
        description="toy library (tests only)",
    )


@hookimpl
def register_domains(register: Any) -> None:
    register(build_domain())


PLUGIN_FILE = Path(__file__)
