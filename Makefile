# stackers.orchestration: everything runs from the repository root, inside .venv.
#   make venv     .venv with the collection's, the tests' and the linters' requirements (idempotent)
#   make test     units + sanity + lint + conformance + local cloud + compat-units (what .ci/run calls)
#   make demo     start the local cloud and run the main job against it (validate, strict, with the cloud)
#   make bench    run the benchmarks (bench/*.py) and print their tables
#   make chaos    the reliability campaign: faults, kills, concurrency, an outage (mk/chaos.mk)
#   make compat   unit tests and demo at the lowest and the newest supported versions (mk/compat.mk)
#   make clean    remove build and test output (distclean also removes .venv)
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON  ?= python3
VENV    := .venv
VPY     := $(VENV)/bin/python
VBIN    := $(CURDIR)/$(VENV)/bin
REQS    := requirements.txt requirements-dev.txt
# The stamp's name carries a hash of the requirement files: a change in them
# (and only that) makes the next `make venv` run pip again.
REQ_HASH := $(shell cat $(REQS) 2>/dev/null | sha256sum | cut -c1-16)
STAMP   := $(VENV)/.stamp-$(REQ_HASH)
# The repository seen as the collection stackers.orchestration (ansible.cfg's
# collections_path points at .build); the root conftest.py makes the same link.
COLLECTION_LINK := .build/ansible_collections/stackers/orchestration
# pytest exits 5 when it collected no test: not a failure for these targets.
PYTEST_NO_TESTS_OK := || test $$? -eq 5

.PHONY: help venv test test-checks units sanity lint conformance demo bench clean distclean

help:
	@sed -n 's/^#   //p' $(firstword $(MAKEFILE_LIST))

# The local cloud's own virtualenv (.venv-cloud, mk/localcloud.mk) is part of
# `make venv`: tests, benchmarks and the demo need it.
venv: $(STAMP) $(COLLECTION_LINK) cloud-venv

$(STAMP):
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] < (3, 11))' \
	  || { echo "make venv: Python >= 3.11 is needed (ansible-core 2.19); set PYTHON=..." >&2; exit 1; }
	test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --disable-pip-version-check -r requirements.txt -r requirements-dev.txt
	rm -f $(VENV)/.stamp-*
	touch $@

$(COLLECTION_LINK):
	mkdir -p $(dir $@)
	ln -sfn ../../.. $@

# The checks that need no cloud run two at a time (each is mostly one process: together they
# keep both cores busy, and --output-sync keeps each one's output in one piece); the local-cloud
# tests then get the machine to themselves (their two clouds keep both cores busy, and their
# waits are timed). Every part runs even when an earlier one fails, as under make -k.
test:
	@status=0; \
	$(MAKE) --no-print-directory -k -j2 --output-sync=target test-checks || status=$$?; \
	$(MAKE) --no-print-directory -k cloud-test || status=$$?; \
	exit $$status

test-checks: units sanity lint conformance

units: venv
	$(VPY) -m pytest tests/unit $(PYTEST_NO_TESTS_OK)

# ansible-test sanity on a copy of the collection (see .ci/sanity for how, and
# for the tests it skips here: shellcheck when the binary is missing, pslint
# which needs PowerShell).
# SANITY_ARGS narrows it, e.g. make sanity SANITY_ARGS="--test pep8 plugins/modules/" (directories end in /).
sanity: venv
	.ci/sanity $(SANITY_ARGS)

# ansible-lint on the playbooks, then the layers of plugins/ (.importlinter,
# docs/architecture.md) on the package as Ansible imports it from .build.
lint: venv
	cd $(CURDIR) && PATH="$(VBIN):$$PATH" $(VBIN)/ansible-lint --offline $(wildcard playbooks roles)
	cd $(CURDIR) && PYTHONPATH=$(CURDIR)/.build $(VBIN)/lint-imports --no-cache

# Differential tests against real Heat's verdicts. mk/conformance.mk owns the
# real target (it builds the oracle's venv first); this stand-in only runs
# while that file is absent.
ifeq ($(wildcard mk/conformance.mk),)
conformance: venv
	@if [ -d tests/conformance ]; then \
	  echo "$(VPY) -m pytest tests/conformance"; \
	  $(VPY) -m pytest tests/conformance $(PYTEST_NO_TESTS_OK); \
	else echo "conformance: no tests/conformance yet"; fi
endif

demo: venv
	PATH="$(VBIN):$$PATH" tools/demo.sh

# (bench/chaos*.py is `make chaos`, mk/chaos.mk: a campaign, not a benchmark)
# .venv-compat-low: the 10,000-resource stack is run again on the lowest supported openstacksdk
bench: venv compat-venv-low
	@found=0; for script in bench/*.py; do \
	  [ -f "$$script" ] || continue; case "$$script" in bench/chaos*) continue;; esac; found=1; \
	  echo "== $$script"; $(VPY) "$$script" || exit $$?; \
	done; [ $$found = 1 ] || echo "bench: no bench/*.py yet"

clean:
	rm -rf .build tests/output .hypothesis .pytest_cache
	find . -path ./.venv -prune -o -path './.venv-*' -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
	rm -f stackers-orchestration-*.tar.gz

distclean: clean
	rm -rf $(VENV)

# Other parts add their own targets in mk/*.mk (the local cloud, the oracle,
# ...). A part whose environment `make venv` must also build says so there
# with a prerequisite line, e.g. `venv: cloud-venv`.
-include mk/*.mk
