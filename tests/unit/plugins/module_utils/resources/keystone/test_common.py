# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.keystone import _common

from .keystone_fakes import conn


def test_lookup_takes_an_id_then_a_name_as_heat_does():
    c = conn()
    dom = c.fake.add('domains', name='other', enabled=True)
    proj = c.fake.add('projects', name='web', domain_id='default')
    twin = c.fake.add('projects', name='web', domain_id=dom)
    assert _common.lookup(c, 'project', proj) == proj
    assert _common.lookup(c, 'project', 'web') in (proj, twin)
    # name{domain}: the project of that name in that domain (by the domain's name or id)
    assert _common.lookup(c, 'project', 'web{other}') == twin
    assert _common.lookup(c, 'domain', 'other') == dom
    assert _common.lookup(c, 'domain', 'default') == 'default'
    assert _common.lookup(c, 'project', None) is None


@pytest.mark.parametrize('kind, value, message', [
    ('role', 'nope', 'The KeystoneRole (nope) could not be found.'),
    ('project', 'web{nowhere}', 'The KeystoneProject (web{nowhere}) could not be found.'),
    ('region', 'r9', 'The KeystoneRegion (r9) could not be found.'),
    ('service', 'svc', 'The KeystoneService (svc) could not be found.'),
])
def test_lookup_refuses_with_heats_message(kind, value, message):
    with pytest.raises(ResourceFailure) as exc:
        _common.lookup(conn(), kind, value)
    assert exc.value.message == message


def test_a_service_name_two_services_share_is_refused():
    c = conn()
    c.fake.add('services', name='svc', type='a')
    c.fake.add('services', name='svc', type='b')
    with pytest.raises(ResourceFailure, match='more than one service with same name svc'):
        _common.lookup(c, 'service', 'svc')


def test_a_region_is_only_ever_an_id():
    c = conn()
    c.fake.add('regions', id='east', description='d')
    assert _common.lookup(c, 'region', 'east') == 'east'
    c.identity.get.reset_mock()
    assert _common.lookup(c, 'region', 'east') == 'east'       # asked once a run
    c.identity.get.assert_not_called()
