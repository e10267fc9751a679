"""What the server sends for the page: the page, its files, the manifest and the service worker
at the site root, with a content security policy that allows nothing from elsewhere."""

import json
import re


def test_the_page_loads_only_its_own_files(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "unsafe-inline" not in policy
    html = response.get_data(as_text=True)
    assert re.findall(r'(?:src|href)="(https?:)?//', html) == []
    for url in re.findall(r'(?:src|href)="([^"#]+)"', html):
        assert client.get(url).status_code == 200, url


def test_the_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon


def test_the_service_worker_caches_every_file_of_the_page(client):
    response = client.get("/sw.js")
    assert response.mimetype == "text/javascript"
    assert "no-cache" in response.headers["Cache-Control"]
    source = response.get_data(as_text=True)
    version = re.search(r'const VERSION = "([0-9a-f]{12})";', source)
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", source).group(1))
    assert version, "the cache is named after the page's version"
    assert {"/", "/manifest.webmanifest", "/web/app.js", "/web/style.css"} <= set(shell)
    for url in shell:
        assert client.get(url).status_code == 200, url
