# The local cloud (localcloud/): the real OpenStack services in their own virtualenv.
# Included by the root Makefile (`-include mk/*.mk`); also usable alone: make -f mk/localcloud.mk cloud-venv
LOCALCLOUD_PYTHON ?= python3
LOCALCLOUD_VENV   := .venv-cloud
LOCALCLOUD_STAMP  := $(LOCALCLOUD_VENV)/.stamp-installed
LOCALCLOUD_LAUNCH := .venv/bin/stackers-localcloud

.PHONY: cloud-venv cloud-launcher cloud-test cloud-guest-agents

# Idempotent: pip runs only when the requirements changed since the stamp was written.
$(LOCALCLOUD_STAMP): localcloud/requirements.txt
	test -x $(LOCALCLOUD_VENV)/bin/python || $(LOCALCLOUD_PYTHON) -m venv $(LOCALCLOUD_VENV)
	$(LOCALCLOUD_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r localcloud/requirements.txt
	touch $@

cloud-venv: $(LOCALCLOUD_STAMP) cloud-launcher cloud-guest-agents

# Guests (stackers-localcloud --guests) run heat-agents' heat-config hooks, which PyPI ships only in
# its sdist: downloaded from the configured index (pip's own settings) and unpacked, unmodified,
# into the cloud venv's share/heat-agents; once (the stamp names the version).
HEAT_AGENTS_VERSION := 13.0.0
HEAT_AGENTS_DIR     := $(LOCALCLOUD_VENV)/share/heat-agents
HEAT_AGENTS_STAMP   := $(HEAT_AGENTS_DIR)/.stamp-$(HEAT_AGENTS_VERSION)
cloud-guest-agents: $(HEAT_AGENTS_STAMP)
$(HEAT_AGENTS_STAMP): | $(LOCALCLOUD_STAMP)
	rm -rf $(HEAT_AGENTS_DIR) $(HEAT_AGENTS_DIR).tmp
	mkdir -p $(HEAT_AGENTS_DIR).tmp/sdist
	$(LOCALCLOUD_VENV)/bin/python -m pip download --quiet --disable-pip-version-check --no-deps \
	  --no-binary :all: -d $(HEAT_AGENTS_DIR).tmp/sdist heat-agents==$(HEAT_AGENTS_VERSION)
	tar -xzf $(HEAT_AGENTS_DIR).tmp/sdist/heat_agents-$(HEAT_AGENTS_VERSION).tar.gz \
	  -C $(HEAT_AGENTS_DIR).tmp --strip-components=1
	rm -rf $(HEAT_AGENTS_DIR).tmp/sdist
	mv $(HEAT_AGENTS_DIR).tmp $(HEAT_AGENTS_DIR)
	touch $@

# A two-line launcher in the dev venv: the cloud runs on the services' own interpreter.
cloud-launcher: $(LOCALCLOUD_LAUNCH)
# The launcher lives in .venv/bin: let the dev venv be made first.
$(LOCALCLOUD_LAUNCH): | $(STAMP)
$(LOCALCLOUD_LAUNCH): mk/localcloud.mk
	test -d .venv/bin || $(LOCALCLOUD_PYTHON) -m venv .venv
	printf '%s\n' '#!/bin/sh' \
	  'root=$$(cd "$$(dirname "$$0")/../.." && pwd)' \
	  'PYTHONPATH="$$root$${PYTHONPATH:+:$$PYTHONPATH}" exec "$$root/.venv-cloud/bin/python" -m localcloud "$$@"' > $@
	chmod +x $@

# Each of CLOUD_TEST_WORKERS pytest workers starts its own cloud (with Heat) and takes whole test
# files (--dist loadfile: a file's tests share their cloud's state, in order; tests/localcloud/
# conftest.py puts the files sharing the guests' cloud in one unit and sends the units heaviest
# first, an order --no-loadscope-reorder keeps). One cloud keeps about one core busy (measured: 46% of 2 cores),
# so two side by side use the machine; the slowest durations are printed to keep the CI's time in
# view.
CLOUD_TEST_WORKERS ?= 2
CLOUD_TEST_ARGS ?= -n $(CLOUD_TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15
cloud-test: cloud-venv
	@test -x .venv/bin/pytest || { echo "cloud-test: run 'make venv' first (pytest lives in .venv)" >&2; exit 2; }
	.venv/bin/python -m pytest -p no:cacheprovider $(CLOUD_TEST_ARGS) tests/localcloud
