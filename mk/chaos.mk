# `make chaos`: the reliability campaign (bench/chaos.py): lifecycles under random faults, SIGKILLs,
# stacks from many processes at once and the cloud stopped mid-run, judged by the local cloud's
# ledger; every loss figure must be 0. It starts a cloud of its own (take the cloud lock on a shared
# machine). CHAOS_SCALE=k scales it (default ~15 min on 2 cores); CHAOS_ARGS passes options
# (--seed N replays a campaign). Figures: bench/results/chaos.json and bench/README.md; what it
# checks: docs/reliability.md.
CHAOS_ARGS ?=
.PHONY: chaos
chaos: cloud-venv
	$(VPY) bench/chaos.py $(CHAOS_ARGS)
