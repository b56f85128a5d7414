# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One guest: `python -m localcloud.guest_main GUEST_DIR` runs the user data in GUEST_DIR.

Started by guests.start (from Nova's fake driver) in a process group of its own, cwd the guest's
root (GUEST_DIR/root), with GUEST_DIR/user-data holding the decoded user data.  It does what
cloud-init would, in this order: Heat's x-cfninitdata parts are written to
/var/lib/heat-cfntools/<filename> (what Heat's part-handler does), then every cloud-config's
`write_files`, its `runcmd` entries, the shell script parts (Heat's loguserdata.py: its work, the
user's cfn-userdata run, done under the root); boothooks, part-handlers and other
cloud-config keys are skipped (logged).  When the user data brought a cfn-init-data (Heat's
SOFTWARE_CONFIG and HEAT_CFNTOOLS formats), this process then becomes os-collect-config, which
polls until the guest is stopped.  Everything it runs logs to GUEST_DIR/guest.log; each step's
outcome is a JSON line in GUEST_DIR/steps.jsonl.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import subprocess
import sys
import time

from localcloud import guest_agent
from localcloud import guest_data
from localcloud.guest_data import host_path

STEP_TIMEOUT = 600
# Heat's HEAT_CFNTOOLS user data: the user's text is the x-cfninitdata part cfn-userdata, run by
# Heat's script part loguserdata.py, which works on this machine's /var/lib/heat-cfntools and
# /var/log; the guest does its work in the guest's root instead (run_cfn_userdata)
HEAT_LOGUSERDATA = 'loguserdata.py'


class Guest(object):

    def __init__(self, guest_dir):
        self.dir = os.path.abspath(guest_dir)
        self.root = os.path.join(self.dir, 'root')
        self.tools_bin = os.path.dirname(os.path.abspath(sys.executable))
        self.env = guest_agent.environ(self.root, self.tools_bin, os.environ)
        self.env['LOCALCLOUD_GUEST_DIR'] = self.dir
        self.execve = os.execve      # the unit tests look at what would run instead

    def record(self, step, **info):
        info.update(step=step, time=time.time())
        with open(os.path.join(self.dir, 'steps.jsonl'), 'a') as f:
            f.write(json.dumps(info) + '\n')

    def run(self, step, argv):
        """Run one command in the guest's root; its output goes to the guest's log."""
        try:
            proc = subprocess.run(argv, cwd=self.root, env=self.env, stdin=subprocess.DEVNULL,
                                  timeout=STEP_TIMEOUT, check=False)
            code = proc.returncode
        except (OSError, subprocess.SubprocessError) as exc:
            print('localcloud-guest: %s: %s' % (step, exc), file=sys.stderr, flush=True)
            code = None
        self.record(step, argv=argv, returncode=code)
        return code

    def write_part_files(self, part):
        """Heat's part-handler: an x-cfninitdata part goes to /var/lib/heat-cfntools/<filename>
        (and /var/lib/cloud/data/<filename>, as it also writes)."""
        name = os.path.basename(part.filename or 'cfn-userdata')
        for d in ('/var/lib/heat-cfntools', '/var/lib/cloud/data'):
            path = host_path(self.root, d + '/' + name)
            os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
            with open(path, 'w') as f:
                f.write(part.payload)
        self.record('cfninitdata', filename=name)

    def write_files(self, cfg):
        for entry in guest_data.write_files(cfg):
            path = host_path(self.root, entry['path'])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'ab' if entry['append'] else 'wb') as f:
                f.write(entry['data'])
            os.chmod(path, entry['mode'])
            self.record('write_files', path=entry['path'], host_path=path)

    def run_script(self, index, part):
        path = host_path(self.root, '/var/lib/cloud/instance/scripts/part-%03d' % index)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(part.payload)
        os.chmod(path, 0o700)
        return self.run('script', [path])

    def run_cfn_userdata(self):
        """What Heat's loguserdata.py does, under the root: make cfn-userdata executable, run it,
        then touch provision-finished when it succeeded."""
        path = host_path(self.root, '/var/lib/heat-cfntools/cfn-userdata')
        if not os.path.exists(path):
            self.record('skipped', kind='shell', filename=HEAT_LOGUSERDATA)
            return None
        os.chmod(path, 0o700)
        code = self.run('cfn-userdata', [path])
        if code == 0:
            with open(host_path(self.root, '/var/lib/heat-cfntools/provision-finished'), 'a'):
                pass
        return code

    def main(self):
        os.makedirs(self.root, exist_ok=True)
        for d in ('/tmp', '/root'):
            os.makedirs(host_path(self.root, d), exist_ok=True)
        with open(os.path.join(self.dir, 'user-data'), 'rb') as f:
            parts = guest_data.parts(f.read())
        configs = []
        for part in parts:
            if part.kind == 'cfninitdata':
                self.write_part_files(part)
            elif part.kind == 'cloud-config':
                configs.append(guest_data.cloud_config(part.payload))
        for cfg in configs:
            self.write_files(cfg)
            ignored = sorted(set(cfg) - {'write_files', 'runcmd'})
            if ignored:
                self.record('cloud-config', ignored=ignored)
        for cfg in configs:
            for argv in guest_data.runcmd(cfg):
                self.run('runcmd', argv)
        for index, part in enumerate(parts):
            if part.kind == 'shell' and part.filename == HEAT_LOGUSERDATA:
                self.run_cfn_userdata()
            elif part.kind == 'shell':
                self.run_script(index, part)
            elif part.kind not in ('cfninitdata', 'cloud-config'):
                self.record('skipped', kind=part.kind, filename=part.filename)
        self.record('user-data-done')
        init_data = host_path(self.root, guest_agent.CFN_INIT_DATA)
        if os.path.exists(init_data):
            self.exec_agents(init_data)
        return 0

    def exec_agents(self, init_data):
        """Become os-collect-config, fed by the cfn-init-data (and the request collector)."""
        try:
            with open(init_data) as f:
                metadata = json.load(f)
        except ValueError:
            metadata = {}
        occ = metadata.get('os-collect-config') if isinstance(metadata, dict) else None
        hooks = guest_agent.install(self.root)
        argv, config_file = guest_agent.collect_config_args(self.root, occ, self.tools_bin)
        if not os.path.exists(config_file):
            os.makedirs(os.path.dirname(config_file), exist_ok=True)
            with os.fdopen(os.open(config_file, os.O_CREAT | os.O_WRONLY, 0o600), 'w') as f:
                f.write(guest_agent.initial_config(occ))   # os-apply-config renders it again
        self.record('os-collect-config', argv=argv, hooks=hooks)
        sys.stdout.flush()
        sys.stderr.flush()
        os.chdir(self.root)
        self.execve(argv[0], argv, self.env)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print('usage: python -m localcloud.guest_main GUEST_DIR', file=sys.stderr)
        return 2
    return Guest(argv[0]).main()


if __name__ == '__main__':
    sys.exit(main())
