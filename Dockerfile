FROM python:3.11-slim

# The code's version, as the studies' provenance names it (the image has no git to ask):
# docker build --build-arg DIGSITE_VERSION="$(git describe --always --dirty --tags)" .
ARG DIGSITE_VERSION=unknown
ENV DIGSITE_VERSION=$DIGSITE_VERSION \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DIGSITE_BIND=0.0.0.0:8000

WORKDIR /app
RUN useradd --create-home --uid 10001 digsite
# The dependencies as locked, each file checked against its SHA-256 (requirements.lock: the
# runtime's, with constraints.txt's versions; README "Dependencies" says how to make it again).
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock && mkdir -p var && chown digsite:digsite var
COPY app.py cli.py gunicorn.conf.py healthcheck.py serving.py ./
COPY api ./api
COPY service ./service
COPY scoring ./scoring
COPY studies ./studies
COPY web ./web
# Compiled once here: with PYTHONDONTWRITEBYTECODE (and a user who may not write /app) every
# worker would otherwise compile the app's modules again as it starts, on every restart.
RUN python -m compileall -q app.py cli.py gunicorn.conf.py healthcheck.py serving.py api service \
    scoring studies web
# The SQLite file (DATABASE_URL's default, sqlite:///var/digsite.db) outlives the container
# on a volume; a new named volume starts out owned by digsite, as the directory is here.
VOLUME ["/app/var"]

USER 10001
EXPOSE 8000
# /healthz on the address gunicorn listens on, DIGSITE_BIND (a port set there is asked there)
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "healthcheck.py"]
CMD ["gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"]
