"""gunicorn settings shared by `make run`, the tests and the container.

DIGSITE_BIND and DIGSITE_WORKERS override the defaults (127.0.0.1:8000, 2 workers)."""

import os

bind = os.environ.get("DIGSITE_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("DIGSITE_WORKERS", "2"))
# Evented: every connection is a greenlet, so a slow sender, an idle keep-alive connection or a
# long-held request waits without holding up the worker (a sync worker serves one connection at a
# time: two slow clients stopped the service, issue 14). psycopg 3 waits cooperatively under it.
worker_class = "gevent"
worker_connections = 1000
# An idle keep-alive connection is closed after this long, and so is one whose request headers
# have not all arrived (the gevent worker bounds reading them by it): a slow client holds a
# connection for seconds, not for ever.
keepalive = 5
# A worker whose event loop has not come round for this long is stuck: it is replaced.
timeout = 30
# On SIGTERM, what is being served gets this long to finish: under `docker stop`'s 10 s.
graceful_timeout = 8
# gunicorn 25+ opens a control socket by default (under $HOME or $XDG_RUNTIME_DIR); nothing here
# uses it, and it would be one more way in.
control_socket_disable = True
accesslog = os.environ.get("DIGSITE_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("DIGSITE_LOG_LEVEL", "info")
