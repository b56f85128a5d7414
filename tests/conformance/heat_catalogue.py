# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat 27's own answers to the catalogue commands, offline: run ONLY under the
oracle venv's Python (it imports ``heat``), it prints one JSON document.

``resource type list [--long]``, ``resource type show TYPE [--long]``,
``resource type show TYPE --template-type hot|cfn``, ``template version list``
and ``template function list VERSION [--with_conditions]`` are the engine
service's list_resource_types, resource_schema, generate_template,
list_template_versions and list_template_functions; the API passes their
results through.  With ``--validate``, it reads ``{name: template}`` (JSON) on
stdin instead and answers ``{name: null, or Heat's message}``: what
``openstack orchestration template validate`` (the service's validate_template)
says of each template.  They are called here as the service runs them, with an
admin context (Heat's policy keeps some types to admins) in the global
environment heat_offline.py prepares (every service in the catalog).

The plain function lists are asked for before the ones with conditions:
Heat's list_template_functions adds the condition functions into the
template class's own table when asked for them (it updates the dict it
reads), so a later plain list of that version would include them.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# importing heat_offline prepares Heat's global environment offline
import heat_offline  # noqa: E402,F401 pylint: disable=unused-import

from heat.common import context as heat_context  # noqa: E402
from heat.common import policy  # noqa: E402
from heat.engine import service  # noqa: E402


def _admin():
    return heat_context.RequestContext.from_dict({
        'tenant_id': 'test_tenant_id', 'tenant': 'test_tenant', 'username': 'admin',
        'user_id': None, 'password': '', 'roles': ['admin'], 'is_admin': True,
        'auth_url': 'http://127.0.0.1:9/v2.0', 'auth_token': 'abcd1234', 'trust_id': None,
        'region_name': None})


def _failure(exc):
    return {'error': type(exc).__name__, 'message': str(exc)}


def _service():
    svc = service.EngineService.__new__(service.EngineService)
    svc.resource_enforcer = policy.ResourceEnforcer()
    return svc


def validated(templates):
    svc = _service()
    out = {}
    for name, template in templates.items():
        try:
            result = svc.validate_template(_admin(), template, {})
        except Exception as exc:  # noqa: BLE001 - Heat's failure is the answer
            out[name] = '%s: %s' % (type(exc).__name__, exc)
        else:
            out[name] = result.get('Error')
    return out


def answers():
    svc = _service()
    cnxt = _admin()
    out = {'list': svc.list_resource_types(cnxt),
           'list_long': svc.list_resource_types(cnxt, with_description=True),
           'show': {}, 'show_long': {}, 'hot': {}, 'cfn': {}}
    for name in out['list']:
        out['show'][name] = svc.resource_schema(cnxt, name)
        out['show_long'][name] = svc.resource_schema(cnxt, name, with_description=True)
        for kind in ('hot', 'cfn'):
            try:
                out[kind][name] = svc.generate_template(cnxt, name, kind)
            except Exception as exc:  # noqa: BLE001 - Heat's failure is the answer
                out[kind][name] = _failure(exc)
    out['versions'] = svc.list_template_versions(cnxt)
    names = [v['version'] for v in out['versions']]
    out['functions'] = dict((v, svc.list_template_functions(cnxt, v)) for v in names)
    out['functions_conditions'] = dict(
        (v, svc.list_template_functions(cnxt, v, with_condition=True)) for v in names)
    return out


if __name__ == '__main__':
    if sys.argv[1:] == ['--validate']:
        json.dump(validated(json.load(sys.stdin)), sys.stdout, sort_keys=True)
    else:
        json.dump(answers(), sys.stdout, sort_keys=True, default=str)
