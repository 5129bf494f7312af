"""Alembic's environment for the room store: run by latency.room.store.Store.migrate() on the
connection it passes in `config.attributes["connection"]` (never from a command line or an ini file)."""

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
