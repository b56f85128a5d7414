# The supported range, tested at both ends. Included by the root Makefile (-include mk/*.mk).
#   make compat        builds .venv-compat-low and .venv-compat-high (idempotent), then runs the unit tests
#                      and the demo in each: the lowest and the newest allowed openstacksdk, keystoneauth1
#                      and ansible-core (tests/compat/low.txt, tests/compat/high.txt)
#   make compat-units  the unit tests at the lowest versions only (part of make test, so CI runs it)
# The local cloud of the demo stays on its own .venv-cloud; only the playbooks' side changes.
COMPAT_PYTHON ?= python3
COMPAT_ENDS   := low high
# pytest, hypothesis and the bound on cryptography as requirements-dev.txt asks for them; the rest comes from requirements.txt,
# held at one end of the range by the constraints file.
COMPAT_TOOLS  := $(shell grep -E '^(pytest|hypothesis|cryptography)\b' requirements-dev.txt)
# As for .venv: the stamp's name carries a hash of what the venv is made from.
compat_hash    = $(shell cat requirements.txt tests/compat/$(1).txt mk/compat.mk 2>/dev/null | sha256sum | cut -c1-16)
compat_stamp   = .venv-compat-$(1)/.stamp-$(call compat_hash,$(1))

.PHONY: compat compat-units compat-venvs $(foreach e,$(COMPAT_ENDS),compat-venv-$(e) compat-units-$(e) compat-demo-$(e))

test-checks: compat-units

compat-venvs: $(foreach e,$(COMPAT_ENDS),compat-venv-$(e))

# One venv per end. pip installs exactly the constrained versions (up- or downgrading a venv made
# from older constraints); `pip check` then proves the set is consistent, and the versions are
# printed so a log shows what was tested.
define COMPAT_VENV_RULES
compat-venv-$(1): $(call compat_stamp,$(1))

$(call compat_stamp,$(1)):
	@$(COMPAT_PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] < (3, 11))' \
	  || { echo "make compat: Python >= 3.11 is needed; set COMPAT_PYTHON=..." >&2; exit 1; }
	test -x .venv-compat-$(1)/bin/python || $(COMPAT_PYTHON) -m venv .venv-compat-$(1)
	.venv-compat-$(1)/bin/python -m pip install --quiet --disable-pip-version-check \
	  -c tests/compat/$(1).txt -r requirements.txt ansible-core $(foreach t,$(COMPAT_TOOLS),'$(t)')
	.venv-compat-$(1)/bin/python -m pip check --disable-pip-version-check
	rm -f .venv-compat-$(1)/.stamp-*
	touch $$@

compat-units-$(1): compat-venv-$(1)
	@.venv-compat-$(1)/bin/python -m pip list --disable-pip-version-check 2>/dev/null \
	  | grep -iE '^(openstacksdk|keystoneauth1|ansible-core|requests|PyYAML|Jinja2|networkx|yaql) ' \
	  | sed 's/^/compat-$(1): /'
	.venv-compat-$(1)/bin/python -m pytest tests/unit -q $$(PYTEST_NO_TESTS_OK)

compat-demo-$(1): compat-venv-$(1) cloud-venv $(COLLECTION_LINK)
	PATH="$(CURDIR)/.venv-compat-$(1)/bin:$$$$PATH" DEMO_VENV=.venv-compat-$(1) tools/demo.sh
endef
$(foreach e,$(COMPAT_ENDS),$(eval $(call COMPAT_VENV_RULES,$(e))))

compat-units: compat-units-low

# Each end in turn, units before demo: a failure stops at the first broken end.
compat: compat-units-low compat-demo-low compat-units-high compat-demo-high
	@echo "compat: unit tests and demo passed at both ends ($(COMPAT_ENDS))"

.PHONY: compat-clean
compat-clean:
	rm -rf $(foreach e,$(COMPAT_ENDS),.venv-compat-$(e))
distclean: compat-clean
