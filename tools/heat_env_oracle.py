# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Ask installed Heat's own environment code what it makes of test cases.

Run with the Python that has ``openstack-heat`` (read-only use):

    /tmp/warm-heat/bin/python tools/heat_env_oracle.py < cases.json > answers.json

Input: a JSON list of cases, each ``{"kind": "merge"|"registry"|"parse", ...}``:

* merge: ``envs`` (list of env mappings), ``param_types`` (name -> HOT type),
  ``parameters`` (request parameters) -> ``{"result": {section: value}}``.
* registry: ``env`` (an environment mapping), optional ``child`` (list of
  ``{"params": ..., "resource": name}`` steps building nested environments),
  ``lookups`` (list of ``[type, resource_name]``), ``hooks`` (resource
  names) -> per lookup the template name or plugin type, and per resource
  its hooks and restricted actions.
* parse: ``text`` -> the parsed environment or the error.

Every answer is ``{"error": "ExceptionClass: message"}`` when Heat raised.
The unit tests compare our engine with these answers.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import logging
import sys
import warnings

HOT_TO_SCHEMA = {'string': 'String', 'number': 'Number', 'comma_delimited_list': 'CommaDelimitedList',
                 'json': 'Json', 'boolean': 'Boolean'}
HOOK_TYPES = ('pre-create', 'pre-update', 'pre-delete', 'post-create', 'post-update', 'post-delete')


def _error(exc):
    return {'error': '%s: %s' % (type(exc).__name__, exc)}


def merge(case):
    from heat.common import environment_util as env_util
    from heat.engine import parameters
    params = {'parameters': dict(case.get('parameters') or {}), 'resource_registry': {},
              'parameter_defaults': {}, 'event_sinks': [], 'encrypted_param_names': []}
    files = dict(('env%d' % i, json.dumps(e)) for i, e in enumerate(case['envs']))
    schemata = dict((k, parameters.Schema(HOT_TO_SCHEMA[v])) for k, v in case['param_types'].items())
    try:
        env_util.merge_environments(sorted(files), files, params, schemata)
    except Exception as exc:  # the oracle reports whatever Heat raises
        return _error(exc)
    return {'result': params}


def registry(case):
    from heat.engine import environment
    try:
        env = environment.Environment(case['env'])
        for step in case.get('child', []):
            remove = None
            if step.get('remove'):
                remove = env.get_resource_info(step['remove'][0], step['remove'][1])
            env = environment.get_child_environment(env, step.get('params'), item_to_remove=remove,
                                                    child_resource_name=step.get('resource'))
    except Exception as exc:
        return _error(exc)
    out = {'lookups': [], 'hooks': {}, 'restricted': {}}
    for type_name, resource_name in case.get('lookups', []):
        try:
            info = env.get_resource_info(type_name, resource_name)
            if isinstance(info, environment.TemplateResourceInfo):
                out['lookups'].append({'template': info.template_name, 'name': info.name})
            else:
                out['lookups'].append({'plugin': info.name})
        except Exception as exc:
            out['lookups'].append(_error(exc))
    for name in case.get('hooks', []):
        out['hooks'][name] = sorted(h for h in HOOK_TYPES if env.registry.matches_hook(name, h))
        out['restricted'][name] = sorted(env.registry.get_rsrc_restricted_actions(name))
    out['parameters'] = env.params
    out['parameter_defaults'] = env.param_defaults
    return out


def parse(case):
    from heat.common import environment_format
    try:
        return {'result': environment_format.parse(case['text'])}
    except Exception as exc:
        return _error(exc)


def main():
    warnings.filterwarnings('ignore')
    logging.disable(logging.CRITICAL)
    from oslo_config import cfg
    cfg.CONF(args=[], project='heat', default_config_files=[])
    from heat.engine import resources
    resources.initialise()
    cases = json.load(sys.stdin)
    handlers = {'merge': merge, 'registry': registry, 'parse': parse}
    json.dump([handlers[c['kind']](c) for c in cases], sys.stdout, default=repr)


if __name__ == '__main__':
    main()
