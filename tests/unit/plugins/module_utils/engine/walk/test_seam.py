# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk import seam
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext

from ..conftest import SEAM_TEMPLATE as TEMPLATE, row_of


def test_resolve_properties_and_the_seam(make_run):
    run, _graph = make_run(TEMPLATE)
    props, unknown = run.seam.resolve_properties('v', unknown_names={'r'})
    assert unknown == {'value'} and props['value'] is None
    # RandomString keeps its value as secret data: attributes come from it live
    r = run.save(row_of(run, 'r', reference_id='the-value'),
                 ResourceContext(physical_id='p-r', data={'value': 'the-value'}))
    run.seam.publish(r)
    props, unknown = run.seam.resolve_properties('v')
    assert unknown == set() and props['value'] == 'the-value'
    v = run.save(row_of(run, 'v', 'OS::Heat::Value', reference_id='ref-v'))
    run.seam.publish(v)
    assert run.seam.resolve_properties('w')[0]['value'] == 'ref-v'
    # an attribute reference is unknown when the resource is being updated
    assert run.seam.resolve_properties('v', unknown_attrs={'r'})[1] == {'value'}
    assert run.seam.resolve_properties('w', unknown_attrs={'v'})[1] == set()
    assert run.seam.resolve_properties('s')[0]['value'] == 'x hunter2-secret'


def test_publish_record_only_complete_current_desired_rows(make_run):
    run, _graph = make_run(TEMPLATE)
    run.save(row_of(run, 'v', 'OS::Heat::Value', reference_id='rv'))
    run.save(row_of(run, 'w', 'OS::Heat::Value', status='FAILED', reference_id='rw'))
    run.save(row_of(run, 'gone', 'OS::Heat::Value', reference_id='rg'))
    run.save(row_of(run, 's', 'OS::Heat::Value', reference_id='rs', role='old'))
    run.seam.publish_record(run.rows.values())
    assert sorted(run.sd.resource_data) == ['v']


def test_attribute_references(make_run):
    run, _graph = make_run(TEMPLATE)
    defs = run.sd.resources
    assert seam.attribute_references(defs['v'].properties) == {'r'}
    assert seam.attribute_references(defs['w'].properties) == set()
