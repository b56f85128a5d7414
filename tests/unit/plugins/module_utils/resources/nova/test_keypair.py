# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova.keypair import KeyPair

import pytest
from openstack import exceptions as sdk_exc

from .conftest import Obj, make_ctx


def test_generate_keeps_private_key_in_secret_data(conn):
    conn.compute.create_keypair.return_value = Obj(name='k', public_key='ssh-rsa AAA', private_key='PRIV')
    ctx = make_ctx(conn, 'OS::Nova::KeyPair', {'name': 'k', 'save_private_key': True})
    assert KeyPair().create(ctx) == 'k'
    conn.compute.create_keypair.assert_called_once_with(name='k')
    assert ctx.data['private_key'] == 'PRIV'
    assert 'private_key' in KeyPair.secret_data and KeyPair.replace_deletes_first
    attrs = KeyPair().attributes(ctx, ctx.live)
    assert attrs['private_key'] == 'PRIV' and attrs['public_key'] == 'ssh-rsa AAA'
    assert 'private_key' not in attrs['show']


def test_import_with_type_and_user_and_no_saved_key(conn):
    conn.compute.create_keypair.return_value = Obj(name='k', public_key='ssh-ed25519 X')
    ctx = make_ctx(conn, 'OS::Nova::KeyPair', {'name': 'k', 'public_key': 'ssh-ed25519 X', 'type': 'ssh', 'user': 'u1'})
    KeyPair().create(ctx)
    conn.compute.create_keypair.assert_called_once_with(name='k', public_key='ssh-ed25519 X',
                                                        type='ssh', user_id='u1')
    assert KeyPair().attributes(ctx, None)['private_key'] == ''


def test_delete_find_check(conn):
    ctx = make_ctx(conn, 'OS::Nova::KeyPair', {'name': 'k'}, physical_id='k')
    conn.compute.delete_keypair.side_effect = sdk_exc.NotFoundException('gone')
    KeyPair().delete(ctx)   # gone is success
    conn.compute.get_keypair.return_value = Obj(name='k')
    assert KeyPair().find(ctx) == 'k'
    conn.compute.get_keypair.side_effect = sdk_exc.NotFoundException('gone')
    assert KeyPair().find(ctx) is None
    with pytest.raises(ResourceFailure, match='could not be found'):
        KeyPair().check(ctx)


class _EndpointData(object):
    def __init__(self, newest):
        self.max_microversion = newest


@pytest.mark.parametrize('newest, props, refused', [
    ((2, 96), {'name': 'k'},
     ('public_key', 'The public_key property is required by the nova API version currently used.')),
    ((2, 92), {'name': 'k', 'public_key': ''}, ('public_key', 'The public_key property is required '
                                                              'by the nova API version currently used.')),
    ((2, 96), {'name': 'k', 'public_key': 'ssh-ed25519 X'}, None),
    ((2, 91), {'name': 'k'}, None),              # Nova still generates the pair
    ((2, 1), {'name': 'k', 'public_key': 'p', 'type': 'x509'},
     ('type', 'Cannot use "[\'type\']" properties - nova does not support required api microversion.')),
    ((2, 9), {'name': 'k', 'public_key': 'p', 'user': 'u'},
     ('user', 'Cannot use "[\'user\']" properties - nova does not support required api microversion.')),
])
def test_preflight_refuses_as_heat_validate_does(conn, newest, props, refused):
    conn.compute.get_endpoint_data.return_value = _EndpointData(newest)
    assert KeyPair.has_preflight
    assert KeyPair().preflight(conn, props) == refused


def test_a_key_pair_with_its_public_key_asks_nova_nothing_before_it_is_made(conn):
    assert KeyPair().preflight(conn, {'name': 'k', 'public_key': 'ssh-ed25519 X'}) is None
    conn.compute.get_endpoint_data.assert_not_called()
    conn.compute.get_endpoint_data.return_value = _EndpointData((2, 96))
    assert KeyPair().preflight(conn, {'name': 'k', 'public_key': 'p', 'type': 'ssh'}) is None
    assert conn.compute.get_endpoint_data.called        # a type depends on the version


def test_a_replacement_is_refused_at_create_as_the_preflight_would(conn):
    # The run's preflight skips key pairs the record holds; their replacement checks at create.
    conn.compute.get_endpoint_data.return_value = _EndpointData((2, 96))
    ctx = make_ctx(conn, 'OS::Nova::KeyPair', {'name': 'k'})
    with pytest.raises(ResourceFailure) as err:
        KeyPair().create(ctx)
    assert str(err.value) == 'The public_key property is required by the nova API version currently used.'
    conn.compute.create_keypair.assert_not_called()


def test_find_takes_a_key_of_that_name_only_when_it_carries_the_public_key_given(conn):
    """After a lost answer the key found by name is this create's when it carries the public key
    sent (then it is whole: one POST); one of that name with another key is someone else's."""
    ctx = make_ctx(conn, 'OS::Nova::KeyPair', {'name': 'k', 'public_key': 'ssh-ed25519 AAAA me@host'})
    conn.compute.get_keypair.return_value = Obj(name='k', public_key='ssh-ed25519 AAAA other-comment\n')
    assert KeyPair().find(ctx) == 'k' and KeyPair().found_is_whole(ctx)
    conn.compute.get_keypair.return_value = Obj(name='k', public_key='ssh-ed25519 BBBB')
    assert KeyPair().find(ctx) is None
    generated = make_ctx(conn, 'OS::Nova::KeyPair', {'name': 'k'})
    assert not KeyPair().found_is_whole(generated)     # its private key was in the lost answer


def test_heat_resource_data_keeps_a_saved_private_key_only():
    ctx = make_ctx(None, 'OS::Nova::KeyPair', {'name': 'k'},
                   data={'private_key': 'PRIV', 'public_key': 'ssh-rsa AAA'})
    assert KeyPair().heat_resource_data(ctx) == {'private_key': 'PRIV'}
    ctx = make_ctx(None, 'OS::Nova::KeyPair', {'name': 'k'}, data={'public_key': 'ssh-rsa AAA'})
    assert KeyPair().heat_resource_data(ctx) == {}
