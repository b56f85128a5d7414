# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Glance::WebImage, as Heat 27's GlanceWebImage: an image Glance
fetches itself from ``location`` by its ``web-download`` import.

Create: the image record (every given property but ``location``,
``members`` and ``active``; ``extra_properties`` ride in the same POST,
where Heat sends them in a PATCH after the import), then, once its id is
committed, the import and the members.  Glance's answers are polled until
the image is ``active`` (or ``deactivated`` when ``active`` is false: it is
deactivated as soon as it is active).  ``killed`` fails with Heat's reason.

The image id is ``id`` when the template gives one; else it is derived from
the physical name (committed before the create call), so an interrupted
create finds its image by id with one GET, with no mark on the image.

Known differences from Heat: an import Glance gave up on (the image back in
``queued`` with the store named in ``os_glance_failed_import``) fails the
resource, where Heat waits for the stack's timeout; a change of ``members``
adds and removes members, where Heat 27 also sends them in its image update
(which Glance's image schema refuses); ``name`` is never the physical name
(Heat leaves an image without ``name`` unnamed, and so does this).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

from ...errors import CloudConflict, CloudNotFound
from .. import raw_request as raw
from ..base import ResourcePlugin

# Properties that are not image fields: where the data is, who else may
# read it, and whether it is deactivated.
_NOT_FIELDS = ('location', 'members', 'active', 'extra_properties')
# Fields Heat lets change in place through the image update.
_PATCHED = ('protected', 'architecture', 'kernel_id', 'os_distro', 'os_version', 'owner',
            'visibility', 'ramdisk_id')
_COMPARED = ('name', 'min_disk', 'min_ram', 'disk_format', 'container_format') + _PATCHED
_PATCH_TYPE = 'application/openstack-images-v2.1-json-patch'
_AKI = ('ami', 'ari', 'aki')
# Image ids derived from physical names live in a namespace of their own.
_ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_DNS, 'stackers.orchestration.glance.image')


def image_id(ctx):
    if ctx.properties.get('id'):
        return ctx.properties['id']
    if ctx.physical_name:
        return str(uuid.uuid5(_ID_NAMESPACE, ctx.physical_name))
    return str(uuid.uuid4())


def _image(image_id, *rest):
    return raw.path('images', image_id, *rest)


def _view(image):
    """An image as Heat's ``show`` gives it: glanceclient drops the ``self`` link."""
    if isinstance(image, dict):
        image.pop('self', None)
    return image


class WebImage(ResourcePlugin):
    type_name = 'OS::Glance::WebImage'

    @classmethod
    def validate(cls, given):
        """Heat's GlanceWebImage.validate (a value waiting on an attribute
        reads as Heat reads it: ``visibility`` as its default, private)."""
        props = given.props
        container = props.get('container_format')
        if container in _AKI and props.get('disk_format') != container:
            given.fail("Invalid mix of disk and container formats. When setting a disk or "
                       "container format to one of 'aki', 'ari', or 'ami', the container and "
                       "disk formats must match.", 'disk_format')
        if props.get('members') and props.get('visibility') != 'shared':
            given.fail('members property should only be specified for visibility with value '
                       'shared.', 'members')

    # -- create --------------------------------------------------------------------
    def create(self, ctx):
        p = ctx.properties
        schema = self.heat_type().properties
        body = dict((k, v) for k, v in p.items()
                    if k in schema and k not in _NOT_FIELDS and v is not None)
        body['id'] = image_id(ctx)
        for key, value in (p.get('extra_properties') or {}).items():
            body.setdefault(key, value)
        created = _view(raw.send_json(ctx.conn.image, 'POST', '/images', json=body,
                                      retry_writes=False))
        ctx.live = created
        ctx.data['import'] = True
        ctx.data['members'] = list(p.get('members') or ())
        return created['id']

    def check_create_complete(self, ctx):
        glance = ctx.conn.image
        if ctx.data.get('import'):
            method = {'method': {'name': 'web-download', 'uri': ctx.properties['location']}}
            try:
                raw.send(glance, 'POST', _image(ctx.physical_id, 'import'), json=method)
            except CloudConflict:
                pass   # a run killed after its import call: Glance is at it already
            ctx.data.pop('import')
        members = ctx.data.get('members') or []
        while members:
            self._add_member(ctx, members[0])
            members.pop(0)
        ctx.data.pop('members', None)
        image = _view(raw.send_json(glance, 'GET', _image(ctx.physical_id)))
        ctx.live = image
        status = image.get('status')
        if status == 'killed':
            ctx.in_error('killed')
        if status == 'queued' and image.get('os_glance_failed_import') and \
                not image.get('os_glance_importing_to_stores'):
            ctx.fail('Went to status queued due to "the web-download import of %s into store %s '
                     'failed"' % (ctx.properties.get('location'), image['os_glance_failed_import']))
        if ctx.properties.get('active') is False:
            if status == 'active':
                raw.send(glance, 'POST', _image(ctx.physical_id, 'actions', 'deactivate'))
                ctx.live = None   # its status moved: read again when asked
                return True
            return status == 'deactivated'
        return status == 'active'

    def _add_member(self, ctx, member):
        try:
            raw.send(ctx.conn.image, 'POST', _image(ctx.physical_id, 'members'),
                     json={'member': member})
        except CloudConflict:
            pass   # already a member (a repeated call)

    def find(self, ctx):
        return image_id(ctx) if self.show(ctx, image_id(ctx)) is not None else None

    # -- update --------------------------------------------------------------------
    def update(self, ctx):
        p, old = ctx.properties, ctx.old_properties or {}
        changed = ctx.changed
        glance = ctx.conn.image
        iid = ctx.physical_id
        if 'active' in changed and p.get('active') is False:
            raw.send(glance, 'POST', _image(iid, 'actions', 'deactivate'))
        if 'tags' in changed:
            new, was = set(p.get('tags') or ()), set(old.get('tags') or ())
            if new == was:
                # the template changed none (a converge putting the cloud's
                # drift back): weighed against the live image's tags
                was = set((self.show(ctx) or {}).get('tags') or ())
            for tag in sorted(new - was):
                raw.send(glance, 'PUT', _image(iid, 'tags', tag))
            for tag in sorted(was - new):
                try:
                    raw.send(glance, 'DELETE', _image(iid, 'tags', tag))
                except CloudNotFound:
                    pass
        ops = self._patch(ctx)
        if ops:
            raw.send(glance, 'PATCH', _image(iid), json=ops, headers={'Content-Type': _PATCH_TYPE})
        if 'members' in changed:
            new, was = set(p.get('members') or ()), set(old.get('members') or ())
            for member in sorted(new - was):
                self._add_member(ctx, member)
            for member in sorted(was - new):
                try:
                    raw.send(glance, 'DELETE', _image(iid, 'members', member))
                except CloudNotFound:
                    pass
        if 'active' in changed and p.get('active'):
            ctx.data['reactivate'] = True

    def _patch(self, ctx):
        """The JSON patch of the changed fields and extra properties: set
        what has a value, remove what the image holds and should not."""
        p, old = ctx.properties, ctx.old_properties or {}
        sets, drops = [], []
        for key in _PATCHED:
            if key in ctx.changed:
                (drops if p.get(key) is None else sets).append((key, p.get(key)))
        if 'extra_properties' in ctx.changed:
            new = p.get('extra_properties') or {}
            sets.extend(sorted(new.items()))
            drops.extend((key, None) for key in sorted(set(old.get('extra_properties') or {}) - set(new)))
        if drops:
            live = self.show(ctx) or {}
            drops = [(k, v) for k, v in drops if live.get(k) is not None]
        return ([{'op': 'add', 'path': '/' + k, 'value': v} for k, v in sets] +
                [{'op': 'remove', 'path': '/' + k} for k, _v in drops])

    def check_update_complete(self, ctx):
        if ctx.data.pop('reactivate', None):
            raw.send(ctx.conn.image, 'POST', _image(ctx.physical_id, 'actions', 'reactivate'))
        return True

    # -- delete and reading --------------------------------------------------------
    def delete(self, ctx):
        if ctx.physical_id is None:
            return
        try:
            raw.send(ctx.conn.image, 'DELETE', _image(ctx.physical_id))
        except CloudNotFound:
            pass

    def show(self, ctx, iid=None):
        iid = iid or ctx.physical_id
        if iid is None:
            return None
        try:
            return _view(raw.send_json(ctx.conn.image, 'GET', _image(iid)))
        except CloudNotFound:
            return None

    def check(self, ctx):
        live = self.show(ctx)
        ctx.live = live
        if live is None or live.get('status') in ('deleted', 'killed'):
            ctx.fail('%s %s not found' % (self.type_name, ctx.physical_id))

    def attributes(self, ctx, live, names=None):
        return {'show': live if isinstance(live, dict) else None}

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        p = ctx.properties
        out = [k for k in _COMPARED if p.get(k) is not None and live.get(k) != p[k]]
        if p.get('tags') is not None and set(live.get('tags') or ()) != set(p['tags']):
            out.append('tags')
        extra = p.get('extra_properties') or {}
        if any(live.get(k) != v for k, v in extra.items()):
            out.append('extra_properties')
        wanted = 'active' if p.get('active', True) else 'deactivated'
        if live.get('status') in ('active', 'deactivated') and live['status'] != wanted:
            out.append('active')
        return sorted(out)
