# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The range the collection declares is the range make compat tests.

requirements.txt holds the floors, meta/runtime.yml ansible-core's range,
tests/compat/low.txt and high.txt the two ends make compat installs, and the
README's "Supported versions" table shows them: a floor raised in one place
and not in the others would test (or advertise) something else."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _requirements(name):
    reqs = {}
    with open(os.path.join(ROOT, name)) as handle:
        for line in handle:
            line = line.split('#', 1)[0].strip()
            if line:
                req = Requirement(line)
                reqs[req.name.lower()] = req
    return reqs


def _pins(end):
    pins = {}
    for name, req in _requirements(os.path.join('tests', 'compat', end + '.txt')).items():
        (spec,) = req.specifier
        assert spec.operator == '==', 'tests/compat/%s.txt pins exact versions: %s' % (end, req)
        pins[name] = spec.version
    return pins


def _requires_ansible():
    with open(os.path.join(ROOT, 'meta', 'runtime.yml')) as handle:
        return SpecifierSet(yaml.safe_load(handle)['requires_ansible'])


RUNTIME = _requirements('requirements.txt')
LOW, HIGH = _pins('low'), _pins('high')


def test_both_ends_pin_every_runtime_requirement_and_ansible_core():
    assert set(LOW) == set(HIGH) == set(RUNTIME) | {'ansible-core'}


@pytest.mark.parametrize('name', sorted(RUNTIME))
def test_the_low_end_is_the_declared_floor(name):
    floors = [Version(s.version) for s in RUNTIME[name].specifier if s.operator == '>=']
    assert floors == [Version(LOW[name])]


@pytest.mark.parametrize('name', sorted(RUNTIME))
def test_the_high_end_is_inside_the_declared_range(name):
    assert RUNTIME[name].specifier.contains(HIGH[name], prereleases=False)


def test_ansible_core_ends_are_the_ends_of_requires_ansible():
    declared = _requires_ansible()
    floors = [Version(s.version) for s in declared if s.operator == '>=']
    assert floors == [Version(LOW['ansible-core'])]
    assert declared.contains(HIGH['ansible-core'])


def test_the_readme_shows_both_ends():
    with open(os.path.join(ROOT, 'README.md')) as handle:
        readme = handle.read()
    section = readme.split('## Supported versions', 1)[1].split('\n## ', 1)[0]
    rows = {m.group(1).lower(): m.group(0) for m in re.finditer(r'^\| ([\w.-]+) \|.*$', section, re.M)}
    for name in ('openstacksdk', 'keystoneauth1', 'ansible-core'):
        assert '%s / %s' % (LOW[name], HIGH[name]) in rows[name], rows.get(name)
