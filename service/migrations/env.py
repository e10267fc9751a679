"""How Alembic reaches the database: through the connection service/migrate.py hands it, inside
the transaction (and the lock) it holds, or, offline, as SQL for the URL it is given."""

from alembic import context

config = context.config

if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), literal_binds=True)
else:
    context.configure(connection=config.attributes["connection"])

with context.begin_transaction():  # joins the caller's transaction when there is one
    context.run_migrations()
