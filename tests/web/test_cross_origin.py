"""API.md "Caching and cross-origin use": a browser app served from another origin listed in
DIGSITE_CORS_ORIGINS creates a match, reads a view and posts an action; one from an origin not
listed is refused by the browser. Real gunicorn, real Chromium."""

import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser

from tests.server import free_port, serve

# The other app: plain JavaScript calling the API with fetch and a Bearer token.
APP = """<!doctype html><meta charset="utf-8"><title>other app</title><script>
async function play(api) {
  const created = await (await fetch(api + "/api/v1/games/dig/matches", {method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({players: ["Ann", "Bob"], seed: 3})})).json();
  const token = created.seats[0].token;
  const view = await fetch(api + "/api/v1/matches/" + created.id,
                           {headers: {Authorization: "Bearer " + token}});
  const seen = await view.json();
  const acted = await fetch(api + "/api/v1/matches/" + created.id + "/actions", {method: "POST",
    headers: {Authorization: "Bearer " + token, "Content-Type": "application/json",
              "If-Match": view.headers.get("ETag")},
    body: JSON.stringify({action: seen.legal_actions[0]})});
  const after = await acted.json();
  return {etag: view.headers.get("ETag"), status: acted.status, version: after.version};
}
</script>"""


@contextmanager
def page_server() -> Iterator[str]:
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            body = APP.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Page)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def apps(tmp_path_factory):
    """A listed app's origin, an unlisted one, and the API allowing only the first."""
    with page_server() as listed, page_server() as unlisted:
        database = tmp_path_factory.mktemp("cors") / "digsite.db"
        with serve({"DATABASE_URL": f"sqlite:///{database}",
                    "DIGSITE_CORS_ORIGINS": f"https://elsewhere.example, {listed}"}) as api:
            yield listed, unlisted, api.url


def test_an_app_on_a_listed_origin_plays_through_the_api(browser: Browser, apps):
    listed, _, api = apps
    page = browser.new_page()
    try:
        page.goto(listed)
        result = page.evaluate("api => play(api)", api)
    finally:
        page.close()
    assert result["status"] == 200 and result["version"] == 2
    assert result["etag"], "ETag is exposed to the other origin"


def test_an_app_on_an_unlisted_origin_is_refused(browser: Browser, apps):
    _, unlisted, api = apps
    page = browser.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text))
    try:
        page.goto(unlisted)
        refused = page.evaluate("api => play(api).then(() => 'allowed', e => e.name)", api)
    finally:
        page.close()
    assert refused == "TypeError"  # fetch's network error: the browser blocked the answer
    assert any("CORS" in text for text in errors)


def test_a_preflight_names_what_may_be_sent_and_read(apps):
    import requests

    listed, unlisted, api = apps
    answer = requests.options(f"{api}/api/v1/matches/x/actions", timeout=5, headers={
        "Origin": listed, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, if-match"})
    assert answer.status_code == 204  # an empty answer, as every OPTIONS is
    assert answer.headers["Access-Control-Allow-Origin"] == listed
    allowed = answer.headers["Access-Control-Allow-Headers"].lower()
    assert {"authorization", "content-type", "if-match"} <= set(allowed.replace(" ", "").split(","))
    view = requests.get(f"{api}/api/v1/games", headers={"Origin": listed}, timeout=5)
    assert view.headers["Access-Control-Allow-Origin"] == listed
    other = requests.get(f"{api}/api/v1/games", headers={"Origin": unlisted}, timeout=5)
    assert "Access-Control-Allow-Origin" not in other.headers
