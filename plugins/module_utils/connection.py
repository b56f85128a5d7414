# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The connection to the cloud that the modules and the inventory plugin open.

``openstack_connection(params)`` makes the openstacksdk connection from the
connection options (doc fragment ``stackers.orchestration.openstack``),
with the transport's bounded retries and the first token asked as a read
(cloud_checker.py asks the service-backed custom constraints on it).
Nothing here knows Ansible, so the inventory plugin takes it without
the module side (base.py).

openstacksdk itself is loaded by ``resources/sdk.py``'s ``libraries()`` when
the first connection is made: a module that may connect (heat_stack_info
with a Swift store) imports this file, and must not pay for openstacksdk
when it does not.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .resources import sdk, transport

COLLECTION_NAME = 'stackers.orchestration'
COLLECTION_VERSION = '0.1.0'

# Module option -> openstacksdk configuration key.  Only options the user set
# are passed, so clouds.yaml and OS_* keep their say over everything else.
_SDK_KEYS = (
    ('auth_type', 'auth_type'),
    ('region_name', 'region_name'),
    ('interface', 'interface'),
    ('validate_certs', 'verify'),
    ('ca_cert', 'cacert'),
    ('client_cert', 'cert'),
    ('client_key', 'key'),
    ('api_timeout', 'api_timeout'),
)


def openstack_sdk():
    """The ``openstack`` package, loaded now if it was not; None when
    openstacksdk is not installed (``sdk_import_error`` says why)."""
    return sdk.libraries().openstack


def sdk_import_error():
    """The traceback of openstacksdk's failed import, or None."""
    return sdk.libraries().errors.get('openstack')


def connection_given(params):
    """True when the user named a cloud or gave credentials explicitly."""
    return bool(params.get('cloud') or params.get('auth'))


def sdk_config(params):
    """The keyword arguments for ``openstack.connect`` built from the
    connection options, keeping the unset ones out."""
    config = {}
    for option, key in _SDK_KEYS:
        value = params.get(option)
        if value is not None:
            config[key] = value
    cloud = params.get('cloud')
    auth = params.get('auth')
    if isinstance(cloud, dict):
        merged = dict(cloud)
        if auth:
            merged['auth'] = dict(merged.get('auth') or {}, **auth)
        merged.update(config)
        return merged
    if cloud is not None:
        config['cloud'] = str(cloud)
    if auth:
        config['auth'] = dict(auth)
    return config


def openstack_connection(params):
    """Open a connection from clouds.yaml / OS_CLOUD / the auth options.

    Raises ImportError when openstacksdk is missing; the SDK's own errors
    (unknown cloud, missing credentials) propagate.
    """
    openstack = openstack_sdk()
    if openstack is None:
        raise ImportError(sdk_import_error())
    conn = openstack.connect(app_name=COLLECTION_NAME, app_version=COLLECTION_VERSION, **sdk_config(params))
    transport.set_transport_retries(conn)   # bounded retries of what is safe to send again (docs/reliability.md, Retries)
    transport.fetch_first_token(conn)
    return conn


def is_cloud_error(err):
    """True for an exception of openstacksdk or keystoneauth (their messages
    are readable as they are)."""
    if type(err).__module__.split('.')[0] == 'keystoneauth1':
        return True
    sdk_exc = sdk.libraries().sdk
    return sdk_exc is not None and isinstance(err, sdk_exc.SDKException)
