# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.converge import StepKey
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.outputs import resolve_outputs

TEMPLATE = '''
parameters:
  p: {type: string, default: pv}
conditions:
  never: {equals: [1, 2]}
resources:
  a: {type: OS::Heat::TestResource, properties: {value: x}}
  b: {type: OS::Heat::Value, properties: {value: {get_param: p}}}
outputs:
  z_param: {value: {get_param: p}, description: the parameter}
  from_a: {value: {get_attr: [a, output]}}
  ref_b: {value: {get_resource: b}}
  disabled: {value: {get_param: p}, condition: never}
  broken: {value: {list_join: [',', {get_attr: [b, value]}]}}
'''


def test_outputs_shape_order_and_errors(make_run):
    run, _graph = make_run(TEMPLATE)
    run.sd.resource_data['b'] = {'reference_id': 'ref-of-b', 'attrs': {'value': 'pv'}}
    out = resolve_outputs(run)
    assert [o['output_key'] for o in out] == ['broken', 'disabled', 'from_a', 'ref_b', 'z_param']
    by_key = dict((o['output_key'], o) for o in out)
    assert by_key['z_param'] == {'output_key': 'z_param', 'output_value': 'pv',
                                 'description': 'the parameter'}
    assert by_key['ref_b'] == {'output_key': 'ref_b', 'output_value': 'ref-of-b',
                               'description': 'No description given'}
    assert by_key['disabled']['output_value'] is None and 'output_error' not in by_key['disabled']
    assert by_key['from_a']['output_value'] is None
    assert by_key['from_a']['output_error'] == 'Resource a is not created'
    assert set(by_key['broken']) == {'output_key', 'output_value', 'description', 'output_error'}
    assert by_key['broken']['output_value'] is None
    assert 'outputs.broken.value.list_join' in by_key['broken']['output_error']
    assert 'must operate on lists' in by_key['broken']['output_error']


def test_outputs_after_a_real_create(stacks):
    result = stacks.run(TEMPLATE.replace(
        "  broken: {value: {list_join: [',', {get_attr: [b, value]}]}}\n", ''))
    by_key = dict((o['output_key'], o) for o in result['stack']['outputs'])
    assert by_key['from_a']['output_value'] == 'x'
    assert by_key['ref_b']['output_value'].startswith('st-b-')
    assert all('output_error' not in o for o in result['stack']['outputs'])


class _Growing(object):
    """A fake type whose live attribute moves after it settled (like a network's subnets)."""

    type_name = 'OS::Heat::TestResource'
    shows = []

    def __init__(self):
        from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.testresource import TestResource
        self._real = TestResource()

    def __getattr__(self, name):
        return getattr(self._real, name)

    def create(self, ctx):
        ctx.live = {'output': 'at-create'}
        return 'phys-' + ctx.name

    def show(self, ctx):
        _Growing.shows.append(ctx.name)
        return {'output': 'later'}

    def attributes(self, ctx, live, names=None):
        return dict(live or {})


def test_outputs_read_the_attributes_again_after_a_changing_run(stacks, monkeypatch):
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
    monkeypatch.setitem(resources.PLUGINS, 'OS::Heat::TestResource', _Growing)
    _Growing.shows = []
    text = "resources:\n  a: {type: OS::Heat::TestResource}\n  b: {type: OS::Heat::TestResource}\n" \
           "outputs:\n  seen: {value: {get_attr: [a, output]}}\n  ref: {value: {get_resource: b}}\n"
    first = stacks.run(text)
    assert [o['output_value'] for o in first['stack']['outputs'] if o['output_key'] == 'seen'] == ['later']
    assert _Growing.shows == ['a']          # only what an output reads an attribute of, once
    again = stacks.run(text)
    assert again['changed'] is False
    assert _Growing.shows == ['a']          # a run that changed nothing reads nothing
    assert [o['output_value'] for o in again['stack']['outputs'] if o['output_key'] == 'seen'] == ['later']


def test_output_attributes_names_what_each_output_reads(make_run):
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.outputs import output_attributes
    run, _graph = make_run(TEMPLATE.replace('outputs:\n', '''outputs:
  every_b: {value: {get_attr: [b]}}
  a_again: {value: {get_attr: [a, show]}}
  computed: {value: {get_attr: [c, {get_param: which}]}}
  hidden_c: {value: {get_attr: [c, output]}, condition: never}
''').replace('resources:\n', '''resources:
  c: {type: OS::Heat::TestResource}
''').replace('parameters:\n', '''parameters:
  which: {type: string, default: output}
'''))
    # a literal name is what is read; no name or a computed one, everything
    assert output_attributes(run.sd) == {'a': {'output', 'show'}, 'b': None, 'c': None}


class _Asked(_Growing):
    asked = []

    def attributes(self, ctx, live, names=None):
        _Asked.asked.append((ctx.name, None if names is None else sorted(names)))
        return dict(live or {})


def test_outputs_read_again_only_the_attributes_they_name(stacks, monkeypatch):
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
    monkeypatch.setitem(resources.PLUGINS, 'OS::Heat::TestResource', _Asked)
    _Growing.shows, _Asked.asked = [], []
    text = "resources:\n  a: {type: OS::Heat::TestResource}\n  b: {type: OS::Heat::TestResource}\n" \
           "outputs:\n  seen: {value: {get_attr: [a, output]}}\n  every: {value: {get_attr: [b]}}\n"
    first = stacks.run(text)
    assert dict((o['output_key'], o['output_value']) for o in first['stack']['outputs']) == {
        'seen': 'later', 'every': {'output': 'later'}}
    assert sorted(_Growing.shows) == ['a', 'b']       # one read each
    # the walk reads each again in its own step, so a's read may come before b's create: the last ask of each
    last = dict((name, names) for name, names in _Asked.asked if name in ('a', 'b'))
    assert last == {'a': ['output'], 'b': ['output', 'show']}


def test_changers_are_what_names_a_resource_or_names_what_it_names(make_run):
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.outputs import changers
    _run, graph = make_run('''
resources:
  net: {type: OS::Neutron::Net}
  subnet: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}, cidr: 10.0.0.0/24}}
  port: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}
  server: {type: OS::Nova::Server, properties: {image: i, flavor: f, networks: [{port: {get_resource: port}}]}}
  fip: {type: OS::Neutron::FloatingIP, properties: {floating_network: public, port_id: {get_resource: port}}}
  other: {type: OS::Neutron::Net}
''')
    assert changers(graph, 'net') == {'subnet', 'port'}
    assert changers(graph, 'port') == {'server', 'fip', 'subnet'}
    # a floating IP bound to its port; the port too (both need the subnet: Heat's implicit edge)
    assert changers(graph, 'server') == {'fip', 'port'}
    assert changers(graph, 'other') == set()


class _Timed(_Growing):
    """_Growing whose creates take ``SLOW[name]`` seconds; ``log`` keeps the order."""

    SLOW = {'b': 0.1, 'c': 0.5}
    log = []

    def create(self, ctx):
        time.sleep(self.SLOW.get(ctx.name, 0.0))
        _Timed.log.append('made ' + ctx.name)
        return _Growing.create(self, ctx)

    def show(self, ctx):
        _Timed.log.append('read ' + ctx.name)
        return {'output': 'later'}


TIMED = '''
resources:
  a: {type: OS::Heat::TestResource}
  b: {type: OS::Heat::TestResource, depends_on: [a], properties: {value: %s}}
  c: {type: OS::Heat::TestResource, properties: {value: %s}}
outputs:
  seen: {value: {get_attr: [a, output]}}
'''


def test_outputs_read_a_resource_again_once_what_may_move_it_is_made(stacks, monkeypatch):
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
    monkeypatch.setitem(resources.PLUGINS, 'OS::Heat::TestResource', _Timed)
    _Timed.log = []
    first = stacks.run(TIMED % ('b1', 'c1'))
    # a is read again after b (which names it), beside c: not after the whole walk
    assert _Timed.log.index('read a') > _Timed.log.index('made b')
    assert _Timed.log.index('read a') < _Timed.log.index('made c')
    assert _Timed.log.count('read a') == 1
    assert [o['output_value'] for o in first['stack']['outputs']] == ['later']
    # c changed, and nothing that names a: a's values cannot have moved
    _Timed.log = []
    second = stacks.run(TIMED % ('b1', 'c2'))
    assert second['changed'] is True and 'read a' not in _Timed.log
    assert [o['output_value'] for o in second['stack']['outputs']] == ['later']
    # b changed: a is read again
    _Timed.log = []
    stacks.run(TIMED % ('b2', 'c2'))
    assert _Timed.log.count('read a') == 1


def test_a_resource_with_many_changers_is_left_to_finish(make_run):
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk import outputs
    count = outputs.MAX_CHANGERS + 2
    ports = ''.join('  p%d: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}\n' % i
                    for i in range(count))
    run, graph = make_run('resources:\n  net: {type: OS::Neutron::Net}\n' + ports +
                          'outputs:\n  net: {value: {get_attr: [net, name]}}\n'
                          '  port: {value: {get_attr: [p0, name]}}\n')
    maps = outputs.requirement_maps(graph)
    assert outputs.changers(graph, 'net', maps, outputs.MAX_CHANGERS) is None
    assert outputs.changers(graph, 'p0', maps, outputs.MAX_CHANGERS) is None   # its siblings
    assert len(outputs.changers(graph, 'p0', maps)) == count - 1   # unbounded: every other port
    deps = dict((StepKey('res', n), set()) for n in graph.nodes)
    work = {}
    outputs.refresh_steps(run, graph, deps, work)
    assert [k for k in deps if k.kind == 'outputs'] == []       # finish reads them
