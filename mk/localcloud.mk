# The local cloud (localcloud/): the real OpenStack services in their own virtualenv.
# Included by the root Makefile (`-include mk/*.mk`); also usable alone: make -f mk/localcloud.mk cloud-venv
LOCALCLOUD_PYTHON ?= python3
LOCALCLOUD_VENV   := .venv-cloud
LOCALCLOUD_STAMP  := $(LOCALCLOUD_VENV)/.stamp-installed
LOCALCLOUD_LAUNCH := .venv/bin/stackers-localcloud

.PHONY: cloud-venv cloud-launcher cloud-test

# Idempotent: pip runs only when the requirements changed since the stamp was written.
$(LOCALCLOUD_STAMP): localcloud/requirements.txt
	test -x $(LOCALCLOUD_VENV)/bin/python || $(LOCALCLOUD_PYTHON) -m venv $(LOCALCLOUD_VENV)
	$(LOCALCLOUD_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r localcloud/requirements.txt
	touch $@

cloud-venv: $(LOCALCLOUD_STAMP) cloud-launcher

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

# Starts one cloud (with Heat) for the session; ~8 minutes on 2 cores.
cloud-test: cloud-venv
	@test -x .venv/bin/pytest || { echo "cloud-test: run 'make venv' first (pytest lives in .venv)" >&2; exit 2; }
	.venv/bin/python -m pytest -p no:cacheprovider tests/localcloud
