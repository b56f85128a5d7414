# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""localcloud/guest_main.py: one guest's run of its user data, in its own root."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
from email.mime import multipart, text

from localcloud import guest_main


def _guest(tmp_path, user_data):
    d = tmp_path / 'guest'
    (d / 'root').mkdir(parents=True)
    (d / 'user-data').write_bytes(user_data.encode())
    return guest_main.Guest(str(d))


def _steps(guest):
    with open(os.path.join(guest.dir, 'steps.jsonl')) as f:
        return [json.loads(line) for line in f]


def test_cloud_config_files_come_before_its_commands_and_scripts_last(tmp_path):
    ud = multipart.MIMEMultipart(_subparts=[
        text.MIMEText('#!/bin/sh\ncat etc/motd >> order.txt\necho script >> order.txt\n', 'x-shellscript'),
        text.MIMEText('#cloud-config\nwrite_files:\n  - path: /etc/motd\n    content: "file\\n"\n'
                      'runcmd:\n  - echo "cmd $HOME" >> order.txt\n  - [sh, -c, "exit 3"]\n'
                      'users: [bob]\n', 'cloud-config'),
    ]).as_string()
    guest = _guest(tmp_path, ud)
    assert guest.main() == 0
    with open(os.path.join(guest.root, 'order.txt')) as f:
        assert f.read() == 'cmd %s/root\nfile\nscript\n' % guest.root
    steps = _steps(guest)
    assert [(s['step'], s.get('returncode')) for s in steps if 'returncode' in s] == [
        ('runcmd', 0), ('runcmd', 3), ('script', 0)]
    assert [s['ignored'] for s in steps if s['step'] == 'cloud-config'] == [['users']]
    assert steps[-1]['step'] == 'user-data-done'


def test_without_cfn_init_data_no_agent_starts(tmp_path):
    guest = _guest(tmp_path, '#!/bin/sh\ntrue\n')
    ran = []
    guest.execve = lambda *args: ran.append(args)
    assert guest.main() == 0
    assert ran == []


def test_cfn_init_data_is_written_as_heats_part_handler_does_and_the_agents_take_over(tmp_path, monkeypatch):
    md = {'os-collect-config': {'request': {'metadata_url': 'http://127.0.0.1:1/md'}}}
    part = text.MIMEText(json.dumps(md), 'x-cfninitdata')
    part.add_header('Content-Disposition', 'attachment', filename='cfn-init-data')
    boothook = text.MIMEText('#!/bin/sh\ntouch /tmp/must-not-run\n', 'cloud-boothook')
    guest = _guest(tmp_path, multipart.MIMEMultipart(_subparts=[boothook, part]).as_string())
    installed = []
    monkeypatch.setattr(guest_main.guest_agent, 'install', lambda root: installed.append(root) or ['script'])
    ran = []
    guest.execve = lambda path, argv, env: ran.append((path, argv, env))
    guest.main()
    for d in ('var/lib/heat-cfntools', 'var/lib/cloud/data'):
        with open(os.path.join(guest.root, d, 'cfn-init-data')) as f:
            assert json.load(f) == md
    assert installed == [guest.root]
    (path, argv, env), = ran
    assert path.endswith('/os-collect-config') and argv[-1] == 'request'
    assert env['LOCALCLOUD_GUEST_DIR'] == guest.dir
    assert os.path.exists(os.path.join(guest.root, 'etc/os-collect-config.conf'))
    assert [s['kind'] for s in _steps(guest) if s['step'] == 'skipped'] == ['boothook']


def test_heat_cfntools_user_data_runs_the_users_text_under_the_root(tmp_path):
    """HEAT_CFNTOOLS: the user's text is the x-cfninitdata part cfn-userdata; Heat's loguserdata.py
    would run it from this machine's /var/lib/heat-cfntools: the guest runs it from its root."""
    def part(content, filename, subtype):
        msg = text.MIMEText(content, subtype)
        msg.add_header('Content-Disposition', 'attachment', filename=filename)
        return msg
    ud = multipart.MIMEMultipart(_subparts=[
        part('#!/bin/sh\necho provisioned > done.txt\n', 'cfn-userdata', 'x-cfninitdata'),
        part("#!/usr/bin/env python3\nopen('/var/log/heat-provision.log', 'a')\n", 'loguserdata.py',
             'x-shellscript'),
    ]).as_string()
    guest = _guest(tmp_path, ud)
    guest.execve = lambda *args: None
    guest.main()
    with open(os.path.join(guest.root, 'done.txt')) as f:
        assert f.read() == 'provisioned\n'
    assert os.path.exists(os.path.join(guest.root, 'var/lib/heat-cfntools/provision-finished'))
    assert [s['step'] for s in _steps(guest) if 'returncode' in s] == ['cfn-userdata']
