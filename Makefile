# podpages. `make help` lists the targets; README.md explains them.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# Python 3.13 is the Lambda runtime we target; pyenv machines select it with PYENV_VERSION.
export PYENV_VERSION ?= 3.13.0
PYTHON ?= python3.13
VENV := .venv
BIN := $(VENV)/bin
EXAMPLE_PORT ?= 8000
EXAMPLE_URL ?= http://127.0.0.1:$(EXAMPLE_PORT)
DEMO_HOST ?= 127.0.0.1
DEMO_PORT ?= 3000
DEMO_AWS_PORT ?= 4566
SEED_PAGE := pytorch/backend-flexibility-revolution/
# The tests, a file to each of as many processes as the machine has cores (pytest-xdist).
PYTEST := $(BIN)/pytest --numprocesses auto --dist loadfile
# The Lambda Python runtime ships these; the layer does not.
RUNTIME_PROVIDED := boto3 botocore s3transfer urllib3

.PHONY: help install checkers lint test unit integration acceptance sam-local bench bench-table demo example serve-example validate build schemas lock screenshot clean

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# checkov pins a boto3 that aws-sam-cli cannot share, so it lives in a venv of its own.
CHECKOV_VERSION := 3.3.30
$(VENV)/bin/checkov: $(VENV)/.installed
	$(PYTHON) -m venv $(VENV)/opt/checkov
	$(VENV)/opt/checkov/bin/pip install --quiet checkov==$(CHECKOV_VERSION)
	ln -sf ../opt/checkov/bin/checkov $@

install: $(VENV)/.installed $(VENV)/bin/checkov ## create .venv on Python 3.13 and install podpages with its test tools

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

checkers: ## install the Nu HTML Checker from npm (its audits are skipped, loudly, without it)
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory node_modules/.installed; \
	else echo "WARNING: npm not found; the Nu HTML Checker audits will be skipped"; fi

test: install checkers lint ## run every test: unit, integration (moto server, sam), acceptance (Nu checker)
	$(PYTEST)

lint: install ## ruff (lint and format) and mypy (strict types) over the package and the handlers
	$(BIN)/ruff check layers functions tests bench
	$(BIN)/ruff format --check layers functions tests bench
	$(BIN)/mypy

unit: install ## run the unit tests only: pure code, no network
	$(PYTEST) tests/unit

integration: install ## run the integration tests: S3 and SQS over HTTP on 127.0.0.1, sam validate and build
	$(PYTEST) tests/integration

acceptance: install checkers ## run the acceptance tests: real validators on rendered pages
	$(PYTEST) tests/acceptance

# Part of make test too, where it is skipped, loudly, without root and Docker; here that is a failure.
sam-local: install ## sam local invoke every event in events/ against S3 and SQS on 127.0.0.1 (root, docker.io)
	PODPAGES_REQUIRE_CHECKERS=1 $(BIN)/pytest tests/integration/test_sam_local.py -v

bench: install ## run every benchmark (not part of make test): bench/results.json, and the README's table from it
	PYTHONPATH=tests $(BIN)/python bench/run.py

bench-table: install ## write the README's Performance table from bench/results.json again, without measuring
	PYTHONPATH=tests $(BIN)/python bench/run.py --readme

demo: install ## run the whole product locally: S3, SQS, the functions, the site and API on http://127.0.0.1:3000
	$(BIN)/podpages demo --host $(DEMO_HOST) --port $(DEMO_PORT) --aws-port $(DEMO_AWS_PORT)

example: install ## render the sample catalogue in examples/ into site/ and print the page to open
	rm -rf site
	$(BIN)/podpages render examples --out site --site-url $(EXAMPLE_URL)
	@echo
	@echo "Rendered. Open site/$(SEED_PAGE)index.html, or browse $(EXAMPLE_URL)/$(SEED_PAGE) after: make serve-example"

serve-example: example ## render the sample catalogue and serve site/ on 127.0.0.1 (Ctrl-C stops it)
	@echo "Serving $(EXAMPLE_URL)/$(SEED_PAGE)"
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory site $(EXAMPLE_PORT)

validate: install ## check examples/ against the contract and lint template.yaml
	$(BIN)/podpages validate examples
	SAM_CLI_TELEMETRY=0 $(BIN)/sam validate --lint --template template.yaml --region us-east-1

build: install ## sam build: the functions and the layer, which ships the package with its templates
	SAM_CLI_TELEMETRY=0 $(BIN)/sam build --template template.yaml

schemas: install ## regenerate schemas/ from the contract models
	$(BIN)/python -m podpages.contract.schemas schemas

lock: install ## re-pin the layer's requirements (layers/podpages/requirements.txt) from pyproject.toml
	rm -rf build/lock build/tested.txt
	$(PYTHON) -m venv build/lock
	@# boto3 is resolved too, so the pins suit the botocore the runtime brings, then left out of the layer.
	@# The dev venv's versions constrain it: the layer ships what the tests ran on.
	$(BIN)/pip freeze --exclude-editable > build/tested.txt
	build/lock/bin/pip install --quiet -c build/tested.txt $$($(BIN)/python -c 'import tomllib; print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))')
	{ head -n 2 layers/podpages/requirements.txt; build/lock/bin/pip freeze --exclude pip $(RUNTIME_PROVIDED:%=--exclude %); } > build/requirements.txt
	mv build/requirements.txt layers/podpages/requirements.txt
	rm -rf build/lock build/tested.txt

screenshot: install ## take docs/episode-page.png of the seed episode, served by the demo, with headless Chromium
	UPDATE_SCREENSHOT=1 $(BIN)/pytest tests/acceptance/test_browser.py

clean: ## remove site/, .aws-sam/ and build/
	rm -rf site .aws-sam build
