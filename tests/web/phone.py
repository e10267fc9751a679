"""What the browser tests of the phone page share: where Chromium and axe-core are, the phone's
size, a server of their own, and where screenshots go (test-artifacts/, not committed)."""

from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.server import serve

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
PHONE = {"width": 390, "height": 844}
ARTIFACTS = ROOT / "test-artifacts" / "web"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def start_server(tmp_path_factory: pytest.TempPathFactory):
    """gunicorn serving the app with a SQLite file of its own."""
    database = tmp_path_factory.mktemp("web") / "digsite.db"
    return serve({"DATABASE_URL": f"sqlite:///{database}"})


def screenshot(page: Page, name: str, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{name}.png", full_page=full_page)
