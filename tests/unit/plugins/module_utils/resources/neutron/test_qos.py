# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.qos import QoSPolicy

QID = 'aaaaaaaa-0000-0000-0000-000000000001'


def test_create_update_delete(make_ctx, conn, obj, marks):
    conn.network.create_qos_policy.return_value = obj(id=QID, tags=[], rules=[])
    ctx = make_ctx('OS::Neutron::QoSPolicy', {'description': 'd'})
    assert QoSPolicy().create(ctx) == QID
    conn.network.create_qos_policy.assert_called_once_with(name='st-res-abc', description='d', shared=False)
    conn.network.set_tags.assert_not_called()      # the marks come later, off the path
    QoSPolicy().create_later(ctx)()
    assert conn.network.set_tags.call_args[0][1] == marks
    # Neutron serves a policy's tags at /policies/{id}/tags: under /qos it answers 400
    assert conn.network.put.call_args[0] == ('/policies/%s/tags' % QID,)
    assert QoSPolicy().attributes(ctx, ctx.live)['rules'] == []
    upd = make_ctx('OS::Neutron::QoSPolicy', {'description': 'e', 'shared': True}, physical_id=QID,
                   old={'description': 'd'})
    QoSPolicy().update(upd)
    conn.network.update_qos_policy.assert_called_once_with(QID, description='e', shared=True)
    QoSPolicy().delete(upd)
    conn.network.delete_qos_policy.assert_called_once_with(QID)
    assert QoSPolicy().drift(upd, {'name': 'st-res-abc', 'description': 'e', 'shared': False, 'tags': marks}) == [
        'shared']
