# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A fake network proxy for tests of code that reaches Neutron: SDK-like
objects, and the raw JSON calls the plugins make answered by the SDK-named
mocks a test sets up and asserts on."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from openstack import exceptions as sdk_exc


class Obj(object):
    """An SDK resource as far as the plugins use one."""

    def __init__(self, **attrs):
        self.__dict__.update(attrs)
        self._attrs = attrs

    def to_dict(self, **_kw):
        return dict(self._attrs)


class Response(object):
    def __init__(self, status, data=None):
        self.status_code, self.data = status, data
        self.content = b'' if data is None else b'{}'

    def json(self):
        return self.data


# collection path -> entity, as the plugins' RAW table names them
ENTITIES = {'networks': 'network', 'subnets': 'subnet', 'ports': 'port', 'routers': 'router',
            'security-groups': 'security_group', 'security-group-rules': 'security_group_rule',
            'trunks': 'trunk', 'qos/policies': 'qos_policy'}
KEYS = {'qos_policy': 'policy'}


class RawNeutron(object):
    """The network proxy's raw JSON calls (post/get/put/delete) answered by
    the SDK-named mocks the tests set up and assert on (``create_port``,
    ``get_port``, ``set_tags`` ...): a test says what the cloud holds and
    which call was made the same way whichever path the plugin takes."""

    def __init__(self, network):
        self.network = network

    def _split(self, path):
        parts = path.strip('/').split('/')
        if parts[0] == 'policies':      # a QoS policy's tags (Neutron's tag extension path)
            parts = ['qos/policies'] + parts[1:]
        elif parts[0] == 'qos':
            parts = ['qos/policies'] + parts[2:]
        entity = ENTITIES[parts[0]]
        return entity, KEYS.get(entity, entity), parts[1:]

    def post(self, path, json=None, **_kw):
        entity, key, _rest = self._split(path)
        if entity == 'security_group_rule' and 'security_group_rules' in json:
            made = list(self.network.create_security_group_rules(json['security_group_rules']))
            return Response(201, {'security_group_rules': [_as_dict(r) for r in made]})
        made = getattr(self.network, 'create_' + entity)(**json[key])
        return Response(201, {key: _as_dict(made)})

    def get(self, path, **_kw):
        if path == '/extensions':
            return Response(200, {'extensions': [_as_dict(e) for e in self.network.extensions()]})
        entity, key, rest = self._split(path)
        found = getattr(self.network, 'get_' + entity)(rest[0])
        if found is None:
            raise sdk_exc.NotFoundException('404: %s %s' % (entity, rest[0]))
        return Response(200, {key: _as_dict(found)})

    def put(self, path, json=None, **_kw):
        entity, _key, rest = self._split(path)
        assert rest[1:] == ['tags'], path
        self.network.set_tags(Obj(id=rest[0]), json['tags'])
        return Response(200, {'tags': json['tags']})

    def delete(self, path, **_kw):
        entity, _key, rest = self._split(path)
        getattr(self.network, 'delete_' + entity)(rest[0])
        return Response(204)


def _as_dict(obj):
    return obj.to_dict() if hasattr(obj, 'to_dict') else obj


def raw_neutron(conn):
    """Make ``conn.network``'s post/get/put/delete answer from its SDK-named mocks."""
    raw = RawNeutron(conn.network)
    for verb in ('post', 'get', 'put', 'delete'):
        getattr(conn.network, verb).side_effect = getattr(raw, verb)
    return conn
