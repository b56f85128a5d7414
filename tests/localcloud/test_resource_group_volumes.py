# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A ResourceGroup of ten Cinder volumes in real ansible-playbook runs against the local cloud: a
create, a rerun that writes nothing, a shrink whose removal_policies delete exactly the named
members (three volume DELETEs, nothing else written), a growth that adds two new members (never
reusing a removed index), check mode predicting each change, and a delete leaving nothing."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ids  # noqa: E402
from localcloud.playbook import StackRunner, outputs, plan  # noqa: E402

GROUP = """heat_template_version: 2021-04-16
parameters:
  n: {type: number, default: 10}
  removed: {type: json, default: []}
resources:
  vols:
    type: OS::Heat::ResourceGroup
    properties:
      count: {get_param: n}
      removal_policies: [{resource_list: {get_param: removed}}]
      resource_def:
        type: OS::Cinder::Volume
        properties: {size: 1, name: 'rgv-%index%'}
outputs:
  refs_map: {value: {get_attr: [vols, refs_map]}}
  removed: {value: {get_attr: [vols, removed_rsrc_list]}}
"""

REMOVED = ['1', '3', '5']


def _volumes(conn):
    """name -> id of this test's volumes in the cloud."""
    return dict((v.name, v.id) for v in conn.block_storage.volumes() if (v.name or '').startswith('rgv-'))


def test_a_group_of_ten_volumes_shrinks_by_its_removal_policy_and_grows_without_reusing(cloud, tmp_path):
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    template = str(tmp_path / 'group.yaml')
    with open(template, 'w') as f:
        f.write(GROUP)
    conn = cloud.sdk()
    gone_already = False
    # consecutive runs with no look at the cloud between them share one ansible-playbook; check
    # mode touches nothing, so the cloud seen after a check step is the one before it
    smaller = {'n': 7, 'removed': REMOVED}
    bigger = {'n': 9, 'removed': REMOVED}
    try:
        (made, _m), (again, again_writes), (checked, _c) = runner.run_steps(
            [dict(name='rgv', template=template), dict(name='rgv', template=template),
             dict(name='rgv', template=template, parameters=smaller, _check=True)])
        assert made['stack']['stack_status'] == 'CREATE_COMPLETE', made['stack']
        refs = outputs(made)['refs_map']
        assert sorted(refs, key=int) == [str(i) for i in range(10)]
        assert _volumes(conn) == dict(('rgv-%d' % i, refs[str(i)]) for i in range(10))
        assert again['changed'] is False
        assert again_writes == {}
        assert checked['changed'] is True
        assert plan(checked)['vols'] == 'update', checked['plan']

        (shrunk, writes), (checked, _c) = runner.run_steps(
            [dict(name='rgv', template=template, parameters=smaller),
             dict(name='rgv', template=template, parameters=bigger, _check=True)])
        assert shrunk['stack']['stack_status'] == 'UPDATE_COMPLETE', shrunk['stack']
        assert writes == {'DELETE block-storage /v3/{id}/volumes/{id}': 3}, writes
        kept = ['0', '2', '4', '6', '7', '8', '9']
        assert sorted(outputs(shrunk)['refs_map'], key=int) == kept
        assert outputs(shrunk)['removed'] == REMOVED
        assert _volumes(conn) == dict(('rgv-%s' % i, refs[i]) for i in kept)
        assert checked['changed'] is True
        assert plan(checked)['vols'] == 'update', checked['plan']

        (grown, writes), (grown_again, again_writes) = runner.run_steps(
            [dict(name='rgv', template=template, parameters=bigger),
             dict(name='rgv', template=template, parameters=bigger)])
        assert grown['stack']['stack_status'] == 'UPDATE_COMPLETE', grown['stack']
        assert writes == {'POST block-storage /v3/{id}/volumes': 2}, writes
        grown_refs = outputs(grown)['refs_map']
        assert sorted(grown_refs, key=int) == kept + ['10', '11']
        assert dict((k, grown_refs[k]) for k in kept) == dict((k, refs[k]) for k in kept)
        volumes = _volumes(conn)
        assert sorted(volumes) == sorted('rgv-%s' % i for i in kept + ['10', '11'])
        assert volumes['rgv-10'] == grown_refs['10'] and volumes['rgv-11'] == grown_refs['11']
        assert grown_again['changed'] is False
        assert again_writes == {}

        gone = runner.run(name='rgv', state='absent')
        gone_already = True
        assert gone['stack']['stack_status'] == 'DELETE_COMPLETE', gone['stack']
        assert _volumes(conn) == {}
        assert ids(cloud.resources()) == before
    finally:
        if not gone_already:
            runner.run(name='rgv', state='absent')
        conn.close()
