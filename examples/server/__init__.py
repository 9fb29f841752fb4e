"""The reference game server: FastAPI + websockets over uvicorn, SQLite persistence.

Start it with ``python examples/server/serve.py --db tables.sqlite --port 8000`` (see
``examples/server/README.md``); build the app in code with
:func:`examples.server.app.create_app`."""
