# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Swift::Container, as Heat 27's SwiftContainer.

The container's name is ``name`` or the physical name, and it is the
physical id and the reference.  ``X-Container-Meta`` keys become
``X-Container-Meta-<key>`` headers of the PUT, ``X-Container-Read`` and
``X-Container-Write`` are sent as they are, and ``X-Account-Meta`` keys go
to the account in a POST (made once the container's name is committed, so
a failure there leaves nothing the record does not know).  No property
updates in place: any change replaces the container.

Delete: a container already gone is deleted; a non-empty one is refused
with Heat's message unless ``PurgeOnDelete``, which deletes its objects
first.  Attributes: the URL ones from the object store's endpoint (the
service catalog), the counts and ``HeadContainer`` (every header, names in lower
case, as swiftclient gives them; the counts are strings there too) from
one HEAD of the container, which is also ``show``.  Stack check reads the
container; suspend and resume do nothing, as in Heat.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from urllib.parse import urlparse

from ...errors import CloudConflict, CloudNotFound, ResourceActionNotSupported
from .. import raw_request as raw
from ..base import ResourcePlugin

NAME, READ, WRITE, CONTAINER_META, ACCOUNT_META, PURGE = (
    'name', 'X-Container-Read', 'X-Container-Write', 'X-Container-Meta', 'X-Account-Meta',
    'PurgeOnDelete')
# Objects deleted per look at a purging delete: a big container is emptied
# over several looks, each re-listing what is left.
PURGE_BATCH = 1000
URL_ATTRIBUTES = ('DomainName', 'WebsiteURL', 'RootURL')


def _header_value(value):
    """A header value whose bytes on the wire are its text in UTF-8, as
    swiftclient sends it: http.client writes a str header as latin-1 (and
    keystoneauth takes only ASCII bytes), so the UTF-8 bytes go as the
    latin-1 text that encodes back to them."""
    text = value if isinstance(value, str) else str(value)
    return text.encode('utf-8').decode('latin-1')


def meta_headers(kind, meta):
    """Heat's ``X-<Kind>-Meta-<key>`` headers of a metadata map."""
    return dict(('X-%s-Meta-%s' % (kind.title(), key), _header_value(value))
                for key, value in (meta or {}).items())


def container_headers(props):
    headers = meta_headers('container', props.get(CONTAINER_META))
    for key in (READ, WRITE):
        if props.get(key) is not None:
            headers[key] = _header_value(props[key])
    return headers


def _text(value):
    # http.client reads header bytes as latin-1; Swift sends UTF-8.
    try:
        return value.encode('latin-1').decode('utf-8')
    except (UnicodeEncodeError, UnicodeDecodeError):
        return value


def head_dict(headers):
    """A HEAD's headers as swiftclient's ``head_container`` answers them."""
    return dict((key.lower(), _text(value)) for key, value in headers.items())


class Container(ResourcePlugin):
    type_name = 'OS::Swift::Container'
    # From the object store's endpoint in the service catalog: no request,
    # but not from the live object either, so not cached when it settles.
    costly_attributes = URL_ATTRIBUTES

    def _name(self, ctx):
        return ctx.properties.get(NAME) or ctx.physical_name

    def create(self, ctx):
        name = self._name(ctx)
        # PUT is idempotent (202 for an existing container): safe to retry.
        raw.send(ctx.conn.object_store, 'PUT', raw.path(name),
                 headers=container_headers(ctx.properties))
        if ctx.properties.get(ACCOUNT_META):
            ctx.data['account_meta'] = True
        return name

    def check_create_complete(self, ctx):
        if ctx.data.pop('account_meta', None):
            raw.send(ctx.conn.object_store, 'POST', '/',
                     headers=meta_headers('account', ctx.properties.get(ACCOUNT_META)))
        return True

    def find(self, ctx):
        name = self._name(ctx)
        return name if self._head(ctx, name) is not None else None

    def _head(self, ctx, name):
        try:
            return head_dict(raw.send(ctx.conn.object_store, 'HEAD', raw.path(name)).headers)
        except CloudNotFound:
            return None

    def show(self, ctx):
        if ctx.physical_id is None:
            return None
        return self._head(ctx, ctx.physical_id)

    def attributes(self, ctx, live, names=None):
        attrs = {'ObjectCount': None, 'BytesUsed': None, 'HeadContainer': None, 'show': None}
        if isinstance(live, dict):
            attrs.update({'ObjectCount': live.get('x-container-object-count'),
                          'BytesUsed': live.get('x-container-bytes-used'),
                          'HeadContainer': live, 'show': live})
        if names is None or set(names) & set(URL_ATTRIBUTES):
            root = urlparse(ctx.conn.object_store.get_endpoint())
            base = '%s://%s%s' % (root.scheme, root.netloc, root.path)
            attrs.update({'DomainName': root.netloc.split(':')[0],
                          'WebsiteURL': '%s/%s' % (base, ctx.physical_id), 'RootURL': base})
        return attrs

    # -- delete ------------------------------------------------------------------
    def _objects(self, ctx, limit):
        """Names of up to ``limit`` objects left in the container; None when
        the container is gone."""
        try:
            listing = raw.send_json(ctx.conn.object_store, 'GET', raw.path(ctx.physical_id),
                                    params={'format': 'json', 'limit': limit})
        except CloudNotFound:
            return None
        return [item['name'] for item in listing or ()]

    def delete(self, ctx):
        if ctx.physical_id is None:
            return
        objects = self._objects(ctx, 1)
        if objects and not ctx.properties.get(PURGE):
            raise ResourceActionNotSupported(
                'Deleting non-empty container (%s) when %s is False' % (ctx.physical_id, PURGE))

    def check_delete_complete(self, ctx):
        if ctx.physical_id is None:
            return True
        store = ctx.conn.object_store
        objects = self._objects(ctx, PURGE_BATCH) if ctx.properties.get(PURGE) else []
        if objects is None:
            return True
        for name in objects:
            try:
                raw.send(store, 'DELETE', raw.path(ctx.physical_id, name))
            except CloudNotFound:
                pass
        if len(objects) == PURGE_BATCH:
            return False
        try:
            raw.send(store, 'DELETE', raw.path(ctx.physical_id))
        except CloudNotFound:
            pass
        except CloudConflict:
            # An object arrived since the listing: a purge lists again, a
            # container that must not be purged fails with Swift's answer.
            if ctx.properties.get(PURGE):
                return False
            raise
        return True

    def drift(self, ctx, live):
        """Heat's live-state view: the ACLs, and the metadata keys the
        template gives (others are not the template's business)."""
        if not isinstance(live, dict):
            return []
        p = ctx.properties
        out = [key for key in (READ, WRITE) if live.get(key.lower()) != p.get(key)]
        meta = p.get(CONTAINER_META) or {}
        if any(live.get(('x-container-meta-%s' % k).lower()) != str(v) for k, v in meta.items()):
            out.append(CONTAINER_META)
        account = p.get(ACCOUNT_META) or {}
        if account:
            have = head_dict(raw.send(ctx.conn.object_store, 'HEAD', '/').headers)
            if any(have.get(('x-account-meta-%s' % k).lower()) != str(v) for k, v in account.items()):
                out.append(ACCOUNT_META)
        return out
