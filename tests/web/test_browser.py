"""The browser the page tests drive: Debian's Chromium with the arguments of tests/web/phone.py,
which turn off what a headless browser loads for nobody and keep off all Playwright turns off."""

from pathlib import Path

from playwright.sync_api import Browser

from .phone import BASE_CHROMIUM_ARGS, CHROMIUM, PHONE, UNSHOWN_FEATURES


def renderers_disabled_features(browser: Browser, url: str) -> set[str]:
    """The features a page's renderer runs with turned off, as the browser hands them to it."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(url)
    processes = browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")["processInfo"]
    features: set[str] = set()
    for process in processes:
        if process["type"] != "renderer":
            continue
        # A renderer names itself with its whole command line, as one text.
        words = Path(f"/proc/{process['id']}/cmdline").read_bytes().replace(b"\0", b" ").split()
        for word in words:
            if word.startswith(b"--disable-features="):
                features |= set(word.split(b"=", 1)[1].decode().split(","))
    context.close()
    assert features, "no renderer was found with its features"
    return features


def browser_ui(browser: Browser) -> list[str]:
    """The addresses of the browser's own UI pages open now."""
    targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    return [target["url"] for target in targets if target["type"] == "browser_ui"]


def test_the_arguments_keep_every_feature_playwright_turns_off_and_load_no_address_bar(browser,
                                                                                      server):
    plain = browser.browser_type.launch(executable_path=CHROMIUM, args=BASE_CHROMIUM_ARGS)
    try:
        playwrights = renderers_disabled_features(plain, server.url)
        context = plain.new_context()
        context.new_page().goto(server.url)
        assert any("omnibox" in url for url in browser_ui(plain))  # what is spared below
        context.close()
    finally:
        plain.close()
    # The browser every page test drives, launched with CHROMIUM_ARGS (tests/web/conftest.py).
    disabled = renderers_disabled_features(browser, server.url)
    context = browser.new_context()
    context.new_page().goto(server.url)
    assert not any("omnibox" in url for url in browser_ui(browser))
    context.close()
    assert playwrights - disabled == set(), "Playwright turns these off; phone.py must too"
    assert set(UNSHOWN_FEATURES) <= disabled
