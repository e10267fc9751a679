# make run  — set up .venv and serve on http://127.0.0.1:8000 (SQLite under var/)
# make test — set up everything the tests need (Chromium, PostgreSQL, Redis, Caddy, nginx, axe-core) and run them all
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SERVE := $(BIN)/gunicorn -c gunicorn.conf.py 'app:create_app()'
APT_GET := DEBIAN_FRONTEND=noninteractive apt-get
# Python keeps the bytecode it compiles (__pycache__, ignored by git) even where the shell asks it
# not to: every gunicorn worker, test process and thinking process would otherwise compile the
# app's modules again as it starts (a third of a worker's start-up).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test lint system-deps bench soak fuzz lock clean durations

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# pip compiles what it installs one file at a time; compileall does it on every core, leaving
# out the packages' own tests (a quarter of the files: pandas' alone are 1,143), which nothing
# here imports.
COMPILE := $(BIN)/python -m compileall -q -j 0 -x '/tests/' $(VENV)/lib >/dev/null
# The app's own modules, compiled before it is served, as the Dockerfile does: with
# PYTHONDONTWRITEBYTECODE set, or in a fresh checkout, every gunicorn worker compiled them again
# as it started (a quarter of a second of CPU each, for the hundred servers make test starts).
COMPILE_APP := $(BIN)/python -m compileall -q -j 0 app.py cli.py gunicorn.conf.py healthcheck.py \
	serving.py api service scoring studies web tests bench >/dev/null

$(VENV)/.runtime: $(BIN)/activate pyproject.toml constraints.txt
	$(BIN)/pip install --quiet --no-compile -c constraints.txt -e .
	$(COMPILE)
	touch $@

# One install of the runtime and the test tools together (the runtime's own marker with it):
# a fresh checkout's `make test` resolves and builds the project once, not twice.
$(VENV)/.test: $(BIN)/activate pyproject.toml constraints.txt
	$(BIN)/pip install --quiet --no-compile -c constraints.txt -e '.[test]'
	$(COMPILE)
	touch $(VENV)/.runtime $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $@

run: $(VENV)/.runtime
	$(COMPILE_APP)
	$(SERVE)

# Debian packages the tests drive for real: Chromium for the phone page, PostgreSQL for storage,
# Redis for the rate limiter shared by several app servers, Caddy and nginx for deploy/'s proxies.
system-deps:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	command -v caddy >/dev/null 2>&1 || missing="$$missing caddy"; \
	[ -x /usr/sbin/nginx ] || missing="$$missing nginx"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq $$missing >/dev/null; \
	fi

lint: $(VENV)/.test
	$(BIN)/ruff check .
	$(BIN)/hadolint Dockerfile

test: $(VENV)/.test system-deps node_modules/.installed lint
	$(COMPILE_APP)
	$(BIN)/pytest -q -n 4 --dist loadfile --durations=15

# make test, writing how long each test file took to tests/durations.json: make test starts the
# longest first (tests/conftest.py). Run it again, and commit the file, when the times move.
durations: $(VENV)/.test system-deps node_modules/.installed
	$(COMPILE_APP)
	DIGSITE_RECORD_DURATIONS=1 $(BIN)/pytest -q -n 4 --dist loadfile

# The image's dependencies, locked with the hashes of their files (Dockerfile), at the pins of
# pyproject.toml and constraints.txt.
lock: $(VENV)/.runtime
	$(BIN)/pip install --quiet pip-tools==7.6.2
	$(BIN)/pip-compile --quiet --generate-hashes --strip-extras --allow-unsafe --no-emit-index-url \
		--no-emit-find-links --no-header -c constraints.txt --output-file requirements.lock pyproject.toml

# The two-server tables at ten times make test's load: 200 matches at once through two servers.
soak: $(VENV)/.test system-deps
	DIGSITE_TEST_TABLES=200 $(BIN)/pytest -q -p no:cacheprovider tests/test_two_servers.py

# The generated tests (hypothesis' properties, schemathesis against the OpenAPI document) at ten
# times make test's examples (tests/fuzz.py).
fuzz: $(VENV)/.test
	DIGSITE_FUZZ_SCALE=10 $(BIN)/pytest -q -n 2 --dist loadfile -p no:cacheprovider \
		tests/api/test_schemathesis.py tests/api/test_properties.py tests/api/test_quick_path.py \
		tests/api/test_fastload.py

# Every benchmark runs and prints its figures; the target fails at the end if any missed a goal.
bench: $(VENV)/.test system-deps
	@command -v wrk >/dev/null 2>&1 || ($(APT_GET) update -qq && $(APT_GET) install -y -qq wrk >/dev/null)
	@failed=""; \
	for b in calculator matches match_cpu bots tables streams connections thinking phone_cpu; do \
		$(BIN)/python bench/$$b.py || failed="$$failed $$b"; \
	done; \
	if [ -n "$$failed" ]; then echo "missed a goal:$$failed"; exit 1; fi

clean:
	rm -rf $(VENV) node_modules var .pytest_cache .hypothesis
