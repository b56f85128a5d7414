# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""module_utils/connection.py: SDK configuration from the options, and
the connection."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils import base, connection


@pytest.mark.parametrize('params, expected', [
    ({}, {}),
    ({'cloud': 'devstack'}, {'cloud': 'devstack'}),
    ({'cloud': 'devstack', 'region_name': 'RegionTwo', 'interface': 'internal'},
     {'cloud': 'devstack', 'region_name': 'RegionTwo', 'interface': 'internal'}),
    ({'validate_certs': False, 'ca_cert': '/ca.pem', 'client_cert': '/c.pem', 'client_key': '/k.pem'},
     {'verify': False, 'cacert': '/ca.pem', 'cert': '/c.pem', 'key': '/k.pem'}),
    ({'auth': {'auth_url': 'http://k:5000/v3', 'username': 'u'}, 'auth_type': 'password', 'api_timeout': 30},
     {'auth': {'auth_url': 'http://k:5000/v3', 'username': 'u'}, 'auth_type': 'password', 'api_timeout': 30}),
    # A whole cloud given as a dict: auth keys given separately override its own.
    ({'cloud': {'auth': {'auth_url': 'http://a:5000/v3', 'username': 'a'}, 'region_name': 'R1'},
      'auth': {'username': 'b'}, 'region_name': 'R2'},
     {'auth': {'auth_url': 'http://a:5000/v3', 'username': 'b'}, 'region_name': 'R2'}),
    # Unset options (None) never hide what clouds.yaml says.
    ({'cloud': None, 'auth': None, 'region_name': None, 'validate_certs': None}, {}),
])
def test_sdk_config(params, expected):
    assert connection.sdk_config(params) == expected


@pytest.mark.parametrize('params, given', [
    ({}, False),
    ({'cloud': None, 'auth': None}, False),
    ({'cloud': 'x'}, True),
    ({'cloud': {'auth': {}}}, True),
    ({'auth': {'auth_url': 'u'}}, True),
    ({'region_name': 'R'}, False),
])
def test_connection_given(params, given):
    assert connection.connection_given(params) is given


def test_openstack_connection_passes_the_config(monkeypatch):
    calls = []

    class FakeSDK(object):
        @staticmethod
        def connect(**kwargs):
            calls.append(kwargs)
            return 'conn'

    monkeypatch.setattr(connection, 'openstack_sdk', lambda: FakeSDK)
    assert connection.openstack_connection({'cloud': 'c', 'validate_certs': True}) == 'conn'
    assert calls == [{'app_name': 'stackers.orchestration', 'app_version': connection.COLLECTION_VERSION,
                      'cloud': 'c', 'verify': True}]


def test_openstack_connection_without_the_sdk(monkeypatch):
    monkeypatch.setattr(connection, 'openstack_sdk', lambda: None)
    with pytest.raises(ImportError):
        connection.openstack_connection({})


def test_tls_verification_is_on_unless_asked():
    from openstack import config as sdk_config
    auth = {'auth_url': 'https://127.0.0.1:5000/v3', 'username': 'u', 'password': 'p', 'project_name': 'x',
            'user_domain_id': 'default', 'project_domain_id': 'default'}
    loader = sdk_config.OpenStackConfig(load_yaml_config=False, load_envvars=False)
    config = connection.sdk_config({'auth': auth})
    assert 'verify' not in config       # clouds.yaml keeps its say; its default is to verify
    assert loader.get_one(**config).get_requests_verify_args()[0] is True
    spec = base.openstack_argument_spec()
    assert spec['validate_certs'].get('default') is None
    config = connection.sdk_config({'auth': auth, 'validate_certs': False})
    assert loader.get_one(**config).get_requests_verify_args()[0] is False
    config = connection.sdk_config({'auth': auth, 'ca_cert': '/etc/ssl/ca.pem'})
    assert loader.get_one(**config).get_requests_verify_args()[0] == '/etc/ssl/ca.pem'
