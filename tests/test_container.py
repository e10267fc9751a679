"""The container serves exactly as `make run` and the tests do."""

import json
import re
from pathlib import Path

from tests.server import COMMAND

ROOT = Path(__file__).resolve().parent.parent


def test_dockerfile_command_is_the_tested_gunicorn_command():
    dockerfile = (ROOT / "Dockerfile").read_text()
    cmd = json.loads(re.search(r"^CMD (\[.*\])$", dockerfile, re.M).group(1))
    assert cmd == ["gunicorn", *COMMAND[1:]]
    assert re.search(r"^HEALTHCHECK .*/healthz", dockerfile, re.M | re.S)
    assert re.search(r"^USER (?!root|0\b)", dockerfile, re.M)


def test_make_run_serves_with_the_same_command():
    makefile = (ROOT / "Makefile").read_text()
    serve = re.search(r"^SERVE := \$\(BIN\)/(.*)$", makefile, re.M).group(1)
    assert serve.replace("'", "").split() == ["gunicorn", *COMMAND[1:]]
