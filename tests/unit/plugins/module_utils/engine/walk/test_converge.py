# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk import converge
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.converge import StepKey
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.scheduler import DONE, Scheduler
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.testresource import TestResource

TEMPLATE = '''
resources:
  a: {type: OS::Heat::TestResource, properties: {value: a}}
  b: {type: OS::Heat::TestResource, properties: {value: {get_resource: a}}}
  c: {type: OS::Heat::Value, properties: {value: {get_attr: [b, output]}}}
'''


def add_row(run, name, role='current', requires=(), type_name='OS::Heat::TestResource',
            **kw):
    row = dict(uuid=str(uuid.uuid4()), stack_id=run.stack['id'], name=name, role=role,
               type=type_name, physical_id='pid-%s-%s' % (name, role), action='CREATE',
               status='COMPLETE', properties={}, requires=list(requires),
               physical_name='st-%s-x' % name)
    row.update(kw)
    return run.save(ResourceRow(**row))


def test_a_step_key_names_its_parts_and_its_stack():
    top = StepKey('res', 'a')
    assert (top.kind, top.name, top.path) == ('res', 'a', ())
    nested = top.under(('child',))
    assert nested == StepKey('res', 'a', ('child',)) and nested != top
    # moved again, one more level up the tree: the path grows at the front
    assert nested.under(('tier',)).path == ('tier', 'child')
    assert nested.in_stack() == top and top.in_stack() is top
    # a key is a value: equal keys hash alike, keys of other stacks do not collide
    steps = {top: 1, nested: 2, StepKey('res', 'a'): 3, StepKey('cleanup', 'a'): 4}
    assert len(steps) == 3 and steps[StepKey('res', 'a', ())] == 3
    assert StepKey('param', ('tier', 'p')) in {StepKey('param', ('tier', 'p'), ())}


def test_step_keys_order_by_kind_then_name_then_stack():
    keys = [StepKey('res', 'b'), StepKey('res', 'a', ('x',)), StepKey('del', 'u1'),
            StepKey('res', 'a'), StepKey('cleanup', 'z')]
    assert sorted(keys) == [StepKey('cleanup', 'z'), StepKey('del', 'u1'), StepKey('res', 'a'),
                            StepKey('res', 'a', ('x',)), StepKey('res', 'b')]
    # the scheduler and the summary order by repr: the same whatever the insertion order
    assert sorted(keys, key=repr) == sorted(reversed(keys), key=repr)
    assert [k.name for k in sorted(keys, key=repr)][:3] == ['z', 'u1', 'a']


def test_fresh_stack_steps_follow_the_graph(make_run):
    run, graph = make_run(TEMPLATE)
    deps, work = converge.converge_steps(run, graph, {})
    assert deps == {StepKey('res', 'a'): set(), StepKey('res', 'b'): {StepKey('res', 'a')},
                    StepKey('res', 'c'): {StepKey('res', 'b')}}
    assert set(work) == set(deps)


def test_hub_nodes_have_no_work(make_run):
    run, graph = make_run(TEMPLATE)
    hub = StepKey('hub', 'x')
    graph.add_node(hub, hub=True, definition=None)
    graph.remove_edge('b', 'a')
    graph.add_edge('b', hub)
    graph.add_edge(hub, 'a')
    deps, work = converge.converge_steps(run, graph, {})
    assert work[StepKey('hub', hub)] is None
    assert deps[StepKey('res', 'b')] == {StepKey('hub', hub)}
    assert deps[StepKey('hub', hub)] == {StepKey('res', 'a')}


def test_cleanup_of_a_replaced_resource_waits_for_its_users(make_run):
    run, graph = make_run(TEMPLATE)
    for name, req in (('a', ()), ('b', ('a',)), ('c', ('b',))):
        add_row(run, name, requires=req)
    deps, work = converge.converge_steps(run, graph, {})
    # an old object of a goes after a's step and after b (its user) moved on
    assert deps[StepKey('cleanup', 'a')] >= {StepKey('res', 'a'), StepKey('res', 'b'), StepKey('cleanup', 'b')}
    assert deps[StepKey('cleanup', 'c')] == {StepKey('res', 'c')}
    assert not any(key.kind == 'del' for key in deps)


def test_rows_no_longer_wanted_deleted_after_their_users(make_run):
    run, graph = make_run('resources:\n  keep: {type: OS::Heat::Value, properties: {value: 1}}\n')
    add_row(run, 'keep', type_name='OS::Heat::Value')
    base = add_row(run, 'base')
    user = add_row(run, 'user', requires=('base',))
    stale = add_row(run, 'keep', role='old', type_name='OS::Heat::Value')
    deps, work = converge.converge_steps(run, graph, {})
    assert deps[StepKey('del', base.uuid)] == {StepKey('del', user.uuid)}
    assert deps[StepKey('del', user.uuid)] == set()
    # a leftover of an interrupted replacement goes after the resource's step
    assert StepKey('res', 'keep') in deps[StepKey('del', stale.uuid)]


def record_deletes(monkeypatch):
    """TestResource with its delete recorded: the names, in the order deleted."""
    deleted = []

    class Recording(TestResource):
        def delete(self, ctx):
            deleted.append(ctx.name)
    monkeypatch.setitem(resources.PLUGINS, 'OS::Heat::TestResource', Recording)
    return deleted


def test_delete_steps_users_first_and_run(make_run, monkeypatch):
    deleted = record_deletes(monkeypatch)
    run, graph = make_run(TEMPLATE)
    rows = [add_row(run, 'a'), add_row(run, 'b', requires=('a',)),
            add_row(run, 'c', requires=('b',))]
    deps, work = converge.delete_steps(run, {})
    by_name = dict((r.name, StepKey('del', r.uuid)) for r in rows)
    assert deps[by_name['a']] == {by_name['b']}
    assert deps[by_name['b']] == {by_name['c']}
    assert deps[by_name['c']] == set()
    out = Scheduler().run(deps, work)
    assert all(o.status == DONE for o in out.values())
    assert deleted == ['c', 'b', 'a']
    assert run.rows == {} and run.store.resources(run.stack['id']) == []


def test_retain_and_adopted_rows_are_not_deleted_in_the_cloud(make_run, monkeypatch):
    deleted = record_deletes(monkeypatch)
    run, graph = make_run(TEMPLATE)
    add_row(run, 'a')
    add_row(run, 'b', data={'adopted': True})
    add_row(run, 'c')
    deps, work = converge.delete_steps(run, {'a': 'Retain'})
    Scheduler().run(deps, work)
    assert deleted == ['c']
    assert run.rows == {}


def test_action_steps_order(make_run):
    run, graph = make_run(TEMPLATE)
    a, b, c = (add_row(run, 'a'), add_row(run, 'b', requires=('a',)),
               add_row(run, 'c', requires=('b', 'gone')))
    add_row(run, 'a', role='old')
    deps, work = converge.action_steps(run, 'RESUME')
    assert deps == {StepKey('act', 'a'): set(), StepKey('act', 'b'): {StepKey('act', 'a')},
                    StepKey('act', 'c'): {StepKey('act', 'b')}}
    deps, work = converge.action_steps(run, 'SUSPEND')
    assert deps == {StepKey('act', 'c'): set(), StepKey('act', 'b'): {StepKey('act', 'c')},
                    StepKey('act', 'a'): {StepKey('act', 'b')}}


class _CountedRow(object):
    """A record row that counts how often its name is read."""
    reads = [0]

    def __init__(self, uuid, name, requires=()):
        self.uuid, self._name, self.requires, self.role = uuid, name, list(requires), 'current'
        self.facts = {}

    @property
    def name(self):
        self.reads[0] += 1
        return self._name


def test_steps_read_each_row_a_bounded_number_of_times(make_run):
    # A delete of N rows once compared every row with every other (N² name reads: minutes at
    # 10,000 resources); the steps must read each row a bounded number of times.
    run, graph = make_run(TEMPLATE)
    count = 400
    rows = [_CountedRow('u%d' % i, 'r%d' % i, requires=['r%d' % (i - 1)] if i else ())
            for i in range(count)]

    class Rows(dict):
        pass
    run.rows = Rows((r.uuid, r) for r in rows)
    _CountedRow.reads[0] = 0
    deps, _work = converge.delete_steps(run, {})
    assert _CountedRow.reads[0] < 10 * count
    assert deps[StepKey('del', 'u0')] == {StepKey('del', 'u1')} and deps[StepKey('del', 'u%d' % (count - 1))] == set()


MIXED = '''
resources:
  net: {type: OS::Neutron::Net}
  r: {type: OS::Heat::RandomString}
  n: {type: OS::Heat::None, depends_on: r}
'''


def test_local_steps_are_those_of_record_only_types(make_run):
    run, graph = make_run(MIXED)
    deps, _work = converge.converge_steps(run, graph, {})
    assert converge.local_steps(run, deps) == {StepKey('res', 'r'), StepKey('res', 'n')}


def test_a_step_whose_rows_include_a_cloud_type_is_not_local(make_run):
    run, graph = make_run(MIXED)
    # r was a port before this update (its old row a cloud object), n's row stays None
    old = add_row(run, 'r', type_name='OS::Neutron::Port')
    gone = add_row(run, 'gone', type_name='OS::Heat::None')
    cloud = add_row(run, 'gone2', type_name='OS::Neutron::Net')
    keys = [StepKey('res', 'r'), StepKey('cleanup', 'r'), StepKey('res', 'n'), StepKey('del', gone.uuid),
            StepKey('del', cloud.uuid), StepKey('del', old.uuid), StepKey('hub', 'x')]
    assert converge.local_steps(run, keys) == {StepKey('res', 'n'), StepKey('del', gone.uuid)}


READS = '''
resources:
  net: {type: OS::Neutron::Net}
  r: {type: OS::Heat::RandomString}
  after_net: {type: OS::Heat::None, depends_on: net, properties: {a: {get_resource: net}}}
  reads_r: {type: OS::Heat::Value, properties: {value: {list_join: ['-', [{get_attr: [r, value]}]]}}}
  reads_net: {type: OS::Heat::Value, properties: {value: {get_attr: [net, name]}}}
  meta_net: {type: OS::Heat::None, metadata: {m: {get_attr: [net, show]}}}
'''


def test_inline_steps_are_local_ones_reading_no_cloud_objects_attribute(make_run):
    run, graph = make_run(READS)
    gone = add_row(run, 'gone', type_name='OS::Heat::None')
    deps, _work = converge.converge_steps(run, graph, {})
    local = converge.local_steps(run, deps)
    assert StepKey('res', 'reads_net') in local and StepKey('del', gone.uuid) in local
    # get_resource of a cloud object is its id, from the record: no request
    assert converge.inline_steps(run, local) == {
        StepKey('res', 'r'), StepKey('res', 'after_net'), StepKey('res', 'reads_r'), StepKey('del', gone.uuid)}


def test_no_step_is_inline_when_the_store_writes_over_the_network(make_run):
    run, graph = make_run(READS)
    deps, _work = converge.converge_steps(run, graph, {})
    local = converge.local_steps(run, deps)
    assert converge.inline_steps(run, local)

    class Remote(object):
        local_writes = False
    run.store = Remote()
    assert converge.inline_steps(run, local) == set()
    run.store = object()     # a store that does not say: pooled
    assert converge.inline_steps(run, local) == set()


def test_a_cleanup_with_no_old_row_is_no_work(make_run):
    run, graph = make_run(TEMPLATE)
    for name in 'abc':
        add_row(run, name)
    add_row(run, 'a', role='old')
    _deps, work = converge.converge_steps(run, graph, {})
    assert work[StepKey('cleanup', 'b')]() is None
    gen = work[StepKey('cleanup', 'a')]()
    assert gen is not None and hasattr(gen, 'send')
    gen.close()


TIERS = '''
resources:
  net: {type: OS::Neutron::Net}
  subnet: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}, cidr: 10.0.0.0/24}}
  sg: {type: OS::Neutron::SecurityGroup}
  port:
    type: OS::Neutron::Port
    properties: {network: {get_resource: net}, security_groups: [{get_resource: sg}]}
    depends_on: subnet
  server:
    type: OS::Nova::Server
    properties: {image: cirros, flavor: m1.tiny, networks: [{port: {get_resource: port}}]}
  router: {type: OS::Neutron::Router}
  router_if:
    type: OS::Neutron::RouterInterface
    properties: {router: {get_resource: router}, subnet: {get_resource: subnet}}
  fip:
    type: OS::Neutron::FloatingIP
    properties: {floating_network: public, port_id: {get_resource: port}}
    depends_on: router_if
  r: {type: OS::Heat::RandomString}
'''


def test_deferrable_steps_are_the_cloud_steps_on_no_way_to_a_build(make_run):
    run, graph = make_run(TIERS)
    deps, _work = converge.converge_steps(run, graph, {})
    lanes = converge.lanes(run, deps)
    # the router, its interface and the floating IP lead to no build; the
    # network, subnet, group and port lead to the server's; r is local
    assert lanes['defer'] == {StepKey('res', 'router'), StepKey('res', 'router_if'), StepKey('res', 'fip')}
    assert StepKey('res', 'r') in lanes['local'] and StepKey('res', 'r') in lanes['inline']
    assert converge.deferrable_steps(run, deps) == lanes['defer']


def test_nothing_is_deferred_when_nothing_builds(make_run):
    run, graph = make_run(MIXED)
    deps, _work = converge.converge_steps(run, graph, {})
    assert converge.deferrable_steps(run, deps) == set()


def test_a_nested_stacks_step_is_taken_for_a_build(make_run):
    run, graph = make_run(TIERS)
    deps, _work = converge.converge_steps(run, graph, {})
    deps = dict(deps)
    # a nested stack's step that needs the router: its types are its own
    # stack's, so the router is on the way to what may be a build
    deps[StepKey('res', 'inner', ('child',))] = {StepKey('res', 'router')}
    # and a template resource's own step (it ends its stack's walk) is no
    # cloud plugin's: never deferred
    add_row(run, 'tier', type_name='tier.yaml')
    deps[StepKey('res', 'tier')] = {StepKey('res', 'inner', ('child',))}
    assert converge.deferrable_steps(run, deps) == {StepKey('res', 'router_if'), StepKey('res', 'fip')}
