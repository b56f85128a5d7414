# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Where the unit tests that check a table against Heat itself find it: the project's Heat 27.0.1
(`make heat-venv`, the conformance oracle's venv, or HEAT_ORACLE_PYTHON) and the shared corpus
beside the clone (../shared, or STACKERS_SHARED_DIR; HEAT_CORPUS names the corpus itself)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import glob
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
HEAT_VENV = os.path.join(ROOT, '.heat-venv')
HEAT_PYTHON = os.environ.get('HEAT_ORACLE_PYTHON') or os.path.join(HEAT_VENV, 'bin', 'python')
NO_HEAT = 'needs Heat 27.0.1 in .heat-venv: run `make heat-venv` (or set HEAT_ORACLE_PYTHON)'
CORPUS = os.environ.get('HEAT_CORPUS') or os.path.join(
    os.environ.get('STACKERS_SHARED_DIR') or os.path.join(os.path.dirname(ROOT), 'shared'),
    'corpus', 'heat-templates')
NO_CORPUS = 'needs ../shared/corpus/heat-templates, which is not part of the project'


def heat_entry_points():
    """The entry_points.txt of the openstack-heat that HEAT_PYTHON runs, or None."""
    prefix = os.path.dirname(os.path.dirname(HEAT_PYTHON))
    found = sorted(glob.glob(os.path.join(prefix, 'lib', 'python*', 'site-packages',
                                          'openstack_heat-*.dist-info', 'entry_points.txt')))
    return found[-1] if found else None
