"""deploy/: each proxy's configuration passes the proxy's own check and, started for real on
loopback in front of two gunicorn replicas, serves HTTPS with HSTS, redirects plain HTTP,
streams events as they come, spreads requests over both replicas (sending a POST on to the other
while one is stopped) and hands the app the client's address; compose.yaml holds the services
deploy/README.md describes; and the app believes forwarded headers only from as many proxies as
DIGSITE_TRUSTED_PROXIES counts."""

import http.client
import io
import json
import os
import re
import runpy
import signal
import socket
import ssl
import subprocess
import threading
import time
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path

import pytest
import yaml
from flask import request

from api.errors import MAX_BODY_BYTES
from app import create_app
from scoring.games import GAMES
from service.store import DEFAULT_URL
from serving import TYPES
from tests.server import ENDS_WITH_ITS_TEST, ROOT, Server, free_port, refused_at_start, serve

DEPLOY = ROOT / "deploy"
CADDY = "/usr/bin/caddy"
NGINX = "/usr/sbin/nginx"
HSTS = "max-age=63072000; includeSubDomains"
# A second loopback address for the client, so that the address the proxy forwards (the
# client's) differs from the one the app's socket sees (the proxy's, 127.0.0.1).
CLIENT = "127.0.0.2"
SPOOFED = "203.0.113.7"


def program(path: str) -> str:
    assert os.access(path, os.X_OK), f"{path} is missing: `make test` installs it"
    return path


def substitute(text: str, old: str, new: str, name: str = "nginx.conf") -> str:
    """`text` with `old` replaced, failing loudly once deploy/'s file no longer holds `old`."""
    assert old in text, f"deploy/{name} no longer holds {old!r}"
    return text.replace(old, new)


# The proxies, started for real on loopback


@dataclass
class Proxy:
    https: int
    http: int
    tls: ssl.SSLContext


def wait_for_tls(port: int, cafile: Path, process: subprocess.Popen, log: Path) -> ssl.SSLContext:
    """A context that verifies the proxy's certificate against `cafile`, once the proxy
    completes a handshake with it (`cafile` may not exist yet)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the proxy exited:\n{log.read_text()}")
        try:
            context = ssl.create_default_context(cafile=cafile)
            with socket.create_connection(("127.0.0.1", port), timeout=1) as raw:
                with context.wrap_socket(raw, server_hostname="127.0.0.1"):
                    return context
        except (OSError, ssl.SSLError):
            time.sleep(0.1)
    raise RuntimeError(f"the proxy did not serve TLS in time:\n{log.read_text()}")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def caddy_env(home: Path, domain: str, upstreams: list[str] | None = None) -> dict[str, str]:
    """The variables compose gives Caddy, and its state (its CA, certificates, autosaved
    config) under `home`: nothing written elsewhere."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
           "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
           "DIGSITE_DOMAIN": domain, "DIGSITE_ACME_EMAIL": "ops@example.org"}
    if upstreams:
        env["DIGSITE_UPSTREAMS"] = " ".join(upstreams)
    return env


def caddyfile_on_loopback(home: Path, http_port: int, https_port: int,
                          health_interval: str | None = None) -> Path:
    """deploy/Caddyfile with global options that keep it off the internet and on free loopback
    ports: its own CA instead of ACME, nothing installed in the system's trust store, no admin
    endpoint. The site block is served exactly as deployed."""
    text = (DEPLOY / "Caddyfile").read_text()
    assert text.count("\n{\n") == 1, "the Caddyfile's global options block starts a line"
    options = (f"\tlocal_certs\n\tskip_install_trust\n\tadmin off\n\tdefault_bind 127.0.0.1\n"
               f"\thttp_port {http_port}\n\thttps_port {https_port}\n")
    # An event stream whose client is gone holds Caddy's shutdown for the whole grace period.
    text = substitute(text, "grace_period 8s", "grace_period 1s", "Caddyfile")
    if health_interval is not None:  # what the health check decides shows sooner
        text = substitute(text, "health_interval 10s", f"health_interval {health_interval}",
                          "Caddyfile")
    path = home / "Caddyfile"
    path.write_text(text.replace("\n{\n", "\n{\n" + options))
    return path


@contextmanager
def caddy(home: Path, upstreams: list[str], health_interval: str | None = None
          ) -> Iterator[Proxy]:
    http_port, https_port = free_port(), free_port()
    config = caddyfile_on_loopback(home, http_port, https_port, health_interval)
    log = home / "caddy.log"
    command = [program(CADDY), "run", "--config", str(config), "--adapter", "caddyfile"]
    with log.open("wb") as out:
        process = subprocess.Popen([*ENDS_WITH_ITS_TEST, *command], cwd=home,
                                   env=caddy_env(home, "127.0.0.1", upstreams),
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        # Certificates are checked against the root of Caddy's own CA, made as it starts.
        root = home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        yield Proxy(https_port, http_port, wait_for_tls(https_port, root, process, log))
    finally:
        stop(process)


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def nginx_conf_in(prefix: Path, cert: Path, key: Path, ports: tuple[int, int] = (80, 443),
                  upstreams: list[str] | None = None, per_address: int | None = None) -> Path:
    """deploy/nginx.conf with its paths (certificate, logs, temporary files) under `prefix`, and,
    when given, loopback ports, upstream servers and a per-address limit of requests under way
    in place of the deployed ones."""
    text = (DEPLOY / "nginx.conf").read_text()
    if per_address is not None:
        text = substitute(text, "limit_conn per_address 256;",
                          f"limit_conn per_address {per_address};")
    name = "/etc/letsencrypt/live/digsite.example.org"
    text = substitute(text, f"{name}/fullchain.pem", str(cert))
    text = substitute(text, f"{name}/privkey.pem", str(key))
    text = substitute(text, "/var/log/nginx/digsite.access.log", str(prefix / "access.log"))
    temporary = "".join(f"    {kind}_temp_path {prefix / kind};\n"
                        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    text = substitute(text, "\nhttp {\n", "\nhttp {\n" + temporary)
    http_port, https_port = ports
    if (http_port, https_port) != (80, 443):
        text = substitute(text, "listen 80;", f"listen 127.0.0.1:{http_port};")
        text = substitute(text, "listen 443 ssl http2;",
                          f"listen 127.0.0.1:{https_port} ssl http2;")
        text = substitute(text, "        listen [::]:80;\n", "")
        text = substitute(text, "        listen [::]:443 ssl http2;\n", "")
    if upstreams:
        for deployed, upstream in zip(("127.0.0.1:8001", "127.0.0.1:8002"), upstreams,
                                      strict=True):
            text = substitute(text, f"server {deployed} ", f"server {upstream} ")
    path = prefix / "nginx.conf"
    path.write_text(text)
    return path


def nginx_command(prefix: Path, config: Path) -> list[str]:
    return [program(NGINX), "-p", str(prefix), "-c", str(config), "-e", str(prefix / "error.log"),
            "-g", f"pid {prefix / 'nginx.pid'}; error_log {prefix / 'error.log'};"]


def nginx_prefix(tmp_path: Path) -> Path:
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    # The workers run as www-data and keep their temporary files under the prefix.
    for directory in (tmp_path, prefix):
        directory.chmod(0o755)
    return prefix


@contextmanager
def nginx(tmp_path: Path, upstreams: list[str], per_address: int | None = None
          ) -> Iterator[Proxy]:
    prefix = nginx_prefix(tmp_path)
    cert, key = self_signed_certificate(prefix)
    http_port, https_port = free_port(), free_port()
    config = nginx_conf_in(prefix, cert, key, (http_port, https_port), upstreams, per_address)
    command = nginx_command(prefix, config)
    command[-1] += " daemon off;"
    log = prefix / "error.log"
    process = subprocess.Popen([*ENDS_WITH_ITS_TEST, *command], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        yield Proxy(https_port, http_port, wait_for_tls(https_port, cert, process, log))
    finally:
        stop(process)


# Speaking to the proxies


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self):
        return json.loads(self.body)


def connect(proxy: Proxy, source: str = "127.0.0.1") -> http.client.HTTPSConnection:
    return http.client.HTTPSConnection("127.0.0.1", proxy.https, context=proxy.tls, timeout=5,
                                       source_address=(source, 0))


def fetch(proxy: Proxy, method: str, path: str, body=None, headers: dict | None = None,
          source: str = "127.0.0.1") -> Answer:
    headers = dict(headers or {})
    if body is not None and not isinstance(body, bytes):
        body = json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    connection = connect(proxy, source)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        connection.close()


def access_log_line(logs: list[Path], probe: str) -> str:
    """The line gunicorn logged for the request whose query was `probe`, in whichever of `logs`
    it is. gunicorn writes the environ's REMOTE_ADDR as the app left it (ProxyFix rewrites it in
    place), so the line starts with the client's address as the app saw it."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        for log in logs:
            for line in log.read_text().splitlines():
                if probe in line:
                    return line
        time.sleep(0.05)
    raise AssertionError(f"no request with {probe} in {logs}")


@dataclass
class Replica:
    url: str
    address: str
    access_log: Path


@pytest.fixture(scope="module")
def replicas(tmp_path_factory) -> Iterator[list[Replica]]:
    """Two gunicorn servers on one SQLite file, as deploy/ runs two app replicas: each behind one
    proxy (DIGSITE_TRUSTED_PROXIES=1), logging every request."""
    directory = tmp_path_factory.mktemp("replicas")
    logs = [directory / f"access-{number}.log" for number in (1, 2)]
    servers = [Server({"DATABASE_URL": f"sqlite:///{directory / 'digsite.db'}",
                       "DIGSITE_TRUSTED_PROXIES": "1", "DIGSITE_ACCESS_LOG": str(log)},
                      workers=1)
               for log in logs]
    # Side by side: each takes seconds to start.
    with ThreadPoolExecutor(len(servers)) as pool:
        try:
            list(pool.map(Server.start, servers))
            yield [Replica(server.url, server.url.removeprefix("http://"), log)
                   for server, log in zip(servers, logs, strict=True)]
        finally:
            list(pool.map(Server.stop, servers))


@pytest.fixture(params=["caddy", "nginx"], scope="module")
def proxy(request, replicas, tmp_path_factory) -> Iterator[Proxy]:
    home = tmp_path_factory.mktemp(request.param)
    start = caddy if request.param == "caddy" else nginx
    with start(home, [replica.address for replica in replicas]) as running:
        yield running


# Through the proxies


def test_health_is_served_over_https_with_hsts(proxy):
    answer = fetch(proxy, "GET", "/healthz")
    assert answer.status == 200 and answer.json() == {"status": "ok"}
    assert answer.headers["Strict-Transport-Security"] == HSTS


def test_an_answer_names_one_server(proxy):
    # Caddy passed the replica's "Server: gunicorn" on beside its own "Server: Caddy".
    for path in ("/healthz", "/api/v1/games", "/"):
        assert len(fetch(proxy, "GET", path).headers.get_all("Server") or []) <= 1, path


def test_plain_http_is_redirected_to_https(proxy):
    connection = http.client.HTTPConnection("127.0.0.1", proxy.http, timeout=5)
    try:
        connection.request("GET", "/healthz?from=http")
        response = connection.getresponse()
        assert response.status in (301, 308)
        assert response.headers["Location"].startswith("https://127.0.0.1")
        assert response.headers["Location"].endswith("/healthz?from=http")
    finally:
        connection.close()


def test_requests_are_spread_over_both_replicas(proxy, replicas):
    probes = [f"spread={uuid.uuid4().hex}" for _ in range(6)]
    for probe in probes:
        assert fetch(proxy, "GET", f"/healthz?{probe}").status == 200
    served = [sum(probe in replica.access_log.read_text() for probe in probes)
              for replica in replicas]
    deadline = time.monotonic() + 5
    while sum(served) < len(probes) and time.monotonic() < deadline:
        time.sleep(0.05)
        served = [sum(probe in replica.access_log.read_text() for probe in probes)
                  for replica in replicas]
    assert sum(served) == len(probes) and all(served), served


def test_the_app_sees_the_client_address_the_proxy_sent_not_a_spoofed_one(proxy, replicas):
    probe = f"address={uuid.uuid4().hex}"
    answer = fetch(proxy, "GET", f"/healthz?{probe}", headers={"X-Forwarded-For": SPOOFED},
                   source=CLIENT)
    assert answer.status == 200
    assert access_log_line([replica.access_log for replica in replicas], probe).split()[0] \
        == CLIENT


def open_match(proxy: Proxy) -> tuple[str, dict[int, str], dict]:
    """A match of the registry's first game, its seats' tokens and the view of the seat to act."""
    game = next(iter(GAMES.values()))
    low = game.box.VARIANTS[game.box.DEFAULT_VARIANT]["players"][0]
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"][:max(low, 2)]
    created = fetch(proxy, "POST", f"/api/v1/games/{game.id}/matches",
                    {"players": names, "seed": 7})
    assert created.status == 201, created.body
    match = created.json()
    tokens = {seat["seat"]: seat["token"] for seat in match["seats"]}
    seat = match["view"]["to_act"][0]
    view = fetch(proxy, "GET", f"/api/v1/matches/{match['id']}",
                 headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
    return match["id"], tokens, view


def test_an_event_stream_delivers_each_entry_as_it_happens(proxy):
    match_id, tokens, view = open_match(proxy)
    stream = connect(proxy)
    try:
        stream.request("GET", f"/api/v1/matches/{match_id}/events")
        events = stream.getresponse()
        assert events.status == 200
        assert events.headers["Content-Type"].startswith("text/event-stream")
        # The stream opens with its retry advice while the log is still empty: a proxy that
        # buffered would hold it back.
        assert events.readline() == b"retry: 2000\n"
        seat = view["you"]
        acted = fetch(proxy, "POST", f"/api/v1/matches/{match_id}/actions",
                      {"action": view["legal_actions"][0], "version": view["version"]},
                      headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert acted.status == 200, acted.body
        sent = time.monotonic()
        lines = []
        while not any(line.startswith(b"data: ") for line in lines):
            lines.append(events.readline())  # the socket's 5 s timeout bounds each wait
        assert time.monotonic() - sent < 2, "the entry came late: the proxy buffered it"
        assert b"event: entry\n" in lines
    finally:
        stream.close()


def test_a_body_over_64_kib_is_refused_as_the_app_refuses_it(proxy):
    game = next(iter(GAMES.values()))
    body = json.dumps({"padding": "x" * MAX_BODY_BYTES}).encode()
    answer = fetch(proxy, "POST", f"/api/v1/games/{game.id}/score", body,
                   headers={"Content-Type": "application/json"})
    assert answer.status == 413
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert answer.json()["status"] == 413


def test_with_the_database_away_caddy_keeps_serving_what_needs_none(tmp_path):
    """Caddy's health check read /readyz: with the database away both replicas were unready,
    both left rotation, and the phone page, the calculators and /healthz answered 503 (after
    5 s of waiting, with no Retry-After) though none of them reads the database."""
    away = f"postgresql://digsite@127.0.0.1:{free_port()}/digsite"  # nothing listens there
    servers = [Server({"DATABASE_URL": away, "DIGSITE_TRUSTED_PROXIES": "1"}, workers=1)
               for _ in range(2)]
    with ThreadPoolExecutor(len(servers)) as pool:
        try:
            list(pool.map(Server.start, servers))
            with caddy(tmp_path, [s.url.removeprefix("http://") for s in servers],
                       health_interval="1s") as proxy:
                time.sleep(2.5)  # the health check has read each replica twice
                assert fetch(proxy, "GET", "/healthz").status == 200
                assert fetch(proxy, "GET", "/").status == 200
                scored = fetch(proxy, "POST", "/api/v1/games/dig/score", {
                    "bowls": ["green", "yellow", "purple", "blue", "red"],
                    "players": [{"name": "Ann", "dropped": {"green": 1}}]})
                assert scored.status == 200, scored.body
                # what needs the database is answered by the app: why, and when to try again
                view = fetch(proxy, "GET", f"/api/v1/matches/{uuid.uuid4().hex}")
                assert view.status == 503 and view.headers["Retry-After"]
                assert view.json()["type"] == "/problems/database-unavailable"
                assert fetch(proxy, "GET", "/readyz").status == 503
        finally:
            list(pool.map(Server.stop, servers))


# The configurations as deployed


def test_caddy_validates_the_deployed_caddyfile(tmp_path):
    check = subprocess.run([program(CADDY), "validate", "--config", str(DEPLOY / "Caddyfile"),
                            "--adapter", "caddyfile"], cwd=tmp_path, capture_output=True,
                           text=True, env=caddy_env(tmp_path, "digsite.example.org"))
    assert check.returncode == 0, check.stderr
    assert "Valid configuration" in check.stdout + check.stderr


def test_nginx_accepts_the_deployed_config(tmp_path):
    prefix = nginx_prefix(tmp_path)
    cert, key = self_signed_certificate(prefix)
    config = nginx_conf_in(prefix, cert, key)
    check = subprocess.run([*nginx_command(prefix, config), "-t"], capture_output=True,
                           text=True)
    assert check.returncode == 0, check.stderr
    assert "test is successful" in check.stderr


def test_both_proxies_pass_event_streams_on_unbuffered():
    """Caddy flushes text/event-stream on its own and the app asks nginx not to buffer its
    streams (X-Accel-Buffering): the configurations do not lean on either."""
    assert re.search(r"^\s*flush_interval -1$", (DEPLOY / "Caddyfile").read_text(), re.M)
    conf = (DEPLOY / "nginx.conf").read_text()
    events = [body for pattern, body in re.findall(r"location ~ (\S+) \{(.*?)\}", conf, re.S)
              if re.search(pattern, f"/api/v1/matches/{'0' * 32}/events")]
    assert events and "proxy_buffering off;" in events[0]


def test_nginx_takes_bodies_as_big_as_the_app_does_and_refuses_as_it_does(client):
    conf = (DEPLOY / "nginx.conf").read_text()
    assert re.search(r"^\s*client_max_body_size (\d+)k;", conf, re.M).group(1) == str(
        MAX_BODY_BYTES // 1024)
    answer = re.search(r"return 413 '(.*)';", conf).group(1)
    game = next(iter(GAMES.values()))
    refused = client.post(f"/api/v1/games/{game.id}/score", data=b"{}" + b" " * MAX_BODY_BYTES,
                          content_type="application/json")
    assert refused.status_code == 413 and json.loads(answer) == refused.get_json()


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def app_services(compose: dict) -> dict[str, dict]:
    """The services built from the repository's Dockerfile."""
    found = {}
    for name, service in compose["services"].items():
        build = service.get("build")
        if build and (DEPLOY / build["context"]).resolve() == ROOT:
            assert (ROOT / build.get("dockerfile", "Dockerfile")).is_file()
            found[name] = service
    return found


def test_compose_runs_two_app_replicas_reachable_only_through_the_proxy(compose):
    apps = app_services(compose)
    replicas = sum(service.get("deploy", {}).get("replicas", 1) for service in apps.values())
    assert replicas == 2
    for service in apps.values():
        assert "ports" not in service, "an app replica's port is published"
        environment = service["environment"]
        assert re.fullmatch(r"postgresql\+psycopg://digsite:\$\{POSTGRES_PASSWORD[^}]*\}"
                            r"@postgres:5432/digsite", environment["DATABASE_URL"])
        assert environment["DIGSITE_RATE_LIMIT_STORAGE"] == "redis://redis:6379/0"
        assert str(environment["DIGSITE_TRUSTED_PROXIES"]) == "1"
        # every request logged where `docker compose logs` reads (none was, by default)
        assert environment["DIGSITE_ACCESS_LOG"] == "-"
        assert {"postgres", "redis"} <= set(service["depends_on"])


def test_compose_keeps_postgres_data_and_caddy_certificates_on_named_volumes(compose):
    services, volumes = compose["services"], compose["volumes"]
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:")
    assert "test" in postgres["healthcheck"]
    assert any(mount.split(":")[0] in volumes and mount.split(":")[1] == "/var/lib/postgresql/data"
               for mount in postgres["volumes"])
    assert "test" in services["redis"]["healthcheck"]
    caddy_service = services["caddy"]
    assert caddy_service["image"].startswith("caddy:")
    assert {"80:80", "443:443"} <= set(caddy_service["ports"])
    mounts = dict(mount.split(":")[:2] for mount in caddy_service["volumes"])
    assert mounts["./Caddyfile"] == "/etc/caddy/Caddyfile"
    certificates = [source for source, target in mounts.items() if target == "/data"]
    assert certificates and set(certificates) <= set(volumes)
    # Every variable the Caddyfile reads without a default comes from compose.
    read = set(re.findall(r"\{\$(\w+)\}", (DEPLOY / "Caddyfile").read_text()))
    assert read <= set(caddy_service["environment"])


def test_the_env_example_names_every_variable_compose_reads():
    text = (DEPLOY / "compose.yaml").read_text()
    read = set(re.findall(r"\$\{(\w+)", text))
    example = {line.split("=")[0] for line in (DEPLOY / ".env.example").read_text().splitlines()
               if line and not line.startswith("#")}
    assert read == example


def test_the_container_keeps_its_sqlite_file_on_a_volume():
    dockerfile = (ROOT / "Dockerfile").read_text()
    workdir = re.search(r"^WORKDIR (\S+)$", dockerfile, re.M).group(1)
    volume = json.loads(re.search(r"^VOLUME (\[.*\])$", dockerfile, re.M).group(1))
    database = Path(DEFAULT_URL.removeprefix("sqlite:///"))
    assert volume == [str(Path(workdir) / database.parent.relative_to(ROOT))]
    # The volume is declared once its directory belongs to the app's user, so a new volume
    # starts out writable.
    assert dockerfile.index("chown digsite:digsite var") < dockerfile.index("VOLUME")
    hadolint = subprocess.run([str(ROOT / ".venv" / "bin" / "hadolint"), "Dockerfile"],
                              cwd=ROOT, capture_output=True, text=True)
    assert hadolint.returncode == 0, hadolint.stdout


# Forwarded headers: believed only from as many proxies as configured


def remote_of(trusted: str | int | None, headers: dict[str, str]) -> dict:
    config = {"TESTING": True, "DATABASE_URL": "sqlite://"}
    if trusted is not None:
        config["DIGSITE_TRUSTED_PROXIES"] = trusted
    app = create_app(config)
    app.add_url_rule("/test-remote", "test_remote", lambda: {
        "addr": request.remote_addr, "scheme": request.scheme, "host": request.host})
    return app.test_client().get("/test-remote", headers=headers,
                                 environ_base={"REMOTE_ADDR": "10.0.0.2"}).get_json()


FORWARDED = {"X-Forwarded-For": f"{SPOOFED}, 198.51.100.4", "X-Forwarded-Proto": "https",
             "X-Forwarded-Host": "elsewhere.example", "Host": "digsite.example.org"}


def test_with_no_proxy_trusted_a_client_cannot_set_its_own_address(monkeypatch):
    monkeypatch.delenv("DIGSITE_TRUSTED_PROXIES", raising=False)
    for trusted in (None, 0, "0", ""):
        assert remote_of(trusted, FORWARDED) == {
            "addr": "10.0.0.2", "scheme": "http", "host": "digsite.example.org"}


def test_behind_one_proxy_the_client_is_the_address_that_proxy_appended(monkeypatch):
    monkeypatch.delenv("DIGSITE_TRUSTED_PROXIES", raising=False)
    assert remote_of(1, FORWARDED) == {
        "addr": "198.51.100.4", "scheme": "https", "host": "digsite.example.org"}
    assert remote_of("2", FORWARDED)["addr"] == SPOOFED
    assert remote_of(1, {})["addr"] == "10.0.0.2"


def test_the_environment_sets_how_many_proxies_are_trusted(monkeypatch):
    monkeypatch.setenv("DIGSITE_TRUSTED_PROXIES", "1")
    assert remote_of(None, FORWARDED)["addr"] == "198.51.100.4"


def test_a_count_of_proxies_must_be_a_whole_number():
    for wrong in ("one", "-1", "1.5", True):
        with pytest.raises(ValueError, match="DIGSITE_TRUSTED_PROXIES"):
            remote_of(wrong, {})


def gunicorn_setting(monkeypatch, **environment: str) -> str:
    for name in ("DIGSITE_TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))["forwarded_allow_ips"]


def test_gunicorn_believes_forwarded_headers_exactly_when_the_app_does(monkeypatch):
    assert gunicorn_setting(monkeypatch) == ""
    assert gunicorn_setting(monkeypatch, DIGSITE_TRUSTED_PROXIES="0") == ""
    assert gunicorn_setting(monkeypatch, DIGSITE_TRUSTED_PROXIES="1") == "*"
    assert gunicorn_setting(monkeypatch, DIGSITE_TRUSTED_PROXIES="1",
                            FORWARDED_ALLOW_IPS="172.16.0.0/12") == "172.16.0.0/12"


@pytest.mark.parametrize("wrong", ["one", "-1", "1.5"])
def test_a_count_of_proxies_that_is_no_whole_number_stops_gunicorn_at_start(tmp_path, wrong):
    """gunicorn.conf.py reads it before the app does: a word or a fraction stopped the server
    with int()'s complaint, naming no setting, and -1 was taken there for a proxy to believe."""
    assert ("Error: DIGSITE_TRUSTED_PROXIES is the number of reverse proxies in front of "
            f"the app, a whole number (0 for none), not {wrong!r}") in refused_at_start(
                tmp_path, DIGSITE_TRUSTED_PROXIES=wrong)


def test_gunicorn_alone_logs_the_peer_not_a_forwarded_for(tmp_path):
    log = tmp_path / "access.log"
    with serve({"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                "DIGSITE_TRUSTED_PROXIES": "0", "DIGSITE_ACCESS_LOG": str(log)},
               workers=1) as server:
        probe = f"alone={uuid.uuid4().hex}"
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5,
                                                source_address=(CLIENT, 0))
        try:
            connection.request("GET", f"/healthz?{probe}", headers={"X-Forwarded-For": SPOOFED})
            assert connection.getresponse().status == 200
        finally:
            connection.close()
        assert access_log_line([log], probe).split()[0] == CLIENT



# What the proxies answer by themselves: problem+json, as the app answers, its type the kind of
# its status where one kind has it (service/errors.py), else about:blank.
PROXY_TYPES = {**TYPES, 404: "/problems/not-found", 405: "/problems/method-not-allowed"}


def problem_of(answer: Answer, status: int) -> dict:
    assert answer.status == status, (answer.status, answer.body)
    assert answer.headers["Content-Type"] == "application/problem+json", answer.headers
    problem = answer.json()
    assert problem["type"] == PROXY_TYPES.get(status, "about:blank")
    assert problem["status"] == status
    assert problem["title"] == HTTPStatus(status).phrase
    assert problem["detail"].endswith("."), problem
    return problem


def exchange(proxy: Proxy, data: bytes, port: int | None = None, tls: bool = True) -> Answer:
    """`data` sent as it is (over TLS to the HTTPS port unless told otherwise), and the one
    answer the proxy gives before closing the connection."""
    sock = socket.create_connection(("127.0.0.1", port or proxy.https), timeout=5)
    if tls:
        sock = proxy.tls.wrap_socket(sock, server_hostname="127.0.0.1")
    received = b""
    with sock:
        sock.sendall(data)
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, _, fields = head.partition(b"\r\n")
    headers = http.client.parse_headers(io.BytesIO(fields + b"\r\n\r\n"))
    return Answer(int(status_line.split()[1]), headers, body)


def test_a_request_the_app_refuses_for_its_headers_reaches_the_client_as_problem_json(proxy):
    """Neither proxy counts headers; gunicorn refuses over 100 (serving.py answers it)."""
    answer = fetch(proxy, "GET", "/healthz", headers={f"X-Header-{n}": "1" for n in range(150)})
    problem_of(answer, 431)


@pytest.fixture(scope="module")
def nginx_proxy(replicas, tmp_path_factory) -> Iterator[Proxy]:
    with nginx(tmp_path_factory.mktemp("nginx-alone"),
               [replica.address for replica in replicas]) as running:
        yield running


HOST = b"Host: 127.0.0.1\r\nConnection: close\r\n"


@pytest.mark.parametrize(("sent", "status"), [
    (b"G@T /healthz HTTP/1.1\r\n" + HOST + b"\r\n", 400),
    (b"GET /healthz HTTP/1.1\r\n" + HOST + HOST + b"\r\n", 400),
    (b"POST /healthz HTTP/1.1\r\n" + HOST + b"Content-Length: ten\r\n\r\n", 400),
    (b"GET /healthz HTTP/2.0\r\n" + HOST + b"\r\n", 505),
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n" + HOST + b"\r\n", 414),
    (b"GET /healthz HTTP/1.1\r\n" + HOST + b"X-Big: " + b"a" * 9000 + b"\r\n\r\n", 431),
    (b"POST /healthz HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: gzip\r\n\r\n", 501),
    (b"TRACE /healthz HTTP/1.1\r\n" + HOST + b"\r\n", 405),
    (b"GET /.problem HTTP/1.1\r\n" + HOST + b"\r\n", 404),
], ids=["method", "host-twice", "content-length", "version", "long-line", "big-header",
        "transfer-coding", "trace", "error-page-itself"])
def test_nginx_answers_what_it_refuses_itself_as_problem_json(nginx_proxy, sent, status):
    answer = exchange(nginx_proxy, sent)
    problem_of(answer, status)
    assert answer.headers["Strict-Transport-Security"] == HSTS
    # The same on the port that redirects to HTTPS.
    problem_of(exchange(nginx_proxy, sent, port=nginx_proxy.http, tls=False), status)


def test_nginx_answers_plain_http_on_its_https_port_as_problem_json(nginx_proxy):
    answer = exchange(nginx_proxy, b"GET /healthz HTTP/1.1\r\n" + HOST + b"\r\n", tls=False)
    problem_of(answer, 400)


def test_nginx_holds_each_address_to_its_requests_under_way_and_says_so_as_problem_json(
        replicas, tmp_path):
    """Deployed at 256; here at 2, held by two open event streams: a third request from that
    address is answered 429 problem+json with Retry-After, another address is served, and once
    the streams close the first is served again."""
    with nginx(tmp_path, [replica.address for replica in replicas], per_address=2) as proxy:
        created = fetch(proxy, "POST", "/api/v1/games/dig/matches",
                        {"players": ["Ann", "Bob"]}).json()
        streams = []
        try:
            for _ in range(2):
                stream = connect(proxy)
                stream.request("GET", f"/api/v1/matches/{created['id']}/events")
                assert stream.getresponse().status == 200  # open: its events are to come
                streams.append(stream)
            refused = fetch(proxy, "GET", "/healthz")
            problem_of(refused, 429)
            assert refused.headers["Retry-After"] == "5"
            assert refused.headers["Strict-Transport-Security"] == HSTS
            assert "from your address at once" in refused.json()["detail"]
            assert fetch(proxy, "GET", "/healthz", source=CLIENT).status == 200
        finally:
            for stream in streams:
                stream.close()
        deadline = time.monotonic() + 5
        while fetch(proxy, "GET", "/healthz").status != 200:
            assert time.monotonic() < deadline, "the closed streams are still counted"
            time.sleep(0.1)


@contextmanager
def dropping_app() -> Iterator[str]:
    """An app server that is alive (/healthz, the proxy's health check, answers 200) but drops
    every other request without an answer, as a crashing worker would: its address."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve(connection: socket.socket) -> None:
        with connection:
            connection.settimeout(5)
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                head += chunk
            if head.startswith(b"GET /healthz "):
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n"
                                   b"Connection: close\r\n\r\n")

    def accept() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:  # closed: the block ended
                return
            threading.Thread(target=serve, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()


@pytest.mark.parametrize("kind", ["caddy", "nginx"])
def test_a_proxy_whose_app_servers_do_not_answer_says_so_as_problem_json(kind, tmp_path):
    # A POST: Caddy tries a GET again on another replica for lb_try_duration first.
    with dropping_app() as app, (caddy if kind == "caddy" else nginx)(tmp_path, [app, app]) \
            as running:
        answer = fetch(running, "POST", "/api/v1/games/dig/score", {"players": []})
    assert "game server" in problem_of(answer, 502)["detail"]
    assert answer.headers["Strict-Transport-Security"] == HSTS
    assert answer.headers["Retry-After"] == "5"  # as the app's own 503 says when to try again


def test_nginx_answers_every_status_it_sends_itself_with_a_problem_document():
    """Each status error_page sends to /.problem has its body in the map, a problem document
    of that status."""
    conf = (DEPLOY / "nginx.conf").read_text()
    bodies = {int(status): json.loads(body)
              for status, body in re.findall(r"^\s*(\d{3}) '(\{.*\})';$", conf, re.M)}
    for status, problem in bodies.items():
        assert problem == {"type": PROXY_TYPES.get(status, "about:blank"),
                           "title": HTTPStatus(status).phrase,
                           "status": status, "detail": problem["detail"]}
    answered = set()
    for codes in re.findall(r"error_page ([\d =]+) /\.problem;", conf):
        # "494 =431": a 494 is answered as 431.
        answered |= ({int(codes.split("=")[1])} if "=" in codes
                     else {int(code) for code in codes.split()})
    assert answered and answered <= set(bodies), answered - set(bodies)


SCORESHEET = {"bowls": ["green", "yellow", "purple", "blue", "red"],
              "players": [{"name": "Ann", "dropped": {"green": 2, "yellow": 1, "purple": 3,
                                                      "blue": 2, "red": 2}}]}


def test_caddy_sends_a_post_to_the_other_replica_while_one_is_stopped(replicas, tmp_path):
    """A replica stopped for an update refuses connections until the next health check, up to
    10 s later, takes it out of rotation: meanwhile each request sent to it goes to the other,
    a POST with its body as well."""
    log = tmp_path / "stopped.log"
    with serve({"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                "DIGSITE_TRUSTED_PROXIES": "1", "DIGSITE_ACCESS_LOG": str(log)},
               workers=1) as stopped, \
            caddy(tmp_path, [replicas[0].address, f"127.0.0.1:{stopped.port}"]) as running:
        # Caddy's first health check finds both replicas ready; the next is 10 s away.
        deadline = time.monotonic() + 10
        # (its check of /healthz, not the one the test server is started with)
        while not any("/healthz" in line and "Python-urllib" not in line
                      for line in log.read_text().splitlines()):
            assert time.monotonic() < deadline, "Caddy did not check the replica's health"
            time.sleep(0.05)
        stopped.stop()
        direct = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"{replicas[0].url}/api/v1/games/dig/score", data=json.dumps(SCORESHEET).encode(),
            headers={"Content-Type": "application/json"}), timeout=5).read())
        # Replicas are taken in turn: at least every other request is sent to the stopped one
        # first. The calculator takes no query, so each is told apart by its User-Agent, which
        # gunicorn logs.
        probes = [f"retried-{uuid.uuid4().hex}" for _ in range(4)]
        answers = [fetch(running, "POST", "/api/v1/games/dig/score", SCORESHEET,
                         headers={"User-Agent": probe}) for probe in probes]
    assert [answer.status for answer in answers] == [200] * len(probes), \
        [answer.body for answer in answers]
    assert all(answer.json() == direct for answer in answers)
    for probe in probes:
        assert access_log_line([replicas[0].access_log], probe)


def test_nginx_takes_a_restarted_server_back_within_seconds_for_a_rolling_update(tmp_path):
    """One server restarted, then the other, as deploy/README.md says: nginx left the first
    alone for 30 s once it had failed, and with the second stopped within that time it had no
    server left (502 "no live upstreams" for 24 s while both answered /healthz)."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}", "DIGSITE_TRUSTED_PROXIES": "1"}
    with serve(env, workers=1) as first, serve(env, workers=1) as second, \
            nginx(tmp_path, [f"127.0.0.1:{first.port}", f"127.0.0.1:{second.port}"]) as running:
        first.stop()
        # Each request is tried on the stopped server in its turn and sent on to the other.
        assert [fetch(running, "GET", "/healthz").status for _ in range(10)] == [200] * 10
        first.start()
        time.sleep(ROLLING_PAUSE_SECONDS)  # deploy/README.md: the pause between the two
        second.stop()
        answers = [fetch(running, "GET", "/healthz") for _ in range(4)]
    assert [answer.status for answer in answers] == [200] * 4, [a.body for a in answers]


# deploy/README.md: after a server answers /readyz again, wait this long before the next.
ROLLING_PAUSE_SECONDS = 3
