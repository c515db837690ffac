"""What the store contracts share: refused reads, hostile values, the lifecycle check."""

from __future__ import annotations

from collections.abc import Callable

from ragspine_nb.stores.protocols import StoreHandle

__all__ = ["REFUSED_READS", "HOSTILE_VALUES", "check_handle_lifecycle"]

#: Statements ``execute_read`` refuses on every backend (``{table}``: the store's table).
REFUSED_READS: tuple[str, ...] = (
    "DELETE FROM {table}", "UPDATE {table} SET source_locator = 'x'",
    "INSERT INTO {table} (source_locator) VALUES ('x')", "DROP TABLE {table}",
    "CREATE TABLE pwned (x INTEGER)", "ALTER TABLE {table} ADD COLUMN pwned INTEGER",
    "SELECT 1; DELETE FROM {table}", "WITH d AS (SELECT 1) DELETE FROM {table}",
)
#: Values that must stay data when bound as parameters.
HOSTILE_VALUES: tuple[str, ...] = ("x' OR '1'='1", "'; DROP TABLE fact_metric; --",
                                   "REVENUE' --", "%", "_")


def check_handle_lifecycle(store: StoreHandle, rows: Callable[[], object]) -> None:
    """Assert ``close`` is idempotent, the next use reopens and ``with`` gives the store.

    Parameters
    ----------
    store : StoreHandle
        A store holding data (a file or a server keeps it across ``close``).
    rows : callable
        Reads the store's content; compared before and after closing.
    """
    before = rows()
    store.close()
    store.close()
    again = rows()
    assert again == before or store.path == ":memory:", "data lost by close()"
    with store as entered:
        assert entered is store
    store.close()
    assert rows() == again
