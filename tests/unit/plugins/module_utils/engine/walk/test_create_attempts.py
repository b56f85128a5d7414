# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""When a create is sent again, when what a failed create made is taken, and which failures
Heat's action_retry_limit covers (the loop itself: test_resource_tasks)."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import random

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk import create_attempts as ca
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    CloudConflict, CloudError, CloudTransient, ResourceFailure)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import (
    ResourceContext, ResourcePlugin)


class _Creating(ResourcePlugin):
    """A plugin whose creates fail as told and whose find answers as told;
    ``whole``: what its find finds after a lost answer is the whole object."""

    def __init__(self, failures, found=None, whole=False):
        self.failures = list(failures)
        self.found = found
        self.whole = whole
        self.creates = 0
        self.finds = 0

    def create(self, ctx):
        self.creates += 1
        if self.failures:
            raise self.failures.pop(0)
        return 'made-%d' % self.creates

    def find(self, ctx):
        self.finds += 1
        if isinstance(self.found, Exception):
            raise self.found
        return self.found

    def found_is_whole(self, ctx):
        return self.whole


class _NoFind(ResourcePlugin):
    def __init__(self):
        self.creates = 0

    def create(self, ctx):
        self.creates += 1
        raise CloudTransient('503')


class _Ctx(object):
    physical_id = None


def test_a_create_is_sent_again_only_when_find_proves_it_made_nothing():
    naps = []
    plugin = _Creating([CloudTransient('503'), CloudTransient('dropped')])
    assert ca.create_proven(plugin, _Ctx(), sleep=naps.append) == 'made-3'
    assert (plugin.creates, plugin.finds) == (3, 2) and naps == [1.0, 2.0]


def test_a_create_whose_thing_exists_is_not_sent_again_nor_taken_as_done():
    plugin = _Creating([CloudTransient('answer lost')], found='made-by-the-lost-one')
    ctx = _Ctx()
    with pytest.raises(CloudTransient):
        ca.create_proven(plugin, ctx, sleep=lambda s: None)
    # the next run finds it by the row's physical name, as after a kill
    assert plugin.creates == 1 and ctx.physical_id is None


def test_a_create_is_not_sent_again_when_nothing_can_be_proven():
    bare = _NoFind()                                # no find of its own
    with pytest.raises(CloudTransient):
        ca.create_proven(bare, _Ctx(), sleep=lambda s: None)
    assert bare.creates == 1
    unsure = _Creating([CloudTransient('503')], found=CloudTransient('find failed too'))
    with pytest.raises(CloudTransient, match='503'):
        ca.create_proven(unsure, _Ctx(), sleep=lambda s: None)
    assert unsure.creates == 1
    refused = _Creating([CloudError('bad', status=400)])      # not transient: never again
    with pytest.raises(CloudError, match='bad'):
        ca.create_proven(refused, _Ctx(), sleep=lambda s: None)
    assert (refused.creates, refused.finds) == (1, 0)


def test_a_conflicting_create_is_sent_again_when_nothing_was_made_and_never_adopts():
    plugin = _Creating([CloudConflict('port being bound')])
    assert ca.create_proven(plugin, _Ctx(), sleep=lambda s: None) == 'made-2'
    taken = _Creating([CloudConflict('Key pair web-key already exists')], found='web-key')
    ctx = _Ctx()
    with pytest.raises(CloudConflict):
        ca.create_proven(taken, ctx, sleep=lambda s: None)
    assert taken.creates == 1 and ctx.physical_id is None     # someone else's: not recorded


def test_create_retries_are_bounded():
    plugin = _Creating([CloudTransient('503')] * 10)
    with pytest.raises(CloudTransient):
        ca.create_proven(plugin, _Ctx(), sleep=lambda s: None)
    assert plugin.creates == ca.CREATE_RETRIES + 1


def test_a_lost_answer_takes_the_found_object_only_when_the_plugin_says_it_is_whole():
    whole = _Creating([CloudTransient('answer lost')], found='made-by-the-lost-one', whole=True)
    assert ca.create_proven(whole, _Ctx(), sleep=lambda s: None) == 'made-by-the-lost-one'
    assert (whole.creates, whole.finds) == (1, 1)
    # a conflict's find may see someone else's object: never taken, whole or not
    taken = _Creating([CloudConflict('name taken')], found='theirs', whole=True)
    with pytest.raises(CloudConflict):
        ca.create_proven(taken, _Ctx(), sleep=lambda s: None)


def test_the_plugins_say_which_found_objects_are_whole():
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS

    def whole(type_name, **props):
        ctx = ResourceContext(conn=None, stack_id='s', stack_name='st', name='r', type_name=type_name,
                              physical_name='st-r-abc', physical_id=None, properties=props)
        return PLUGINS[type_name]().found_is_whole(ctx)
    assert whole('OS::Nova::Server') and whole('OS::Cinder::Volume', size=1)
    assert not whole('OS::Cinder::Volume', backup_id='b')          # a restore is several requests
    assert whole('OS::Cinder::VolumeAttachment') and whole('OS::Neutron::RouterInterface')
    assert whole('OS::Neutron::Net') and whole('OS::Neutron::Port') and whole('OS::Neutron::Subnet')
    assert not whole('OS::Neutron::Net', tags=['mine'])            # the user's tags: a second request
    assert not whole('OS::Neutron::Net', dhcp_agent_ids=['a'])
    # a found group's rules are set by check_create_complete
    assert whole('OS::Neutron::SecurityGroup') and whole('OS::Neutron::SecurityGroup', rules=[{}])
    assert not whole('OS::Neutron::FloatingIPAssociation')
    assert not whole('OS::Heat::RandomString')                     # the base: never


def test_in_error_is_an_object_gone_to_an_error_status_only():
    ctx = ResourceContext(conn=None, stack_id='s', stack_name='st', name='r', type_name='T',
                          physical_name='p', physical_id='i', properties={}, action='CREATE')
    with pytest.raises(ResourceFailure) as went:
        ctx.in_error('ERROR', 'No valid host')
    assert ca.in_error(went.value) and str(went.value) == 'Went to status ERROR due to "No valid host"'
    assert went.value.details['kind'] == 'ResourceInError'
    with pytest.raises(ResourceFailure) as unknown:
        ctx.unknown_status('Volume create failed', 'weird')
    assert not ca.in_error(unknown.value)
    assert str(unknown.value) == 'Volume create failed - Unknown status weird due to "Unknown"'
    assert unknown.value.details['kind'] == 'ResourceUnknownStatus'
    assert not ca.in_error(ResourceFailure('bad property')) and not ca.in_error(CloudTransient('x'))


def test_retry_delay_is_heats_backoff():
    rng = random.Random(3)
    delays = [ca.retry_delay(n, rng) for n in (1, 2, 3, 5)]
    for n, delay in zip((1, 2, 3, 5), delays):
        assert 2 ** n <= delay < 2 ** n + 2


def test_settle_waits_after_a_dead_runs_record_of_a_create_only():
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
    at = 1796357823.0            # 2026-12-04T04:17:03Z
    row = ResourceRow(uuid='u', stack_id='s', name='a', role='current', type='T',
                      action='CREATE', status='IN_PROGRESS', updated_time='2026-12-04T04:17:03Z')
    assert ca.settle(row, now=lambda: at) == ca.RESUME_SETTLE          # capped
    assert ca.settle(row, now=lambda: at + 4.0) == pytest.approx(ca.RESUME_SETTLE - 3.0)
    assert ca.settle(row, now=lambda: at + 60) == 0.0
    # a create that failed saw its request end; no row, no time: nothing to wait for
    assert ca.settle(row.replace(status='FAILED'), now=lambda: at) == 0.0
    assert ca.settle(None) == 0.0 and ca.settle(row.replace(updated_time=None)) == 0.0
    assert ca.settle(row.replace(updated_time='yesterday')) == 0.0
