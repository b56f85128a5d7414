# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Users' resource plugins (resource_plugin_dirs) through real ansible-playbook on the local cloud.

docs/plugins.md's worked plugin (Stackers::Swift::Object, copied from examples/plugins/swift_object) in a
temporary directory: validate, create, update in place and by replacement, a drift found by check mode,
suspend, resume, heat_stack_info without the plugin, delete, and a failed create rolled back.  Then the
same plugin with each fault, refused before any cloud write with its file named; then every example's
template created and deleted.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import hashlib
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ROOT, ids  # noqa: E402
from localcloud.playbook import StackRunner, outputs, plan  # noqa: E402

EXAMPLES = os.path.join(ROOT, 'examples', 'plugins')
PLUGIN = os.path.join(EXAMPLES, 'swift_object', 'swift_object.py')

TEMPLATE = """heat_template_version: 2021-04-16
parameters:
  content: {type: string, default: first}
  object_name: {type: string, default: page.txt}
  container: {type: string, default: ''}
conditions:
  own_box: {equals: [{get_param: container}, '']}
resources:
  box:
    type: OS::Swift::Container
    properties: {PurgeOnDelete: true}
  page:
    type: Stackers::Swift::Object
    properties:
      container: {if: [own_box, {get_resource: box}, {get_param: container}]}
      name: {get_param: object_name}
      content: {get_param: content}
outputs:
  etag: {value: {get_attr: [page, etag]}}
  size: {value: {get_attr: [page, size]}}
"""


def _plugin_dir(tmp_path, name, text=None, mode=0o755):
    directory = tmp_path / name
    directory.mkdir()
    target = directory / 'swift_object.py'
    if text is None:
        shutil.copy(PLUGIN, str(target))
    else:
        target.write_text(text)
    os.chmod(str(target), 0o644)
    os.chmod(str(directory), mode)
    return str(directory), str(target)


def _by_name(result):
    return dict((r['resource_name'], r) for r in result['resources'])


def test_a_plugin_type_lives_a_stacks_whole_life(cloud, tmp_path):
    before = ids(cloud.resources())
    plugins, _file = _plugin_dir(tmp_path, 'plugins')
    template = str(tmp_path / 'page.yaml')
    with open(template, 'w') as f:
        f.write(TEMPLATE)
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    conn = cloud.sdk()
    args = dict(name='pages', template=template, resource_plugin_dirs=[plugins])

    steps = runner.run_steps([
        dict(_module='heat_template_validate', template=template, strict=True, resource_plugin_dirs=[plugins]),
        dict(args),
        dict(args, parameters={'content': 'second'}, _check=True),
        dict(args, parameters={'content': 'second'}),
        dict(args, parameters={'content': 'second', 'object_name': 'moved.txt'}, _check=True),
        dict(args, parameters={'content': 'second', 'object_name': 'moved.txt'}),
    ])
    (validated, none), (created, _c), (in_place_plan, _p), (in_place, _i), (replace_plan, _r), (replaced, _m) = \
        steps
    assert validated.get('failed') is not True, validated.get('msg')
    assert validated['unsupported_types'] == [] and none == {}
    assert created['stack']['stack_status'] == 'CREATE_COMPLETE', created.get('msg')
    box = _by_name(created)['box']['physical_resource_id']
    assert _by_name(created)['page']['physical_resource_id'] == box + '/page.txt'
    assert outputs(created) == {'size': len('first'), 'etag': hashlib.md5(b'first').hexdigest()}

    assert plan(in_place_plan)['page'] == 'update'
    assert in_place['stack']['stack_status'] == 'UPDATE_COMPLETE', in_place.get('msg')
    assert _by_name(in_place)['page']['physical_resource_id'] == box + '/page.txt'
    assert outputs(in_place) == {'size': len('second'), 'etag': hashlib.md5(b'second').hexdigest()}

    assert plan(replace_plan)['page'] == 'replace'
    assert replaced['stack']['stack_status'] == 'UPDATE_COMPLETE', replaced.get('msg')
    assert _by_name(replaced)['page']['physical_resource_id'] == box + '/moved.txt'
    assert [o.name for o in conn.object_store.objects(box)] == ['moved.txt']
    assert conn.object_store.download_object('moved.txt', container=box) == b'second'

    # -- a drift behind the stack's back, found by check mode; suspend, resume; the record read
    # without the plugin; delete
    conn.object_store.upload_object(container=box, name='moved.txt', data=b'changed by hand')
    later = dict(args, parameters={'content': 'second', 'object_name': 'moved.txt'})
    (checked, _k), (suspended, _s), (resumed, _u), (info, _n), (deleted, _d) = runner.run_steps([
        dict(later, _check=True),
        dict(name='pages', state='suspended', resource_plugin_dirs=[plugins]),
        dict(later),
        dict(_module='heat_stack_info', name='pages'),
        dict(name='pages', state='absent', resource_plugin_dirs=[plugins]),
    ])
    drift = dict((c['resource_name'], c['drift']) for c in checked['check'])
    assert drift == {'box': [], 'page': ['content']}, checked['check']
    assert suspended['stack']['stack_status'] == 'SUSPEND_COMPLETE', suspended.get('msg')
    assert resumed['stack']['stack_status'].endswith('_COMPLETE'), resumed.get('msg')
    assert resumed['changed'] is True
    assert _by_name(info)['page']['resource_type'] == 'Stackers::Swift::Object'
    assert deleted['stack']['stack_status'] == 'DELETE_COMPLETE', deleted.get('msg')
    assert ids(cloud.resources()) == before

    # -- a create that fails (no such container) rolls back what it made
    (rolled, _w), = runner.run_steps([
        dict(args, name='broken', parameters={'container': 'no-such-container'}, rollback=True)])
    assert rolled['failed'] is True and rolled['stack']['stack_status'] == 'ROLLBACK_COMPLETE', rolled
    assert 'resources.page' in rolled['msg']
    assert ids(cloud.resources()) == before


FAULTS = {
    # name -> (how the plugin file is changed, words of the message)
    'import error': (lambda text: text + '\nimport no_such_module_here\n',
                     "ModuleNotFoundError: No module named 'no_such_module_here'"),
    'clash': (lambda text: text.replace("'Stackers::Swift::Object'", "'OS::Swift::Container'"),
              'OS::Swift::Container is a built-in resource type'),
    'bad schema': (lambda text: text.replace("'type': 'map'", "'type': 'dictionary'"),
                   'Stackers::Swift::Object.properties_schema.metadata.type: Invalid type'),
    'version mismatch': (lambda text: text.replace('CONTRACT_VERSION = 1', 'CONTRACT_VERSION = 2'),
                         'written for version 2 of the plugin contract'),
    'no mapping': (lambda text: text.replace('def resource_mapping', 'def mapping'),
                   'has no resource_mapping() function'),
    'world-writable directory': (None, 'other users can write to this resource plugin directory'),
}


def test_each_fault_is_refused_before_any_cloud_call_naming_the_file(cloud, tmp_path):
    with open(PLUGIN) as f:
        good = f.read()
    template = str(tmp_path / 'page.yaml')
    with open(template, 'w') as f:
        f.write(TEMPLATE)
    cases = []
    for i, (name, (change, words)) in enumerate(sorted(FAULTS.items())):
        if change is None:
            directory, path = _plugin_dir(tmp_path, 'fault%d' % i, mode=0o777)
            named = directory
        else:
            directory, path = _plugin_dir(tmp_path, 'fault%d' % i, text=change(good))
            named = path
        cases.append((name, named, words, directory))
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    # heat_stack with each fault; heat_template_validate (which never writes) with the first
    steps = [dict(name='faulty', template=template, resource_plugin_dirs=[directory])
             for _name, _named, _words, directory in cases]
    steps.append(dict(_module='heat_template_validate', template=template, resource_plugin_dirs=[cases[0][3]]))
    results = runner.run_steps(steps)
    for (name, named, words, _directory), (result, writes) in zip(cases + cases[:1], results):
        assert result['failed'] is True, name
        assert result['msg'].startswith(named) and words in result['msg'], (name, result['msg'])
        assert writes == {}, (name, writes)
    assert os.path.exists(str(tmp_path / 'stacks.sqlite')) is False or runner.run_steps(
        [dict(_module='heat_stack_info')])[0][0]['stacks'] == []


def test_the_examples_are_created_and_deleted(cloud, tmp_path):
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    names = sorted(os.listdir(EXAMPLES))
    assert len(names) >= 2
    steps = []
    for name in names:
        args = dict(name='example-' + name.replace('_', '-'), resource_plugin_dirs=[os.path.join(EXAMPLES, name)])
        steps.append(dict(args, template=os.path.join(EXAMPLES, name, 'template.yaml')))
        steps.append(dict(args, state='absent'))
    results = runner.run_steps(steps)
    for i, name in enumerate(names):
        (created, _c), (deleted, _d) = results[2 * i:2 * i + 2]
        assert created['stack']['stack_status'] == 'CREATE_COMPLETE', (name, created.get('msg'))
        assert all(o['output_value'] not in (None, '') for o in created['stack']['outputs']), created['stack']
        assert deleted['stack']['stack_status'] == 'DELETE_COMPLETE', (name, deleted.get('msg'))
    assert ids(cloud.resources()) == before
