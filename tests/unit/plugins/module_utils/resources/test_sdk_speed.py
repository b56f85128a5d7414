# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""sdk_speed.py: each speedup gives what the library function it replaces gives."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import collections
import copy
import datetime
import itertools
import types
import warnings

import pytest
import requests
import requests.models
import requests.sessions
import requests.utils
from keystoneauth1 import _utils as ksa_utils
from openstack import fields, resource
from openstack.block_storage.v3.volume import Volume
from openstack.compute.v2.server import Server
from openstack.network.v2.network import Network
from openstack.network.v2.port import Port
from openstack.network.v2.security_group import SecurityGroup
from openstack.network.v2.subnet import Subnet
from requests.structures import CaseInsensitiveDict

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk_speed

PROJECT = '4c1a6b3e24a94e8bb70aa0c4c33b8e8e'
STAMP = '2026-11-30T05:56:16Z'
# Answers of the local cloud (GET of each object), as the SDK receives them.
PORT = {
    'id': 'f6616d37-9b9d-4ff8-9391-6b9c843d51a8', 'name': 'web-port',
    'network_id': 'c94578ea-50ac-4320-a488-39ef051b821a', 'project_id': PROJECT,
    'mac_address': 'fa:16:3e:58:27:7c', 'admin_state_up': True, 'status': 'DOWN', 'device_id': '',
    'device_owner': '', 'fixed_ips': [{'subnet_id': 'ec90a0dd-be57-47cd-8d9d-4a46f0fed283',
                                       'ip_address': '10.9.0.202'}],
    'allowed_address_pairs': [], 'extra_dhcp_opts': [],
    'security_groups': ['d34128bc-db4a-4cb5-ba4a-b4306989d5a2'], 'description': '',
    'binding:vnic_type': 'normal', 'port_security_enabled': True, 'qos_policy_id': None,
    'qos_network_policy_id': None, 'tags': ['stack=s1'], 'ip_allocation': 'immediate',
    'created_at': STAMP, 'updated_at': STAMP, 'revision_number': 1, 'tenant_id': PROJECT}
NETWORK = {
    'id': 'c94578ea-50ac-4320-a488-39ef051b821a', 'name': 'web-net', 'tenant_id': PROJECT,
    'project_id': PROJECT, 'admin_state_up': True, 'mtu': 1450, 'status': 'ACTIVE',
    'subnets': ['ec90a0dd-be57-47cd-8d9d-4a46f0fed283'], 'shared': False,
    'availability_zone_hints': [], 'availability_zones': [], 'ipv4_address_scope': None,
    'ipv6_address_scope': None, 'router:external': False, 'qinq': False, 'vlan_transparent': False,
    'description': '', 'port_security_enabled': True, 'qos_policy_id': None, 'tags': [],
    'l2_adjacency': True, 'created_at': STAMP, 'updated_at': STAMP, 'revision_number': 2}
SUBNET = {
    'id': 'ec90a0dd-be57-47cd-8d9d-4a46f0fed283', 'name': 'web-sub', 'project_id': PROJECT,
    'network_id': 'c94578ea-50ac-4320-a488-39ef051b821a', 'ip_version': 4, 'subnetpool_id': None,
    'enable_dhcp': True, 'gateway_ip': '10.9.0.1', 'cidr': '10.9.0.0/24',
    'allocation_pools': [{'start': '10.9.0.2', 'end': '10.9.0.254'}], 'host_routes': [],
    'dns_nameservers': [], 'description': '', 'tags': [], 'created_at': STAMP,
    'revision_number': 0, 'tenant_id': PROJECT}
SECURITY_GROUP = {
    'id': '3e1f75f3-7431-4e0a-a8f4-e2b1f5ce8619', 'name': 'web-sg', 'stateful': True,
    'tenant_id': PROJECT, 'project_id': PROJECT, 'description': '', 'shared': False,
    'security_group_rules': [{'id': 'r1', 'direction': 'ingress', 'protocol': 'tcp',
                              'port_range_min': 22, 'port_range_max': 22}],
    'tags': [], 'created_at': STAMP, 'revision_number': 0}
SERVER = {
    'accessIPv4': '', 'accessIPv6': '',
    'addresses': {'web-net': [{'version': 4, 'addr': '10.9.0.161', 'OS-EXT-IPS:type': 'fixed',
                               'OS-EXT-IPS-MAC:mac_addr': 'fa:16:3e:89:4e:08'}]},
    'created': '2026-11-30T05:56:17Z',
    'flavor': {'id': '1', 'links': [{'rel': 'bookmark', 'href': 'http://cloud/compute/flavors/1'}]},
    'hostId': 'f05248a82a56523f839de8bd417c3ab8e0b282257256f1de759962f3',
    'id': '31221de2-cadb-4591-b474-863cad2e259c',
    'image': {'id': 'ff9b88a6-c22c-40b8-b92e-5999f19885e4',
              'links': [{'rel': 'bookmark', 'href': 'http://cloud/compute/images/ff9b88a6'}]},
    'links': [{'rel': 'self', 'href': 'http://cloud/compute/v2.1/servers/31221de2'}],
    'metadata': {'role': 'web'}, 'name': 'web-1', 'status': 'ACTIVE', 'tenant_id': PROJECT,
    'user_id': 'ab886dcea8df4cf29a58cbdd2763c5b4', 'updated': '2026-11-30T05:56:19Z',
    'OS-DCF:diskConfig': 'MANUAL', 'progress': 0, 'OS-EXT-AZ:availability_zone': 'nova',
    'config_drive': '', 'key_name': None, 'OS-SRV-USG:launched_at': '2026-11-30T05:56:19.293449',
    'OS-SRV-USG:terminated_at': None, 'security_groups': [{'name': 'default'}],
    'OS-EXT-STS:task_state': None, 'OS-EXT-STS:vm_state': 'active', 'OS-EXT-STS:power_state': 1,
    'os-extended-volumes:volumes_attached': [{'id': 'v1'}]}
HEADERS = {'Date': 'Mon, 30 Nov 2026 05:56:16 GMT', 'Content-Type': 'application/json',
           'x-openstack-request-id': 'req-61380273', 'Content-Length': '642',
           'OpenStack-API-Version': 'compute 2.1', 'X-OpenStack-Nova-API-Version': '2.1',
           'Etag': 'W/"1"'}
ANSWERS = ((Port, PORT), (Network, NETWORK), (Subnet, SUBNET), (SecurityGroup, SECURITY_GROUP),
           (Server, SERVER))
COMPONENTS = (fields.Body, fields.Header, fields.URI, fields.Computed)


class Loose(resource.Resource):
    """Unknown keys of an answer kept as attributes: to_dict shows them too."""
    _allow_unknown_attrs_in_body = True
    name = resource.Body('name')


class Thing(resource.Resource):
    """A class with every kind of field the fast read must leave to the SDK or get right."""
    base_path = '/things'
    title = resource.Body('title', alias='name')
    old = resource.Body('old', deprecated=True, deprecation_reason='use new')
    size = resource.Body('size', type=int)
    flag = resource.Body('flag', type=bool, default=False)
    child = resource.Body('child', type=Port)
    kids = resource.Body('kids', type=list, list_type=Port)
    opts = resource.Body('opts', type=dict)
    nick = resource.Body('nick', aka='nickname')
    nickname = resource.Body('nickname')        # to_dict shows nick's value under it (the first)
    # one server name is another field's attribute name: a key lands in both
    display = resource.Body('label')
    label = resource.Body('caption')
    etag = resource.Header('ETag')
    parent = resource.URI('parent_id')


def _original(owner, name):
    fn = vars(owner)[name]
    fn = getattr(fn, '__func__', fn)
    assert getattr(fn, '_stackers_speed', False), name          # applied at import
    return fn.stackers_original


def _variants(body):
    """The ways the SDK meets an answer's keys: as sent, headers, other case, unknown keys."""
    yield dict(body)
    yield CaseInsensitiveDict(HEADERS)
    yield {key.upper(): value for key, value in body.items()}
    yield dict(body, extra_key=1, **{'Name': 'other', 'ID': 'x'})
    yield {}


def test_all_are_applied_at_import_and_once():
    assert sdk.sdk_speed is sdk_speed                   # importing sdk applies them
    assert all(sdk_speed.apply().values())
    assert sorted(sdk_speed.apply()) == sorted(sdk_speed.DIGESTS.keys() - {'should_bypass_proxies'})
    before = resource.Resource._consume_attrs
    sdk_speed.apply()
    assert resource.Resource._consume_attrs is before
    assert requests.sessions.get_environ_proxies is requests.utils.get_environ_proxies


def test_a_function_that_is_not_the_expected_one_is_left_alone():
    def mine(value):
        return value + 1
    holder = types.SimpleNamespace(fn=mine)
    faster = []

    def build(original):
        def fn(value):
            faster.append(value)
            return original(value)
        return fn
    assert not sdk_speed.install([holder], 'fn', 'not-its-digest', build)
    assert holder.fn is mine and not faster
    # the same function in two places, only one of them already another one: left alone too
    other = types.SimpleNamespace(fn=lambda value: value)
    assert not sdk_speed.install([holder, other], 'fn', sdk_speed.source_digest(mine), build)
    assert holder.fn is mine
    assert sdk_speed.install([holder], 'fn', sdk_speed.source_digest(mine), build)
    assert holder.fn(1) == 2 and faster == [1] and holder.fn.stackers_original is mine
    installed = holder.fn
    assert sdk_speed.install([holder], 'fn', sdk_speed.source_digest(mine), build)   # once
    assert holder.fn is installed
    assert sdk_speed.source_digest(len) is None                    # no source: never replaced


@pytest.mark.parametrize('cls,body', ANSWERS + (
    (Thing, {'title': 't', 'name': 'n', 'ETag': 'e', 'label': 'l', 'Caption': 'c'}),))
def test_consume_attrs_gives_what_the_sdk_gives(cls, body):
    consume = _original(resource.Resource, '_consume_attrs')
    obj = cls.existing(**copy.deepcopy(body))
    for component in COMPONENTS:
        mapping = cls._get_mapping(component)
        for attrs in _variants(body):
            theirs, ours = copy.deepcopy(attrs), copy.deepcopy(attrs)
            want = consume(obj, mapping, theirs)
            got = obj._consume_attrs(mapping, ours)
            assert list(got.items()) == list(want.items())
            assert list(ours.items()) == list(theirs.items())     # the same keys consumed
            assert type(ours) is type(theirs)
    # a mapping that is not a field mapping, and a key that is not a string: the SDK's own way
    odd = {1: 'x', 'name': 'n'}
    assert obj._consume_attrs({'name': 'name'}, dict(odd)) == consume(obj, {'name': 'name'}, dict(odd))
    for call in (consume, type(obj)._consume_attrs):
        with pytest.raises(AttributeError):              # the SDK's own error, not a new one
            call(obj, {'a': ['b']}, {'a': 1})


@pytest.mark.parametrize('cls,body', ANSWERS)
def test_objects_made_from_answers_are_what_the_sdk_makes(cls, body, monkeypatch):
    ours = cls.existing(**copy.deepcopy(body))
    ours_new = cls.new(**copy.deepcopy(body))
    for name in ('_consume_attrs', '_attr_to_dict'):
        monkeypatch.setattr(resource.Resource, name, _original(resource.Resource, name))
    monkeypatch.setattr(resource.Resource, '_get_mapping',
                        classmethod(_original(resource.Resource, '_get_mapping')))
    theirs = cls.existing(**copy.deepcopy(body))
    theirs_new = cls.new(**copy.deepcopy(body))
    for a, b in ((ours, theirs), (ours_new, theirs_new)):
        assert a._body.attributes == b._body.attributes and a._body._dirty == b._body._dirty
        assert a._header.attributes == b._header.attributes
        assert a._computed.attributes == b._computed.attributes
        assert dict(a) == dict(b) and list(dict(a)) == list(dict(b))


def test_get_mapping_is_the_sdks_and_each_caller_gets_its_own():
    get_mapping = _original(resource.Resource, '_get_mapping')
    for cls in (Port, Network, Subnet, SecurityGroup, Server, Thing):
        for component in COMPONENTS:
            want = get_mapping(cls, component)
            got = cls._get_mapping(component)
            assert type(got) is type(want) and list(got.items()) == list(want.items())
            got['mine'] = 'changed'
            again = cls._get_mapping(component)
            assert 'mine' not in again and list(again.items()) == list(want.items())


def _to_dicts(obj):
    answers = []
    for body, headers, computed, ignore_none, original_names, munch in itertools.product(
            (True, False), repeat=6):
        if not (body or headers or computed):
            continue
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter('always')
            value = obj.to_dict(body=body, headers=headers, computed=computed,
                                ignore_none=ignore_none, original_names=original_names,
                                _to_munch=munch)
        answers.append((value, [(w.category, str(w.message)) for w in seen]))
    return answers


def _shape(value):
    """The value with the types of its containers, to compare dicts with Munches."""
    if isinstance(value, dict):
        return (type(value).__name__, [(k, _shape(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ('list', [_shape(v) for v in value])
    return value


@pytest.mark.parametrize('cls,body', ANSWERS + ((Thing, {
    'name': 'n', 'title': None, 'old': 'x', 'size': '42', 'child': dict(PORT), 'opts': {'a': 1},
    'kids': [dict(PORT), {'id': 'p2'}], 'nick': 'k', 'nickname': 'other', 'ETag': 'e', 'parent_id': 'p'}), (Thing, {}),
    (Thing, {'name': 'n', 'label': 'l'}),                  # title read through its alias
    (Port, {k: v for k, v in PORT.items() if k != 'project_id'}),
    (Loose, {'name': 'n', 'size': 3, 'id': 'l1'})))
def test_to_dict_reads_what_the_sdk_reads(cls, body, monkeypatch):
    obj = cls.existing(**copy.deepcopy(body))
    ours = _to_dicts(obj)
    attr_to_dict = _original(resource.Resource, '_attr_to_dict')
    names = obj._attributes(include_aliases=True)
    fast = [(name, munch, attr_to_dict(obj, name, munch), obj._attr_to_dict(name, munch))
            for name in names for munch in (False, True)]
    monkeypatch.setattr(resource.Resource, '_attr_to_dict', attr_to_dict)
    theirs = _to_dicts(obj)
    assert [(_shape(v), w) for v, w in ours] == [(_shape(v), w) for v, w in theirs]
    for name, munch, want, got in fast:
        assert _shape(got) == _shape(want), (name, munch)


def test_a_value_the_fast_read_cannot_convert_is_the_sdks_to_handle():
    thing = Thing.existing(size=object(), flag='yes', nick=None)
    attr_to_dict = _original(resource.Resource, '_attr_to_dict')
    for name in ('size', 'flag', 'nick', 'nickname', 'title', 'id', 'no_such_field'):
        try:
            want = ('value', attr_to_dict(thing, name, False))
        except Exception as exc:  # noqa: B902 - the same exception is expected
            want = ('raised', type(exc))
        try:
            got = ('value', thing._attr_to_dict(name, False))
        except Exception as exc:  # noqa: B902
            got = ('raised', type(exc))
        assert got == want, name


# -- requests: proxies ---------------------------------------------------------------------------

PROXY_VARS = ('http_proxy', 'https_proxy', 'all_proxy', 'no_proxy', 'ftp_proxy',
              'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'FTP_PROXY', 'REQUEST_METHOD',
              'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'NETRC')
URLS = ('https://cloud.example.com:13000/v3/auth/tokens', 'https://cloud.example.com:5000/v3',
        'https://user@cloud.example.com:13000/v3', 'http://127.0.0.1:9696/v2.0/ports/p1',
        'http://127.0.0.1:9696/v2.0/networks', 'https://api.other.org/compute/v2.1/servers',
        'http://[::1]:8080/x', 'file:///etc/hosts')


@pytest.fixture
def clean_env(monkeypatch):
    for name in PROXY_VARS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def _check_proxies(urls=URLS, no_proxy_args=(None,)):
    original = requests.utils.get_environ_proxies.stackers_original
    for _round in range(2):                     # the second from the memo
        for url in urls:
            for arg in no_proxy_args:
                want = original(url, no_proxy=arg)
                got = requests.utils.get_environ_proxies(url, no_proxy=arg)
                assert got == want, (url, arg)
                got['changed'] = 'by the caller'          # each caller gets its own


def _proxies(url):
    return requests.Session().merge_environment_settings(url, {}, None, None, None)


def test_no_proxies_in_the_environment(clean_env):
    _check_proxies()
    assert _proxies(URLS[0])['proxies'] == {}


def test_a_proxy_set_and_changed_during_the_run_is_seen(clean_env):
    clean_env.setenv('https_proxy', 'http://proxy.example.com:3128')
    clean_env.setenv('HTTP_PROXY', 'http://upper.example.com:3128')
    _check_proxies()
    assert _proxies(URLS[0])['proxies']['https'] == 'http://proxy.example.com:3128'
    clean_env.setenv('https_proxy', 'http://other.example.com:8080')
    _check_proxies()
    assert _proxies(URLS[0])['proxies']['https'] == 'http://other.example.com:8080'
    clean_env.setenv('ftp_proxy', 'http://ftp.example.com:21')      # any *_proxy variable
    assert _proxies(URLS[0])['proxies']['ftp'] == 'http://ftp.example.com:21'
    clean_env.delenv('https_proxy')
    _check_proxies()
    assert 'https' not in _proxies(URLS[0])['proxies']


@pytest.mark.parametrize('name', ['no_proxy', 'NO_PROXY'])
def test_no_proxy_hosts_bypass_the_proxy(clean_env, name):
    clean_env.setenv('https_proxy', 'http://proxy.example.com:3128')
    clean_env.setenv('http_proxy', 'http://proxy.example.com:3128')
    clean_env.setenv(name, '127.0.0.1,.example.com, api.other.org:443')
    _check_proxies(no_proxy_args=(None, 'cloud.example.com:13000', '10.0.0.0/8'))
    assert _proxies('http://127.0.0.1:9696/v2.0/ports')['proxies'] == {}
    assert _proxies('https://cloud.example.com:13000/v3')['proxies'] == {}
    assert _proxies('https://elsewhere.net/v3')['proxies']['https'] == 'http://proxy.example.com:3128'
    clean_env.setenv(name, '*')
    _check_proxies()
    assert _proxies('https://elsewhere.net/v3')['proxies'] == {}


def test_ca_bundles_and_netrc_come_from_the_environment_as_requests_reads_them(clean_env, tmp_path):
    clean_env.setenv('CURL_CA_BUNDLE', '/etc/curl.pem')
    assert _proxies(URLS[0])['verify'] == '/etc/curl.pem'
    clean_env.setenv('REQUESTS_CA_BUNDLE', '/etc/requests.pem')
    assert _proxies(URLS[0])['verify'] == '/etc/requests.pem'
    netrc = tmp_path / 'netrc'
    netrc.write_text('machine cloud.example.com login demo password secret\n')
    clean_env.setenv('NETRC', str(netrc))
    prepared = requests.Session().prepare_request(requests.Request('GET', URLS[0]))
    assert prepared.headers['Authorization'].startswith('Basic ')
    prepared = requests.Session().prepare_request(requests.Request('GET', 'https://api.other.org/'))
    assert 'Authorization' not in prepared.headers


def test_to_key_val_list_is_requests(monkeypatch):
    original = requests.utils.to_key_val_list.stackers_original
    assert requests.sessions.to_key_val_list is requests.utils.to_key_val_list
    assert requests.models.to_key_val_list is requests.utils.to_key_val_list
    for value in ({}, {'a': 1, 'b': None}, collections.OrderedDict([('b', 1), ('a', 2)]),
                  CaseInsensitiveDict({'Accept': 'x', 'X-Auth-Token': 't'}), [('a', 1)], (('a', 1),),
                  None, resource.utils.Munch(a=1)):
        assert requests.utils.to_key_val_list(value) == original(value)
    for bad in ('string', b'bytes', True, 3):
        with pytest.raises(ValueError):
            requests.utils.to_key_val_list(bad)
    session = requests.Session()
    session.headers['X-Mine'] = 'yes'
    prepared = session.prepare_request(requests.Request(
        'POST', 'http://127.0.0.1/x', params={'a': '1'}, data={'k': 'v'}, headers={'Accept': 'a/b'}))
    assert prepared.url == 'http://127.0.0.1/x?a=1' and prepared.body == 'k=v'
    assert prepared.headers['X-Mine'] == 'yes' and prepared.headers['Accept'] == 'a/b'


# -- keystoneauth: the token's dates -------------------------------------------------------------

def test_parse_isotime_is_keystoneauths():
    original = ksa_utils.parse_isotime.stackers_original
    for text in ('2026-11-30T05:56:16Z', '2026-11-30T05:56:16.123456+02:00', '2026-11-30',
                 '2026-11-30T05:56:16.293449'):
        for _round in range(2):
            got = ksa_utils.parse_isotime(text)
            assert got == original(text) and got.tzinfo is not None
            assert isinstance(got, datetime.datetime)
    for bad in ('not a date', None, 12):
        with pytest.raises(ValueError):
            original(bad)
        with pytest.raises(ValueError):
            ksa_utils.parse_isotime(bad)


def test_the_sdk_field_scan_is_kept_per_class_and_gives_what_the_sdk_computes():
    scan = resource.Resource._attributes_iterator
    assert getattr(scan.__func__, '_stackers_memo', False)      # applied at import
    original = scan.__func__.__closure__                         # the SDK's function, kept
    sdk_scan = [c.cell_contents for c in original if callable(c.cell_contents)
                and getattr(c.cell_contents, '__name__', '') == '_attributes_iterator'][0]
    for cls in (Port, Server, Volume):
        for components in (None, fields.Body, (fields.Body,), (fields.Body, fields.Header),
                           (fields.URI,), (fields.Computed,)):
            args = () if components is None else (components,)
            want = list(sdk_scan(cls, *args))
            assert list(cls._attributes_iterator(*args)) == want
            assert list(cls._attributes_iterator(*args)) == want       # again, from the memo
    port = Port.existing(id='p1', name='n', fixed_ips=[{'ip_address': '10.0.0.5'}], tags=['a'])
    assert port.to_dict(body=True, headers=False, computed=False, original_names=True)[
        'fixed_ips'] == [{'ip_address': '10.0.0.5'}]
    assert port.name == 'n' and port['tags'] == ['a']
    sdk_speed._memoize_attribute_scan()                           # idempotent
    assert resource.Resource._attributes_iterator.__func__ is scan.__func__
