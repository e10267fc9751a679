"""What the server sends for the page: the page, its files, the manifest and the service worker
at the site root, with a content security policy that allows nothing from elsewhere."""

import json
import re
import shutil
import subprocess
from pathlib import Path

from web import HERE, ROOT_FILES, STATIC, STATIC_URL, without_comments


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


def test_the_page_s_scripts_are_sent_without_their_comment_lines_and_read_the_same(client,
                                                                                   tmp_path):
    # A phone fetched every comment of every script (a sixth of the table's first load).
    scripts = sorted([*STATIC.rglob("*.js"), ROOT_FILES / "sw.js"])
    assert len(scripts) > 30
    for path in scripts:
        if path.parent != ROOT_FILES:
            sent = client.get(f"{STATIC_URL}/{path.relative_to(STATIC).as_posix()}").data
            assert sent == without_comments(path.read_bytes()), path
    assert not re.search(r"(?m)^\s*//", client.get("/sw.js").get_data(as_text=True))
    written = {path.relative_to(HERE.parent).as_posix(): path.read_text(encoding="utf-8")
               for path in scripts}
    pairs = {name: [text, without_comments(text.encode()).decode()]
             for name, text in written.items()}
    assert sum(len(sent) for _, sent in pairs.values()) < 0.8 * sum(map(len, written.values()))
    checked = tmp_path / "scripts.json"
    checked.write_text(json.dumps(pairs))
    node = shutil.which("node")
    assert node, "Node reads the page's scripts: `make test` installs it (system-deps)"
    run = subprocess.run([node, str(Path(__file__).parent / "same_without_comments.mjs"),
                          str(checked)], capture_output=True, text=True, timeout=120,
                         cwd=HERE.parent.parent)
    assert run.returncode == 0 and run.stdout == "", run.stdout + run.stderr
