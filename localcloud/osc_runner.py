# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The real `openstack` command, many times in one process (run by .venv-cloud's python).

Each `openstack` process spends about 1.5 s of CPU importing its plugins before it sends a
request; the tests run hundreds of them (waits poll with them). This loop imports the client once
and runs each command as the `openstack` entry point does, with a new shell every time: one JSON
line in (``{"argv": [...]}``), one JSON line out (``{"rc": n, "stdout": "...", "stderr": "..."}``).
Nothing of the client is changed; only its standard streams are swapped for each command.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import io
import json
import logging
import os
import sys

from openstackclient import shell


def run_one(argv):
    out, err = io.StringIO(), io.StringIO()
    real = sys.stdout, sys.stderr
    root = logging.getLogger()
    handlers = list(root.handlers)
    sys.stdout, sys.stderr = out, err
    try:
        try:
            # the shell reads sys.stdout/sys.stderr when it is made, as a new process's does
            rc = shell.OpenStackShell().run(argv)
        except SystemExit as exc:       # argparse's refusals exit, as they do in a process
            rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.stdout, sys.stderr = real
        # every run adds its own console handler to the root logger: leave it as it was
        for handler in list(root.handlers):
            if handler not in handlers:
                root.removeHandler(handler)
    return {'rc': rc or 0, 'stdout': out.getvalue(), 'stderr': err.getvalue()}


def main():
    # replies go out on a copy of fd 1; whatever else writes to fd 1 goes to stderr instead
    reply = os.fdopen(os.dup(1), 'w')
    os.dup2(2, 1)
    for line in sys.stdin:
        if not line.strip():
            continue
        result = run_one(json.loads(line)['argv'])
        reply.write(json.dumps(result) + '\n')
        reply.flush()


if __name__ == '__main__':
    main()
