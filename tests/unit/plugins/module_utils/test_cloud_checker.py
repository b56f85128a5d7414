# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""module_utils/cloud_checker.py: the cloud checker for service constraints."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils import cloud_checker
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.constraints import (
    CHECKED,
    NOT_CHECKED,
    ConstraintViolation,
    check_custom_constraint,
    is_service,
)
from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.keystone import (
    keystone_fakes)


class FakeProxy(object):
    def __init__(self, known, calls):
        self.known = known
        self.calls = calls

    def __getattr__(self, finder):
        def find(value, ignore_missing=False):
            self.calls.append((finder, value, ignore_missing))
            return {'id': value} if value in self.known else None
        return find


class FakeConn(object):
    def __init__(self, known=()):
        self.calls = []
        self.compute = self.image = self.network = FakeProxy(set(known), self.calls)


@pytest.mark.parametrize('name, value, outcome', [
    ('nova.flavor', 'm1.tiny', True),
    ('glance.image', 'cirros', True),
    ('neutron.network', 'public', True),
    ('nova.flavor', 'm9.huge', 'The Flavor (m9.huge) could not be found.'),
    ('glance.image', 'nope', 'The Image (nope) could not be found.'),
    ('neutron.network', 'nonet', 'The network (nonet) could not be found.'),
    ('designate.zone', 'example.org.', NOT_CHECKED),
])
def test_cloud_checker(name, value, outcome):
    checker = cloud_checker.CloudChecker(FakeConn(known={'m1.tiny', 'cirros', 'public'}))
    assert checker(name, value) is outcome if outcome in (True, NOT_CHECKED) else checker(name, value) == outcome


def test_cloud_checker_asks_once_per_value():
    conn = FakeConn(known={'cirros'})
    checker = cloud_checker.CloudChecker(conn)
    for dummy in range(3):
        assert checker('glance.image', 'cirros') is True
        assert checker('glance.image', 'other') == 'The Image (other) could not be found.'
    assert conn.calls == [('find_image', 'cirros', True), ('find_image', 'other', True)]


@pytest.mark.parametrize('value, verdict', [
    ('cirros', CHECKED),
    ('nope', 'The Image (nope) could not be found.'),
])
def test_cloud_checker_through_the_engine(value, verdict):
    checker = cloud_checker.CloudChecker(FakeConn(known={'cirros'}))
    if verdict is CHECKED:
        assert check_custom_constraint('glance.image', value, checker=checker) is CHECKED
    else:
        with pytest.raises(ConstraintViolation) as err:
            check_custom_constraint('glance.image', value, checker=checker)
        assert verdict in str(err.value)
    assert check_custom_constraint('designate.zone', 'example.org.', checker=checker) is NOT_CHECKED


def test_every_lookup_is_a_service_constraint_heat_knows():
    assert sorted(name for name in cloud_checker._SERVICE_LOOKUPS if not is_service(name)) == []


@pytest.mark.parametrize('name, value, outcome', [
    ('keystone.role', 'member', True),
    ('keystone.project', 'web{corp}', True),           # Heat's name{domain}
    ('keystone.domain', 'default', True),
    ('keystone.region', 'RegionOne', True),
    ('keystone.role', 'nope', 'The KeystoneRole (nope) could not be found.'),
    ('keystone.project', 'web{nowhere}', 'The KeystoneProject (web{nowhere}) could not be found.'),
    ('keystone.region', 'r9', 'The KeystoneRegion (r9) could not be found.'),
    # Heat's KeystoneBaseConstraint: an empty value names nothing (no request)
    ('keystone.user', '', 'The KeystoneUser () could not be found.'),
])
def test_keystone_constraints_ask_heats_finders(name, value, outcome):
    conn = keystone_fakes.conn()
    corp = conn.fake.add('domains', name='corp', enabled=True)
    conn.fake.add('projects', name='web', domain_id=corp)
    conn.fake.add('roles', name='member')
    conn.fake.add('regions', id='RegionOne')
    assert cloud_checker.CloudChecker(conn)(name, value) == outcome
    if value == '':
        conn.identity.get.assert_not_called()
