"""/api/docs in Debian's Chromium against gunicorn: Swagger UI 5, from a pinned PyPI package,
renders the app's own OpenAPI 3.1 document and lists every operation in it, under the page's real
Content-Security-Policy (not bypassed here), asking no other host for anything."""

import json
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, Request, Route, expect

from tests.server import Server

from .phone import PHONE, screenshot

DESKTOP = {"width": 1280, "height": 900}
METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
# Swagger UI reports a CSP refusal through this event; the test collects them on the page.
WATCH_CSP = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


@pytest.fixture(scope="module")
def document(server: Server) -> dict:
    with urllib.request.urlopen(f"{server.url}/api/openapi.json", timeout=5) as response:
        return json.load(response)


def operations(document: dict) -> set[tuple[str, str]]:
    """Every operation of the document: its paths', and its webhooks' (what the server sends),
    which the docs page lists too, each under its name."""
    return {(method.upper(), path)
            for items in (document["paths"], document.get("webhooks", {}))
            for path, item in items.items() for method in item if method in METHODS}


@dataclass
class Visit:
    page: Page
    requests: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cache_control: dict[str, str] = field(default_factory=dict)

    def violations(self) -> list[str]:
        return self.page.evaluate("window.__cspViolations")


@pytest.fixture
def open_docs(browser: Browser, server: Server) -> Iterator[Callable[..., Visit]]:
    """Opens /api/docs in a fresh browser whose CSP is enforced. Any request to another origin is
    recorded and refused, so the test never leaves the machine; console errors, page errors and
    CSP violations fail the test."""
    contexts, visits = [], []
    origin = urlsplit(server.url)[:2]

    def open_(viewport: dict[str, int]) -> Visit:
        context = browser.new_context(viewport=viewport, base_url=server.url)
        contexts.append(context)
        page = context.new_page()
        visit = Visit(page)
        visits.append(visit)

        def route(route: Route, request: Request) -> None:
            if urlsplit(request.url)[:2] == origin:
                route.continue_()
            else:
                visit.foreign.append(request.url)
                route.abort()

        context.route("**/*", route)
        page.add_init_script(WATCH_CSP)
        page.on("request", lambda request: visit.requests.append(request.url))
        page.on("response", lambda response: visit.cache_control.__setitem__(
            response.url, response.headers.get("cache-control", "")))
        page.on("pageerror", lambda error: visit.errors.append(str(error)))
        page.on("console", lambda message: message.type == "error"
                and visit.errors.append(message.text))
        response = page.goto("/api/docs")
        assert response.status == 200
        policy = response.headers["content-security-policy"]
        assert "script-src 'self';" in policy and "style-src 'self';" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "default-src 'none'" in policy and "connect-src 'self'" in policy
        return visit

    yield open_
    try:
        for visit in visits:
            assert not visit.foreign, f"requests to another origin: {visit.foreign}"
            assert not visit.errors, f"errors on the page: {visit.errors}"
            assert not visit.violations(), f"CSP violations: {visit.violations()}"
    finally:
        for context in contexts:
            context.close()


def rendered_operations(page: Page) -> set[tuple[str, str]]:
    return {(method.upper(), path) for method, path in page.evaluate("""
        [...document.querySelectorAll('.opblock')].map((block) => [
          block.querySelector('.opblock-summary-method').textContent,
          block.querySelector('.opblock-summary-path').dataset.path,
        ])""")}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_docs_list_every_operation_of_the_openapi_31_document(open_docs, document, viewport):
    assert document["openapi"].startswith("3.1")
    visit = open_docs(viewport)
    page = visit.page
    expected = operations(document)
    expect(page.locator(".opblock")).to_have_count(len(expected), timeout=15_000)
    expect(page.locator(".info .title")).to_contain_text(document["info"]["title"])
    expect(page.locator(".info .title")).to_contain_text("OAS 3.1")
    assert not page.get_by_text("Unable to render this definition").count()
    assert not page.locator(".errors-wrapper").count()

    assert rendered_operations(page) == expected
    for method, path in [("POST", "/api/v1/games/dig/score"),
                         ("GET", "/api/v1/matches/{match_id}")]:
        block = page.locator(f".opblock-{method.lower()}").filter(
            has=page.locator(f'.opblock-summary-path[data-path="{path}"]'))
        expect(block).to_be_visible()
    screenshot(page, f"api-docs-{'phone' if viewport == PHONE else 'desktop'}")

    # Everything came from this server: the page, Swagger UI's files from the package, the
    # document. Assets linked with the page's version are cached for a year, immutable.
    paths = {urlsplit(url).path for url in visit.requests}
    assert {"/api/docs", "/api/openapi.json", "/api/docs/assets/swagger-ui-bundle.js",
            "/api/docs/assets/swagger-ui.css", "/api/docs/assets/docs.js"} <= paths
    assets = {url: value for url, value in visit.cache_control.items() if "/assets/" in url}
    assert assets and all("?v=" in url for url in assets)
    for url, value in assets.items():
        assert {"public", "max-age=31536000", "immutable"} <= {
            part.strip() for part in value.split(",")}, url


def test_try_it_out_calls_this_api_under_the_csp(open_docs):
    """The CSP still lets Swagger UI's "Try it out" reach this API (connect-src 'self')."""
    page = open_docs(DESKTOP).page
    block = page.locator(".opblock-get").filter(
        has=page.locator('.opblock-summary-path[data-path="/api/v1/games"]'))
    block.locator(".opblock-summary").click()
    block.get_by_role("button", name="Try it out").click()
    with page.expect_response(lambda response: response.url.endswith("/api/v1/games")) as sent:
        block.get_by_role("button", name="Execute").click()
    assert sent.value.status == 200
    expect(block.locator(".live-responses-table tbody .response-col_status")).to_have_text("200")
    expect(block.locator(".live-responses-table")).to_contain_text("dig-it-up")
