# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Batch front end of the Heat oracle, run with the oracle venv's Python.

    python oracle_driver.py < requests.jsonl                      # heat_offline.py
    python oracle_driver.py /path/to/heat_oracle.py < requests.jsonl   # another

Without an argument the oracle is the project's own ``heat_offline.py`` (beside
this file); a path names another oracle module with the same
``run(template_text, env, files, fake_resources)`` (the shared one, used to
check ours).

Each request line: {"id", "template_text", "params", "environments": [TEXT...],
"files", "fake_resources", "full_validate"}; ``full_validate`` asks for each
resource's own validate() too, as stack create runs it.  An oracle takes a single environment dict;
Heat's API takes several environment files and merges them server side (with
parameter_merge_strategies) before it builds the stack.  This driver does that
merge with Heat's own code, the way the engine service does for
``environment_files``, then hands the merged environment to the oracle.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import sys


def _error(phase, exc):
    return {"valid": False, "conditions": {}, "resources": {}, "outputs": {},
            "resource_properties": {}, "dependency_order": [],
            "error": {"phase": phase, "type": type(exc).__name__,
                      "message": str(exc)}}


def _merged_environment(req):
    from heat.common import environment_format
    from heat.common import environment_util
    from heat.common import template_format
    from heat.engine import template as heat_template

    env = {"parameters": dict(req.get("params") or {})}
    environment_format.default_for_missing(env)
    texts = req.get("environments") or []
    if not texts:
        return env
    files = dict(req.get("files") or {})
    # A template Heat cannot even parse is reported by the oracle itself.
    try:
        tmpl = heat_template.Template(template_format.parse(req["template_text"]),
                                      files=files)
        schemata = tmpl.all_param_schemata(files)
    except Exception:  # noqa: BLE001 - the oracle reports it
        return env
    names = []
    for index, text in enumerate(texts):
        name = "env%d.yaml" % index
        files[name] = text
        names.append(name)
    environment_util.merge_environments(names, files, env, schemata)
    return env


def _oracle(argv):
    """The oracle's answering function: ours, or the module a path names."""
    if not argv:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import heat_offline
        return heat_offline.answer
    script = os.path.abspath(argv[0])
    sys.path.insert(0, os.path.dirname(script))
    module = __import__(os.path.splitext(os.path.basename(script))[0])
    return module.run


def main(argv):
    run = _oracle(argv)

    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        # A request may ask for Heat's full validation (each resource's own
        # validate(), as at stack create), which both oracles read from here.
        if req.get("full_validate"):
            os.environ["HEAT_ORACLE_FULL_VALIDATE"] = "1"
        else:
            os.environ.pop("HEAT_ORACLE_FULL_VALIDATE", None)
        try:
            env = _merged_environment(req)
        except Exception as exc:  # noqa: BLE001 - every failure is an answer
            out = _error("environment", exc)
        else:
            try:
                out = run(req["template_text"], env,
                          req.get("files"), req.get("fake_resources"))
            except Exception as exc:  # noqa: BLE001
                out = _error("oracle", exc)
        out.pop("timing_s", None)
        out.pop("dependency_order", None)
        out["id"] = req.get("id")
        sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
