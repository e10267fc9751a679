"""The phone scorer page in Debian's Chromium, driven by Playwright, against the app served by
gunicorn exactly as in production. One browser for the session; a fresh phone (browser context:
its own storage and service worker) for each test."""

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.server import Server

from .phone import CHROMIUM, CHROMIUM_ARGS, PHONE

# A page's answer waits on a server that shares two cores with three other test processes: an
# expectation waits as long as an action does (Playwright's own default is 5 s).
expect.set_options(timeout=10_000)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


# One server for every page test a test process runs, the one its API tests are served by
# (tests/conftest.py): the pages keep their tallies in the phone, and what they store on the
# server (a followed tally, a match) is each test's own.
@pytest.fixture(scope="session")
def server(live_server: Server) -> Server:
    return live_server


@pytest.fixture
def open_phone(request, browser: Browser,
               server: Server) -> Iterator[Callable[..., Page]]:
    """Opens the page on a fresh phone; JavaScript errors on the page fail the test.

    The service worker runs only in tests marked `service_worker`: those about the network
    going away, where a phone's copy of the page is what is tested. Everywhere else the page
    talks to the server itself either way (the worker answers only the page's own files and the
    box data), and installing it would cost every phone a second load of all of them.

    A phone asks for reduced motion unless the test says otherwise (`motion`): the page's
    flashes (each cell a move changed, 1.2 s) and the grid's pulsing key redraw the page on every
    frame while they run, and with two or three phones playing a match they never stopped: a
    whole Dinos match cost Chromium 21.7 s of CPU with them and 13.3 s without. What the page
    shows and does is the same either way; the flashes themselves are tested with both
    (tests/web/test_play.py)."""
    contexts, errors = [], []
    kept = "allow" if request.node.get_closest_marker("service_worker") else "block"

    def open_(url: str | None = None, color_scheme: str = "light", width: int = PHONE["width"],
              allow_network_errors: bool = False, go: bool = True, locale: str = "en-GB",
              service_workers: str = kept, motion: str = "reduce", touch: bool = False) -> Page:
        # bypass_csp lets the test inject axe-core; the page itself loads nothing inline.
        context = browser.new_context(viewport={**PHONE, "width": width}, bypass_csp=True,
                                      color_scheme=color_scheme, base_url=url or server.url,
                                      locale=locale, service_workers=service_workers,
                                      reduced_motion=motion, has_touch=touch)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        watch(page, allow_network_errors)
        if go:
            page.goto("/")
        return page

    def watch(page: Page, allow_network_errors: bool = False) -> None:
        """JavaScript errors on `page` (another tab, say) fail the test too."""
        page.on("pageerror", lambda error: errors.append(str(error)))

        def console(message) -> None:
            # Chromium logs every 4xx; a 422 is the calculator refusing an impossible count.
            refused = "Failed to load resource" in message.text and (
                "status of 422" in message.text or allow_network_errors)
            if message.type == "error" and not refused:
                errors.append(message.text)

        page.on("console", console)

    open_.watch = watch
    yield open_
    for context in contexts:
        context.close()
    assert not errors, f"errors on the page: {errors}"

