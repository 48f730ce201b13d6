"""Whole-copy images of an episode database: taken after a set-up, loaded into a fresh copy.

A task's initial state (:mod:`tautrait_core.domain.initial_state`) is the same set-up every
time: the run, the grader's predicted and gold environments and every later trial apply it
to a fresh copy of one template. :meth:`EpisodeImageAccess.take_image` serializes a copy
once it is set up (the change log included, so hashes stay relative to the template), and
:meth:`EpisodeImageAccess.load_image` puts that content into another, untouched copy of the
same template in one memory copy. A copy's serialized content is what it committed, so
taking an image commits the set-up on that copy; a copy whose content was committed or
loaded gets the template's content back when its episode ends, so it can be reused like
any other.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tautrait_core.domain.state import EpisodeDB

CHANGE_LOG = "_tautrait_changed"
"""The table the change-log triggers write (table name, primary key) into."""
ANY_CHANGE = f'SELECT 1 FROM "{CHANGE_LOG}" LIMIT 1'


class EpisodeImageAccess:
    """The image methods of :class:`~tautrait_core.domain.state.EpisodeDB`."""

    _sqlite: sqlite3.Connection
    _content_replaced: bool = False

    def is_untouched(self: EpisodeDB) -> bool:
        """Whether the copy still holds exactly its template's rows and the session holds
        no row object (nothing written, nothing loaded through the ORM)."""
        return (
            not self.identity_map
            and not self._new
            and not self._deleted
            and not self._sqlite.in_transaction
            and self._sqlite.execute(ANY_CHANGE).fetchone() is None
        )

    def take_image(self: EpisodeDB) -> bytes:
        """The copy's content now, pending changes written and committed first, as an
        SQLite image (the episode goes on from that content)."""
        self.flush()
        if self._sqlite.in_transaction:
            self._sqlite.commit()
        self._content_replaced = True
        return self._sqlite.serialize()

    def load_image(self: EpisodeDB, image: bytes) -> None:
        """Replace the content of this untouched copy with ``image``, taken by
        :meth:`take_image` from a copy of the same template.

        Raises:
            ValueError: the copy was already read into the session or written.
        """
        if not self.is_untouched():
            raise ValueError("an image can be loaded only into an untouched episode copy")
        self._sqlite.deserialize(image)
        self._content_replaced = True

    def _restore_template_content(self: EpisodeDB) -> None:
        """Give a copy that was loaded or committed its template's content back (before
        the pool keeps it)."""
        if self._content_replaced:
            if self._sqlite.in_transaction:
                self._sqlite.rollback()
            self._sqlite.deserialize(self.template.image)
            self._content_replaced = False
