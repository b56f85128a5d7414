# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""meta/runtime.yml's action group names every module, so that
``module_defaults: {group/stackers.orchestration.openstack: {cloud: ...}}`` sets the
connection once for all of them (issue 15, item 5)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# modules that run on the managed hosts and take no connection options: the group's defaults
# (cloud, auth ...) would be unsupported parameters there
HOST_SIDE = ('heat_software_deployment',)


def test_the_openstack_action_group_names_every_module():
    with open(os.path.join(ROOT, 'meta', 'runtime.yml')) as f:
        runtime = yaml.safe_load(f)
    modules = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, 'plugins', 'modules'))
                     if f.endswith('.py') and f != '__init__.py' and f[:-3] not in HOST_SIDE)
    assert modules and sorted(runtime['action_groups']['openstack']) == modules
