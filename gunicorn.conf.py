"""gunicorn settings shared by `make run`, the tests and the container.

DIGSITE_BIND and DIGSITE_WORKERS override the defaults (127.0.0.1:8000, 2 workers)."""

import os

bind = os.environ.get("DIGSITE_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("DIGSITE_WORKERS", "2"))
worker_class = "sync"
timeout = 30
graceful_timeout = 10
accesslog = os.environ.get("DIGSITE_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("DIGSITE_LOG_LEVEL", "info")
