# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The heat_stacks inventory plugin documents exactly the options it reads (the modules' wait and
timeout mean nothing to it), and hands its hostnames to engine/read/inventory.py."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import re
import subprocess

from ansible_collections.stackers.orchestration.plugins.inventory import heat_stacks
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import inventory as read

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
# what ansible's fragments bring, which BaseInventoryPlugin, Constructable and Cacheable read
ANSIBLE_OWN = {'strict', 'compose', 'groups', 'keyed_groups', 'leading_separator', 'use_extra_vars',
               'cache', 'cache_plugin', 'cache_timeout', 'cache_connection', 'cache_prefix'}


def _documented():
    out = subprocess.run([os.path.join(ROOT, '.venv', 'bin', 'ansible-doc'), '--json', '-t', 'inventory',
                          'stackers.orchestration.heat_stacks'], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, check=True)
    return set(json.loads(out.stdout)['stackers.orchestration.heat_stacks']['doc']['options'])


def _read_by_the_plugin():
    with open(heat_stacks.__file__) as f:
        source = f.read()
    return set(re.findall(r"get_option\('(\w+)'\)", source)) | set(heat_stacks.AUTH_OPTIONS)


def test_the_plugin_documents_only_the_options_it_reads():
    documented = _documented()
    assert 'wait' not in documented and 'timeout' not in documented
    assert documented - ANSIBLE_OWN - {'plugin'} == _read_by_the_plugin() - ANSIBLE_OWN


def test_hostnames_choices_are_the_engines():
    with open(heat_stacks.__file__) as f:
        source = f.read()
    assert 'choices: [%s]' % ', '.join(read.HOSTNAMES) in source
