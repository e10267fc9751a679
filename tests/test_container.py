"""The container serves exactly as `make run` and the tests do."""

import json
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.server import COMMAND, free_port, serve

ROOT = Path(__file__).resolve().parent.parent


def test_dockerfile_command_is_the_tested_gunicorn_command():
    dockerfile = (ROOT / "Dockerfile").read_text()
    cmd = json.loads(re.search(r"^CMD (\[.*\])$", dockerfile, re.M).group(1))
    assert cmd == ["gunicorn", *COMMAND[1:]]
    assert re.search(r"^HEALTHCHECK .*CMD \[\"python\", \"healthcheck.py\"\]", dockerfile,
                     re.M | re.S)
    assert re.search(r"^USER (?!root|0\b)", dockerfile, re.M)


def test_the_image_holds_every_module_the_app_imports(tmp_path):
    # It copied no studies/, which the app's commands and workers import: every worker failed to
    # boot ("No module named 'studies'"), and the container restarted over and over.
    image = tmp_path / "app"  # /app, as the Dockerfile's COPY lines fill it
    image.mkdir()
    for line in re.findall(r"^COPY (.+)$", (ROOT / "Dockerfile").read_text(), re.M):
        *sources, target = line.split()
        for source in sources:
            if (ROOT / source).is_dir():
                shutil.copytree(ROOT / source, image / target,
                                ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy(ROOT / source, image / target)
    (image / ".venv").symlink_to(ROOT / ".venv")  # the installed dependencies, none of the app
    with serve({"DATABASE_URL": f"sqlite:///{tmp_path}/digsite.db"}, workers=1,
               root=image) as server:
        with urllib.request.urlopen(f"{server.url}/readyz", timeout=10) as response:
            assert response.status == 200
        # The image's health check asks where DIGSITE_BIND says gunicorn listens: it asked
        # port 8000 whatever the port, and a container listening elsewhere read as unhealthy.
        check = json.loads(re.search(r"^HEALTHCHECK .*?CMD (\[.*?\])$",
                                     (ROOT / "Dockerfile").read_text(), re.M | re.S).group(1))
        port = server.url.rsplit(":", 1)[1]
        for bind, healthy in ((f"127.0.0.1:{port}", True), (f"0.0.0.0:{port}", True),
                              (f":{port}", True), (f"127.0.0.1:{free_port()}", False)):
            ran = subprocess.run([sys.executable if check[0] == "python" else check[0],
                                  *check[1:]], cwd=image, env={"DIGSITE_BIND": bind},
                                 capture_output=True, text=True, timeout=30)
            assert ran.returncode == (0 if healthy else 1), (bind, ran.stderr)


def test_make_run_serves_with_the_same_command():
    makefile = (ROOT / "Makefile").read_text()
    serve = re.search(r"^SERVE := \$\(BIN\)/(.*)$", makefile, re.M).group(1)
    assert serve.replace("'", "").split() == ["gunicorn", *COMMAND[1:]]


def pins(text: str) -> dict[str, str]:
    """name → version of each `name==version` line (extras dropped, names normalised)."""
    return {re.sub(r"[-_.]+", "-", m[1]).lower(): m[2]
            for m in re.finditer(r"^([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?==([^\s;\\]+)", text, re.M)}


def test_the_image_installs_the_locked_runtime_from_hashes_at_the_constrained_versions():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^RUN pip install --require-hashes -r requirements\.lock", dockerfile, re.M)
    lock = (ROOT / "requirements.lock").read_text()
    locked, constrained = pins(lock), pins((ROOT / "constraints.txt").read_text())
    runtime = pins(re.search(r"^dependencies = \[(.*?)^\]", (ROOT / "pyproject.toml")
                             .read_text(), re.M | re.S).group(1).replace('"', "").replace(
                                 ",", "\n").replace(" ", ""))
    assert runtime.items() <= locked.items()  # every runtime dependency, as pyproject pins it
    assert {name: constrained.get(name) for name in locked} == locked  # as the tests run them
    # every requirement carries its files' hashes: pip refuses any other file
    blocks = re.split(r"\n(?=[A-Za-z0-9])", lock.strip())
    assert all("--hash=sha256:" in block for block in blocks), blocks
    # and pip resolves the lock as the image does, every file checked against its hash
    checked = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--quiet",
                              "--ignore-installed", "--require-hashes", "--no-deps", "-r",
                              str(ROOT / "requirements.lock")], capture_output=True, text=True,
                             timeout=300)
    assert checked.returncode == 0, checked.stderr[-3000:]


def test_a_study_s_version_is_named_where_there_is_no_git_and_no_package(monkeypatch):
    """The image has no git and does not install the project as a package: naming the code's
    version raised PackageNotFoundError, and every study over HTTP ended `failed` as its
    report was drawn. The image is told its version as it is built (DIGSITE_VERSION)."""
    from importlib import metadata

    from studies import records

    def no_git(*args, **kwargs):
        raise FileNotFoundError("git")

    def no_package(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(records.subprocess, "run", no_git)
    monkeypatch.setattr(records.metadata, "version", no_package)
    monkeypatch.delenv("DIGSITE_VERSION", raising=False)
    assert records.code_version() == "unknown"
    monkeypatch.setenv("DIGSITE_VERSION", "v1.4-3-gabc1234")
    assert records.code_version() == "v1.4-3-gabc1234"
    assert records.provenance({"game": "dig"}, None, "jsonl")["version"] == "v1.4-3-gabc1234"
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^ARG DIGSITE_VERSION=", dockerfile, re.M)
    assert re.search(r"^ENV DIGSITE_VERSION=\$DIGSITE_VERSION", dockerfile, re.M)
