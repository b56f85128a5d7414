# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.security_group import (
    STATEFUL_EXT, SecurityGroup, SecurityGroupRule, rule_key)

SG = 'aaaaaaaa-0000-0000-0000-000000000001'
OTHER = 'aaaaaaaa-0000-0000-0000-000000000002'
DEFAULT_RULES = [
    {'id': 'e4', 'direction': 'egress', 'ethertype': 'IPv4', 'security_group_id': SG},
    {'id': 'e6', 'direction': 'egress', 'ethertype': 'IPv6', 'security_group_id': SG}]


def test_create_with_an_egress_rule_drops_the_default_egress_rules(make_ctx, conn, obj):
    conn.network.create_security_group.return_value = obj(id=SG, tags=[], security_group_rules=DEFAULT_RULES)
    conn.network.create_security_group_rules.return_value = iter([])
    ctx = make_ctx('OS::Neutron::SecurityGroup', {'rules': [
        {'direction': 'egress', 'protocol': 'udp', 'port_range_min': 53, 'port_range_max': 53},
        {'remote_mode': 'remote_group_id'}]})
    assert SecurityGroup().create(ctx) == SG
    conn.network.create_security_group.assert_called_once_with(name='st-res-abc')
    assert sorted(c[0][0] for c in conn.network.delete_security_group_rule.call_args_list) == ['e4', 'e6']
    conn.network.get_security_group.assert_not_called()   # the POST answered the rules
    (rules,), _kw = conn.network.create_security_group_rules.call_args
    assert rules == [
        {'direction': 'egress', 'ethertype': 'IPv4', 'protocol': 'udp', 'port_range_min': '53',
         'port_range_max': '53', 'remote_group_id': None, 'remote_ip_prefix': None, 'security_group_id': SG},
        {'direction': 'ingress', 'ethertype': 'IPv4', 'protocol': None, 'port_range_min': None,
         'port_range_max': None, 'remote_group_id': SG, 'remote_ip_prefix': None, 'security_group_id': SG}]


def test_create_with_only_ingress_rules_keeps_the_defaults(make_ctx, conn, obj):
    conn.network.create_security_group.return_value = obj(id=SG, tags=[], security_group_rules=DEFAULT_RULES)
    ctx = make_ctx('OS::Neutron::SecurityGroup', {'rules': [{'protocol': 'icmp'}]})
    SecurityGroup().create(ctx)
    conn.network.delete_security_group_rule.assert_not_called()
    assert len(conn.network.create_security_group_rules.call_args[0][0]) == 1


def test_stateful_needs_the_extension(make_ctx, conn, obj):
    ctx = make_ctx('OS::Neutron::SecurityGroup', {'stateful': False})
    with pytest.raises(ResourceFailure, match='does not support stateless'):
        SecurityGroup().create(ctx)
    sdk._REMEMBERED.pop(conn, None)   # another run: extensions read again
    conn.network.extensions.return_value = [obj(alias=STATEFUL_EXT)]
    conn.network.create_security_group.return_value = obj(id=SG, tags=[], security_group_rules=[])
    ctx = make_ctx('OS::Neutron::SecurityGroup', {'stateful': False})
    SecurityGroup().create(ctx)
    assert conn.network.create_security_group.call_args[1]['stateful'] is False


def test_update_syncs_rules_by_heat_key(make_ctx, conn, obj):
    ingress_tcp = {'id': 'i1', 'direction': 'ingress', 'ethertype': 'IPv4', 'protocol': 'tcp',
                   'port_range_min': 22, 'port_range_max': 22, 'security_group_id': SG}
    conn.network.get_security_group.return_value = obj(id=SG, security_group_rules=[ingress_tcp, DEFAULT_RULES[0]])
    ctx = make_ctx('OS::Neutron::SecurityGroup', {'rules': [{'protocol': 'icmp'}], 'description': 'd'},
                   physical_id=SG, old={'rules': [{'protocol': 'tcp', 'port_range_min': 22, 'port_range_max': 22}]})
    SecurityGroup().update(ctx)
    conn.network.update_security_group.assert_called_once_with(SG, description='d')
    conn.network.delete_security_group_rule.assert_called_once_with('i1')
    created = conn.network.create_security_group_rules.call_args[0][0]
    # icmp plus the missing IPv6 default egress (no egress rule is wanted)
    assert sorted((r['direction'], r['ethertype'], r.get('protocol')) for r in created) == [
        ('egress', 'IPv6', None), ('ingress', 'IPv4', 'icmp')]


def test_stateful_change_refused_while_ports_use_the_group(make_ctx, conn, obj):
    conn.network.ports.return_value = [obj(id='p')]
    ctx = make_ctx('OS::Neutron::SecurityGroup', {'stateful': False}, physical_id=SG, old={'stateful': True})
    with pytest.raises(ResourceFailure, match='attached to ports'):
        SecurityGroup().update(ctx)
    conn.network.ports.assert_called_once_with(security_group_ids=[SG])


def test_delete_is_one_request_and_drift_compares_rules(make_ctx, conn):
    ctx = make_ctx('OS::Neutron::SecurityGroup', {'name': 'g'}, physical_id=SG)
    SecurityGroup().delete(ctx)
    conn.network.delete_security_group.assert_called_once_with(SG)
    live = {'name': 'g', 'tags': [], 'security_group_rules': DEFAULT_RULES}
    assert SecurityGroup().drift(ctx, live) == []
    # a cloud without the default allow-all egress pair is no drift...
    assert SecurityGroup().drift(ctx, dict(live, security_group_rules=[])) == []
    # ...but a rule the template asks for missing, or one it does not ask for, is
    ctx.properties['rules'] = [{'direction': 'ingress', 'protocol': 'icmp', 'ethertype': 'IPv4'}]
    assert SecurityGroup().drift(ctx, live) == ['rules']
    icmp = dict(DEFAULT_RULES[0], direction='ingress', protocol='icmp', ethertype='IPv4')
    assert SecurityGroup().drift(ctx, dict(live, security_group_rules=[icmp])) == []
    assert SecurityGroup().drift(ctx, dict(live, security_group_rules=[icmp, dict(icmp, protocol='udp')])) == ['rules']
    assert SecurityGroup().attributes(ctx, live) == {'show': live}


def test_rule_create_and_find(make_ctx, conn, obj):
    conn.network.security_groups.return_value = [obj(id=SG)]
    conn.network.create_security_group_rule.return_value = obj(id='r1')
    ctx = make_ctx('OS::Neutron::SecurityGroupRule', {
        'security_group': 'web', 'remote_group': OTHER, 'port_range_min': 80, 'port_range_max': 80})
    assert SecurityGroupRule().create(ctx) == 'r1'
    conn.network.create_security_group_rule.assert_called_once_with(
        security_group_id=SG, remote_group_id=OTHER, direction='ingress', ethertype='IPv4',
        protocol='tcp', port_range_min='80', port_range_max='80')
    conn.network.set_tags.assert_not_called()   # rules carry no tags
    assert SecurityGroupRule().create_later(ctx) is None
    conn.network.security_group_rules.return_value = [
        obj(id='x', direction='ingress', ethertype='IPv4', protocol='tcp', port_range_min=22,
            port_range_max=22, security_group_id=SG),
        obj(id='r1', direction='ingress', ethertype='IPv4', protocol='tcp', port_range_min=80,
            port_range_max=80, remote_group_id=OTHER, security_group_id=SG)]
    assert SecurityGroupRule().find(ctx) == 'r1'


def test_rule_key_compares_as_strings():
    assert rule_key({'port_range_min': 22}) == rule_key({'port_range_min': '22'})


def test_the_name_default_is_refused(make_ctx, conn):
    with pytest.raises(ResourceFailure, match='cannot be assigned the name "default"'):
        SecurityGroup().create(make_ctx('OS::Neutron::SecurityGroup', {'name': 'default'}))
    conn.network.create_security_group.assert_not_called()


def test_rules_whose_post_failed_are_set_when_the_group_is_checked(make_ctx, conn, obj):
    """The group is made but its rules' POST meets a 503 (or loses its answer): create gives the
    group; check_create_complete reads what the group holds and adds only what is missing (a
    lost answer's rules are there: nothing is posted twice).  A group taken after its own POST's
    answer was lost (found) is completed the same way."""
    from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.cinder.cinder_fakes import http
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.security_group import RULES_SET
    sdk_retries = sdk.RETRIES
    sdk.RETRIES = 0
    try:
        conn.network.create_security_group.return_value = obj(id=SG, tags=[], security_group_rules=DEFAULT_RULES)
        conn.network.create_security_group_rules.side_effect = [http(503, 'injected'), iter([])]
        ctx = make_ctx('OS::Neutron::SecurityGroup', {'rules': [{'protocol': 'icmp'}]})
        assert SecurityGroup().create(ctx) == SG and RULES_SET not in ctx.data
        ctx.physical_id = SG
        conn.network.get_security_group.return_value = obj(id=SG, status=None, security_group_rules=DEFAULT_RULES)
        assert SecurityGroup().check_create_complete(ctx) is True
        assert [r['protocol'] for r in conn.network.create_security_group_rules.call_args[0][0]] == ['icmp']
        assert ctx.data[RULES_SET] is True
        # its rules there already (the POST's answer was lost): nothing is posted again
        conn.network.create_security_group_rules.reset_mock()
        icmp = {'id': 'i', 'direction': 'ingress', 'ethertype': 'IPv4', 'protocol': 'icmp', 'security_group_id': SG}
        conn.network.get_security_group.return_value = obj(id=SG, security_group_rules=DEFAULT_RULES + [icmp])
        found = make_ctx('OS::Neutron::SecurityGroup', {'rules': [{'protocol': 'icmp'}]}, physical_id=SG)
        assert SecurityGroup().found_is_whole(found)
        assert SecurityGroup().check_create_complete(found) is True
        conn.network.create_security_group_rules.assert_not_called()
    finally:
        sdk.RETRIES = sdk_retries


def test_a_rule_that_appears_while_the_group_is_completed_is_not_posted_twice(make_ctx, conn, obj):
    """A rerun after a SIGKILL reads the group, then the dead run's rules POST (still in flight)
    lands: our POST meets "rule already exists" (409).  Neutron's bulk create is all or nothing,
    so the group is read again and only what is still missing would be posted; a second conflict
    is the cloud's answer."""
    from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.cinder.cinder_fakes import http
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudConflict
    icmp = {'id': 'i', 'direction': 'ingress', 'ethertype': 'IPv4', 'protocol': 'icmp', 'security_group_id': SG}
    exists = 'Security group rule already exists. Rule id is i.'
    conn.network.get_security_group.side_effect = [
        obj(id=SG, status=None, security_group_rules=DEFAULT_RULES),
        obj(id=SG, status=None, security_group_rules=DEFAULT_RULES + [icmp]),
        obj(id=SG, status=None, security_group_rules=DEFAULT_RULES + [icmp])]
    conn.network.create_security_group_rules.side_effect = [http(409, exists)]
    ctx = make_ctx('OS::Neutron::SecurityGroup', {'rules': [{'protocol': 'icmp'}]}, physical_id=SG)
    assert SecurityGroup().check_create_complete(ctx) is True
    assert conn.network.create_security_group_rules.call_count == 1
    conn.network.get_security_group.side_effect = None
    conn.network.get_security_group.return_value = obj(id=SG, status=None, security_group_rules=DEFAULT_RULES)
    conn.network.create_security_group_rules.side_effect = [http(409, exists), http(409, exists)]
    again = make_ctx('OS::Neutron::SecurityGroup', {'rules': [{'protocol': 'icmp'}]}, physical_id=SG)
    with pytest.raises(CloudConflict, match='already exists'):
        SecurityGroup().check_create_complete(again)


def test_rules_whose_second_post_meets_a_5xx_are_read_again_and_posted_once_more(make_ctx, conn, obj):
    """The chaos campaign's one failure of this kind: the group's rules POST failed at create, and
    the POST that completes them at check_create_complete met a 503 too.  Its rules may or may not
    be made (bulk create is all or nothing): the group is read again and only what is missing is
    posted, once; a third failure is the cloud's answer, naming it."""
    from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.cinder.cinder_fakes import http
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudTransient
    sdk_retries = sdk.RETRIES
    sdk.RETRIES = 0
    try:
        conn.network.get_security_group.return_value = obj(id=SG, status=None, security_group_rules=DEFAULT_RULES)
        conn.network.create_security_group_rules.side_effect = [http(503, 'injected'), iter([])]
        ctx = make_ctx('OS::Neutron::SecurityGroup', {'rules': [{'protocol': 'icmp'}]}, physical_id=SG)
        assert SecurityGroup().check_create_complete(ctx) is True
        assert conn.network.create_security_group_rules.call_count == 2
        assert conn.network.get_security_group.call_count == 2
        # the 503's request made the rule after all: the second read shows it, nothing is posted
        icmp = {'id': 'i', 'direction': 'ingress', 'ethertype': 'IPv4', 'protocol': 'icmp', 'security_group_id': SG}
        conn.network.create_security_group_rules.reset_mock()
        conn.network.get_security_group.side_effect = [
            obj(id=SG, status=None, security_group_rules=DEFAULT_RULES),
            obj(id=SG, status=None, security_group_rules=DEFAULT_RULES + [icmp])]
        conn.network.create_security_group_rules.side_effect = [http(503, 'injected')]
        made = make_ctx('OS::Neutron::SecurityGroup', {'rules': [{'protocol': 'icmp'}]}, physical_id=SG)
        assert SecurityGroup().check_create_complete(made) is True
        assert conn.network.create_security_group_rules.call_count == 1
        conn.network.get_security_group.side_effect = None
        conn.network.create_security_group_rules.side_effect = [http(503, 'injected'), http(503, 'injected')]
        again = make_ctx('OS::Neutron::SecurityGroup', {'rules': [{'protocol': 'icmp'}]}, physical_id=SG)
        with pytest.raises(CloudTransient, match='injected'):
            SecurityGroup().check_create_complete(again)
    finally:
        sdk.RETRIES = sdk_retries
