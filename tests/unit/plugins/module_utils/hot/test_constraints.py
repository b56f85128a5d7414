# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The custom constraint registry, the DNS and JSON checks, the checker
protocol for service constraints.  Value tables checked against Heat 27.0.1."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

import pytest

from ansible_collections.stackers.orchestration.tests.unit.heat_here import NO_HEAT, heat_entry_points
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import constraints as c

HEAT_ENTRY_POINTS = heat_entry_points()


def _heat_constraint_names():
    with open(HEAT_ENTRY_POINTS) as f:
        text = f.read()
    section = text.split('[heat.constraints]', 1)[1].split('\n[', 1)[0]
    return set(re.findall(r'^(\S+) = ', section, re.M))


@pytest.mark.skipif(HEAT_ENTRY_POINTS is None, reason=NO_HEAT)
def test_every_name_heat_registers_is_known_and_nothing_else():
    heat = _heat_constraint_names()
    ours = set(c.GENERIC_CONSTRAINTS) | set(c.SERVICE_CONSTRAINTS)
    assert ours == heat
    assert not set(c.GENERIC_CONSTRAINTS) & set(c.SERVICE_CONSTRAINTS)


@pytest.mark.parametrize('name, known, service', [
    ('ip_addr', True, False), ('nova.flavor', True, True), ('glance.image', True, True),
    ('neutron.lbaas.pool', True, True), ('foo.bar', False, False), ('Nova.Flavor', False, False),
    (['nova.flavor'], False, False), (5, False, False),
])
def test_is_known(name, known, service):
    assert c.is_known(name) is known
    assert c.is_service(name) is service


FQDN_255 = '.'.join(['a' * 63] * 4)
FQDN_256 = '.'.join(['a' * 63] * 3 + ['a' * 62, 'a'])
DNS_NAME_GOOD = [None, '', 0, [], 'openstack.org', 'openstack.org.', 'org.', 'a', 'a.123',
                 '1.2.3.4', 'a' * 63 + '.org', ('a.' * 127) + 'a', FQDN_255, FQDN_255 + '.',
                 'abc\n', 'xn--bcher-kva.example.']
DNS_NAME_BAD = ['OpenStack.org',    # Heat's rule is lower case only
                '-a.org', 'a-.org', 'a..org', '.org', 'a.123.', 'a_b.org',
                'a' * 64 + '.org', FQDN_256, 'x' * 64, 'münchen.de',
                5, ['a'], {'a': 1}]


@pytest.mark.parametrize('value', DNS_NAME_GOOD)
def test_dns_name_accepts(value):
    assert c.check_custom_constraint('dns_name', value) is c.CHECKED


@pytest.mark.parametrize('value', DNS_NAME_BAD)
def test_dns_name_refuses(value):
    with pytest.raises(c.ConstraintViolation):
        c.check_custom_constraint('dns_name', value)


REL_252 = '.'.join(['a' * 63] * 3 + ['a' * 60])
REL_GOOD = [None, '', 'myvm.openstack', 'a', REL_252, 'a.123']
REL_BAD = ['myvm.openstack.', REL_252 + 'a', '-a', 'A', 5, ['a']]
DOMAIN_GOOD = [None, '', 'openstack.org.', 'org.', 'a.b.c.']
DOMAIN_BAD = ['openstack.org', 'a..org.', 'a.123.', 'A.org.', 5]


@pytest.mark.parametrize('name, value, ok', (
    [('rel_dns_name', v, True) for v in REL_GOOD] + [('rel_dns_name', v, False) for v in REL_BAD]
    + [('dns_domain', v, True) for v in DOMAIN_GOOD] + [('dns_domain', v, False) for v in DOMAIN_BAD]))
def test_dns_relatives(name, value, ok):
    if ok:
        assert c.check_custom_constraint(name, value) is c.CHECKED
    else:
        with pytest.raises(c.ConstraintViolation):
            c.check_custom_constraint(name, value)


JSON_GOOD = [None, '', 0, [], '{}', '[]', '{"a": 1}', 'NaN', 'Infinity', '1', '"a"', 'null', ' {} ']
JSON_BAD = ['abc', '{', '{"a":}', "{'a': 1}", '[1,]', 5, ['{}']]


@pytest.mark.parametrize('value', JSON_GOOD)
def test_json_string_accepts(value):
    assert c.check_custom_constraint('json_string', value) is c.CHECKED


@pytest.mark.parametrize('value', JSON_BAD)
def test_json_string_refuses(value):
    with pytest.raises(c.ConstraintViolation):
        c.check_custom_constraint('json_string', value)


@pytest.mark.parametrize('name, good, bad', [
    ('ip_addr', '10.0.0.1', '10.0.0.256'),
    ('net_cidr', '10.0.0.0/24', '10.0.0/24'),
    ('ip_or_cidr', '10.0.0.0/24', '10.0.0'),
    ('mac_addr', '01:23:45:67:89:ab', '01:23:45:67:89'),
    ('iso_8601', '2050-01-01', 'Fri 13th, 2050'),
    ('expiration', '2999-01-01', '2001-01-01'),
    ('timezone', 'Europe/Paris', 'Europe/Nowhere'),
    ('cron_expression', '0 23 * * *', '0 23 * *'),
    ('dns_name', 'a.example.', 'a..example'),
    ('rel_dns_name', 'a', 'a.'),
    ('dns_domain', 'example.', 'example'),
    ('json_string', '{}', '{'),
])
def test_every_generic_constraint_through_the_entry_point(name, good, bad):
    assert c.check_custom_constraint(name, good) is c.CHECKED
    with pytest.raises(c.ConstraintViolation) as err:
        c.check_custom_constraint(name, bad)
    assert err.value.constraint == name
    assert name in str(err.value) and bad in str(err.value)


def test_violation_is_a_stackers_error_and_a_value_error():
    with pytest.raises(c.ConstraintViolation) as err:
        c.check_custom_constraint('ip_addr', 'nope')
    assert isinstance(err.value, StackersError)
    assert isinstance(err.value, ValueError)
    assert err.value.reason


@pytest.mark.parametrize('name', ['foo.bar', 'nova.flavour', 5])
def test_unknown_constraint_refuses_any_value(name):
    with pytest.raises(c.ConstraintViolation, match='no custom constraint called'):
        c.check_custom_constraint(name, 'anything')


def test_service_constraint_without_checker_is_not_checked():
    assert c.check_custom_constraint('nova.flavor', 'm1.small') is c.NOT_CHECKED
    assert not c.NOT_CHECKED
    assert repr(c.NOT_CHECKED) == 'NOT_CHECKED'


@pytest.mark.parametrize('answer, outcome', [
    (True, 'ok'), (None, 'ok'), (False, 'bad'), ('no such flavor', 'bad'),
    (c.NOT_CHECKED, 'not checked'),
])
def test_service_constraint_asks_the_checker(answer, outcome):
    asked = []

    def checker(name, value):
        asked.append((name, value))
        return answer
    if outcome == 'bad':
        with pytest.raises(c.ConstraintViolation) as err:
            c.check_custom_constraint('nova.flavor', 'm1.tiny', checker)
        assert err.value.constraint == 'nova.flavor'
        if isinstance(answer, str):
            assert answer in str(err.value) and err.value.reason == answer
    else:
        expected = c.CHECKED if outcome == 'ok' else c.NOT_CHECKED
        assert c.check_custom_constraint('nova.flavor', 'm1.tiny', checker) is expected
    assert asked == [('nova.flavor', 'm1.tiny')]


def test_checker_may_raise_its_own_violation():
    def checker(name, value):
        raise c.ConstraintViolation('flavor %s is gone' % value, constraint=name)
    with pytest.raises(c.ConstraintViolation, match='flavor m1 is gone'):
        c.check_custom_constraint('nova.flavor', 'm1', checker)


def test_generic_constraints_never_ask_the_checker():
    def checker(name, value):
        raise AssertionError('asked about %s' % name)
    assert c.check_custom_constraint('ip_addr', '1.2.3.4', checker) is c.CHECKED
