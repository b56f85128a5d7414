# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the read-only entry points load when they start.

heat_stack_info and the heat_stacks inventory plugin read the store; on an SQLite store they call no
cloud.  Imported in a fresh Python, as AnsiballZ and ansible-inventory import them, neither may load
openstacksdk or the libraries below it (``resources/sdk.py``'s ``libraries()`` loads them with the
first connection), nor the resource plugin registry or any plugin module.  The same check on
heat_stack (which needs them all) and on a connection being made shows it sees what it looks for."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import subprocess
import sys

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BUILD = os.path.join(ROOT, '.build')
PREFIX = 'ansible_collections.stackers.orchestration.plugins.'
CLOUD_LIBRARIES = ('openstack', 'keystoneauth1', 'requests', 'urllib3')
REGISTRY = registry.__name__
PLUGIN_MODULES = frozenset(cls.__module__ for cls in registry.PLUGINS.values())
READ_ONLY = ('modules.heat_stack_info', 'inventory.heat_stacks')


def loaded(name, then=''):
    """The modules loaded by a fresh Python once it imported ``PREFIX + name`` (and ran ``then``)."""
    script = ('import json, sys\n'
              'import %s%s as entry\n'
              '%s\n'
              'print(json.dumps(sorted(sys.modules)))\n' % (PREFIX, name, then))
    env = dict(os.environ, PYTHONPATH=BUILD, PYTHONWARNINGS='ignore')
    out = subprocess.run([sys.executable, '-c', script], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=120).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def heavy(modules):
    """What of ``modules`` a store read does not need."""
    return sorted(m for m in modules if m.split('.')[0] in CLOUD_LIBRARIES
                  or m == REGISTRY or m in PLUGIN_MODULES)


@pytest.mark.parametrize('name', READ_ONLY)
def test_a_read_only_entry_point_loads_no_cloud_library_nor_plugin(name):
    modules = loaded(name)
    assert PREFIX + name in modules
    assert heavy(modules) == []


def test_the_check_sees_the_registry_and_the_cloud_libraries():
    assert len(PLUGIN_MODULES) > 30
    found = heavy(loaded('modules.heat_stack'))
    assert REGISTRY in found and PLUGIN_MODULES <= set(found)
    # a connection being made loads the cloud's libraries, through sdk.libraries() alone
    found = heavy(loaded('modules.heat_stack_info',
                         'from %smodule_utils import connection\n'
                         'assert connection.openstack_sdk() is not None' % PREFIX))
    assert set(CLOUD_LIBRARIES) <= set(found)
    assert REGISTRY not in found
