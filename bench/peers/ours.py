# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Our engine in the peers' interface (bench/peers/__init__.py), in the two forms users meet it.

- ``Playbook``: ``ansible-playbook`` running one stackers.orchestration.heat_stack task, what a
  user runs; the wall time holds Ansible's own start and the module's (AnsiballZ) shipping, as the
  openstack.cloud playbook's does.  Compared with that peer.
- ``Engine``: ``engine.run.runner.run`` in this process, the engine's own time from the first request
  to the stack settled, as Heat's is measured from its POST to COMPLETE, and its CPU (this
  process's without the calibration's thread, ``cpu_s``), as Heat's is its process's.  Compared
  with Heat.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
import conftest  # noqa: E402,F401  (makes ansible_collections.stackers.orchestration importable)
from localcloud.playbook import StackRunner  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner    # noqa: E402
try:    # stack_bench.py's name for it (bench/ on sys.path): its Sampler is the one running
    from stack import calibration  # noqa: E402
except ImportError:    # imported as bench.peers (the unit tests)
    from bench.stack import calibration  # noqa: E402

MULTI_TIER = os.path.join(ROOT, 'tests', 'localcloud', 'stack_templates', 'multi_tier.yaml')


def _status(stack):
    return (stack or {}).get('stack_status'), (stack or {}).get('stack_status_reason')


class _Peer(object):
    """create/delete/cleanup as one heat_stack run each (``_run(name, state)``)."""

    def create(self, stack_name):
        return self._run(stack_name, 'present')

    def delete(self, stack_name):
        return self._run(stack_name, 'absent')

    def cleanup(self, stack_name):
        self._run(stack_name, 'absent')


class Engine(_Peer):
    name = 'stackers.orchestration engine (in-process runner.run)'

    def __init__(self, cloud, workdir, template=MULTI_TIER):
        self.cloud, self.template = cloud, template
        self.store = os.path.join(str(workdir), 'peer-engine.sqlite')

    def _run(self, stack_name, state):
        conn = self.cloud.sdk()
        t0, cpu0 = time.monotonic(), calibration.engine_cpu_s()
        try:
            result = runner.run(runner.StackRequest(
                stack_name, state=state, template=self.template if state == 'present' else None,
                store_path=self.store, timeout=1800), conn)
        finally:
            wall, cpu = time.monotonic() - t0, calibration.engine_cpu_s() - cpu0
            conn.close()
        status, reason = _status(result.get('stack'))
        return {'wall_s': wall, 'cpu_s': cpu, 'ok': bool(status and status.endswith('_COMPLETE')),
                'detail': '%s: %s' % (status, reason or '')}


class Playbook(_Peer):
    name = 'stackers.orchestration.heat_stack in ansible-playbook'

    def __init__(self, cloud, workdir, template=MULTI_TIER):
        self.template = template
        self.runner = StackRunner(cloud, workdir, os.path.join(str(workdir), 'peer-playbook.sqlite'))

    def _run(self, stack_name, state):
        args = {'name': stack_name, 'state': state}
        if state == 'present':
            args['template'] = self.template
        t0 = time.monotonic()
        result = self.runner.run(**args)
        wall = time.monotonic() - t0
        if result.get('failed'):
            return {'wall_s': wall, 'ok': False, 'detail': str(result.get('msg'))[:2000]}
        status, reason = _status(result.get('stack'))
        ok = state == 'absent' or bool(status and status.endswith('_COMPLETE'))
        return {'wall_s': wall, 'ok': ok, 'detail': '%s: %s' % (status, reason or ''),
                'changed': result.get('changed')}
