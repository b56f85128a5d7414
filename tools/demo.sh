#!/usr/bin/env bash
# make demo: start the local cloud, run the main job against it, stop the cloud.
# The main job: validate the example template as stack create would (images, flavors and networks
# looked up in the cloud), create its stack with heat_stack, rerun it (nothing changes), check it
# (stack check + plan), suspend and resume it, and delete it.
# DEMO_VENV names the virtualenv whose ansible-playbook (and so openstacksdk) runs the job: .venv by
# default; make compat sets .venv-compat-low / .venv-compat-high. The local cloud always runs on its own
# .venv-cloud, through .venv/bin/stackers-localcloud.
# DEMO_COLLECTIONS_PATH runs the job from a collection installed there (the galaxy tarball, as users
# install it: tests/localcloud/test_galaxy_install.py): its playbooks by their FQCN, from a directory
# that holds no ansible.cfg, with nothing of this checkout on the collections path.
# DEMO_CLOUDS_YAML runs it against a cloud already running (its clouds.yaml names `localcloud`).
set -euo pipefail
cd "$(dirname "$0")/.."
playbook="${DEMO_VENV:-.venv}/bin/ansible-playbook"
[ -x "$playbook" ] || { echo "demo: $playbook not found (make venv, or make compat for the compat venvs)" >&2; exit 2; }
playbook=$(cd "$(dirname "$playbook")" && pwd)/$(basename "$playbook")
work=$(mktemp -d)
cloud_pid=
cleanup() {
  if [ -n "$cloud_pid" ] && kill -0 "$cloud_pid" 2>/dev/null; then
    kill -TERM "$cloud_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$cloud_pid" 2>/dev/null || break; sleep 1; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

if [ -n "${DEMO_CLOUDS_YAML:-}" ]; then
  cp "$DEMO_CLOUDS_YAML" "$work/clouds.yaml"
else
echo "== starting the local cloud (about half a minute)"
.venv/bin/stackers-localcloud --host 127.0.0.1 --port 0 --clouds-yaml "$work/clouds.yaml" \
  > "$work/cloud.out" 2> "$work/cloud.log" &
cloud_pid=$!
for _ in $(seq 1 240); do
  grep -q ready "$work/cloud.out" 2>/dev/null && break
  kill -0 "$cloud_pid" 2>/dev/null || { echo "the local cloud exited:"; tail -40 "$work/cloud.log"; exit 1; }
  sleep 0.5
done
grep -q ready "$work/cloud.out" || { echo "the local cloud did not get ready in 120 s"; tail -40 "$work/cloud.log"; exit 1; }
grep ready "$work/cloud.out"
fi

# The playbooks: this checkout's, or the installed collection's by FQCN.
book() { echo "playbooks/$1.yml"; }
if [ -n "${DEMO_COLLECTIONS_PATH:-}" ]; then
  book() { echo "stackers.orchestration.$1"; }
  export ANSIBLE_COLLECTIONS_PATH=$(cd "$DEMO_COLLECTIONS_PATH" && pwd)
  mkdir "$work/job" && cd "$work/job"
fi

export OS_CLIENT_CONFIG_FILE="$work/clouds.yaml" ANSIBLE_NOCOLOR=1
params='{"heat_parameters": {"image": "cirros", "flavor": "m1.small", "public_network": "public"}}'
common=(-e heat_cloud=localcloud -e heat_stack_name=demo -e "heat_store_path=$work/stacks.sqlite")

echo "== validate the template as stack create would"
"$playbook" "$(book validate)" -e heat_cloud=localcloud -e heat_strict=true -e "$params"
echo "== create the stack"
"$playbook" "$(book stack)" "${common[@]}" -e "$params"
echo "== run it again: nothing to change"
"$playbook" "$(book stack)" "${common[@]}" -e "$params"
echo "== check mode: stack check and the plan of an update to m1.medium"
"$playbook" "$(book stack)" "${common[@]}" --check --diff \
  -e '{"heat_parameters": {"image": "cirros", "flavor": "m1.medium", "public_network": "public"}}'
echo "== suspend, resume"
"$playbook" "$(book suspend)" "${common[@]}"
"$playbook" "$(book resume)" "${common[@]}"
echo "== delete"
"$playbook" "$(book delete)" "${common[@]}"
