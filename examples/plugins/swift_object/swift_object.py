# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Stackers::Swift::Object: one Swift object with the content the template gives.

Heat has a container type (OS::Swift::Container) but no object type: a
template that wants a small file in object storage (a cloud-init snippet, a
page, a configuration read by servers) needs this plugin.  Its content and
metadata change in place; another container or name makes a new object.
See docs/plugins.md of stackers.orchestration, which builds it step by step.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourcePlugin

CONTRACT_VERSION = 1
META_PREFIX = 'x-object-meta-'


class SwiftObject(ResourcePlugin):
    """One Swift object with the content the template gives (heat_resource_type_info shows this doc)."""

    properties_schema = {
        'container': {'type': 'string', 'required': True,
                      'description': 'The container the object goes in (its name).'},
        'name': {'type': 'string',
                 'description': 'The object\'s name; a name of the stack and resource when not given.'},
        'content': {'type': 'string', 'default': '', 'update_allowed': True,
                    'description': 'What the object holds.'},
        'content_type': {'type': 'string', 'default': 'text/plain', 'update_allowed': True,
                         'description': 'Its Content-Type.'},
        'metadata': {'type': 'map', 'default': {}, 'update_allowed': True,
                     'description': 'Its X-Object-Meta-* values, by key.'},
    }
    attributes_schema = {
        'etag': {'type': 'string', 'description': 'The MD5 of the content, as Swift answers it.'},
        'size': {'type': 'integer', 'description': 'The content\'s length in bytes.'},
        'container': {'type': 'string', 'description': 'The container it is in.'},
        'name': {'type': 'string', 'description': 'The object\'s name.'},
    }
    # the container must exist before the object is put in it
    implicit_dependencies = (('container', 'OS::Swift::Container', 'name'),)

    @staticmethod
    def _split(ctx):
        container, _sep, name = (ctx.physical_id or '').partition('/')
        return container, name

    def _put(self, ctx, container, name):
        props = ctx.properties
        metadata = dict((str(k), str(v)) for k, v in (props['metadata'] or {}).items())
        # a PUT of the whole object: safe to send again
        sdk.call(ctx.conn.object_store.upload_object, container=container, name=name,
                 data=props['content'].encode('utf-8'), metadata=metadata,
                 content_type=props['content_type'])

    def create(self, ctx):
        container = ctx.properties['container']
        name = ctx.properties['name'] or ctx.physical_name
        self._put(ctx, container, name)
        return '%s/%s' % (container, name)

    def update(self, ctx):
        container, name = self._split(ctx)
        self._put(ctx, container, name)

    def delete(self, ctx):
        if ctx.physical_id is not None:
            container, name = self._split(ctx)
            sdk.delete_quietly(ctx.conn.object_store.delete_object, name, container=container)

    def find(self, ctx):
        name = ctx.properties['name'] or ctx.physical_name
        physical_id = '%s/%s' % (ctx.properties['container'], name)
        found = self._head(ctx, ctx.properties['container'], name)
        return physical_id if found is not None else None

    def _head(self, ctx, container, name):
        obj = sdk.get_or_none(ctx.conn.object_store.get_object_metadata, name, container=container)
        if obj is None:
            return None
        return {'container': container, 'name': name, 'etag': obj.etag,
                'size': int(obj.content_length or 0), 'content_type': obj.content_type,
                'metadata': dict((str(k).lower(), v) for k, v in (obj.metadata or {}).items())}

    def show(self, ctx):
        if ctx.physical_id is None:
            return None
        return self._head(ctx, *self._split(ctx))

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        props = ctx.properties
        drifted = []
        if live['etag'] != hashlib.md5(props['content'].encode('utf-8'), usedforsecurity=False).hexdigest():
            drifted.append('content')
        if live['content_type'] != props['content_type']:
            drifted.append('content_type')
        wanted = dict((str(k).lower(), str(v)) for k, v in (props['metadata'] or {}).items())
        if live['metadata'] != wanted:
            drifted.append('metadata')
        return drifted


def resource_mapping():
    return {'Stackers::Swift::Object': SwiftObject}
