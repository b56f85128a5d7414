# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The project's own Heat oracle: Heat 27's engine (the openstack-heat package
of .heat-venv) asked about one template at a time, offline.

Runs ONLY under the oracle venv's Python (it imports ``heat``); the test side
(.venv) talks to it through ``oracle_driver.py``.  ``answer()`` returns the
oracle contract of tests/conformance/README.md: ``valid``, ``error`` (phase,
type, message), ``parameters``, ``conditions``, ``resources`` (type and the
names each one requires), ``dependency_order``, ``resource_properties`` and
``outputs`` (value, error or the resources still unknown), plus a
``<section>_error`` entry when a whole section cannot be computed.

Offline means: nothing here may reach an OpenStack service.  Two things in Heat
would: custom constraints that look a value up through a client (nova.flavor,
glance.image, ...) and the check that a resource type's service is in the
Keystone catalog.  Instead of changing Heat's classes, the global environment
gets what a Heat plugin could register: a subclass of each such constraint that
accepts every value, and a subclass of each such resource type whose service is
always there.  A full validation (each resource's own validate()) runs without
the engine's RPC transport and database, which a group's validate() reaches
for without needing them for a new stack (``_no_engine_service``).  Everything
else is Heat's code as the engine service runs it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import json
import logging
import os
import sys
import warnings

warnings.filterwarnings('ignore')
logging.disable(logging.CRITICAL)  # Heat logs at INFO for every hidden parameter

from oslo_config import cfg  # noqa: E402

cfg.CONF(args=[], project='heat', default_config_files=[])

from heat.common import context as heat_context  # noqa: E402
from heat.common import template_format  # noqa: E402
from heat.engine import constraints  # noqa: E402
from heat.engine import environment  # noqa: E402
from heat.engine import function  # noqa: E402
from heat.engine import node_data  # noqa: E402
from heat.engine import plugin_manager  # noqa: E402
from heat.engine import resource as heat_resource  # noqa: E402
from heat.engine import resources as heat_resources  # noqa: E402
from heat.engine import stack as heat_stack  # noqa: E402
from heat.engine import template as heat_template  # noqa: E402
from heat.objects import service as heat_service  # noqa: E402

STACK_NAME = 'oracle_stack'
# Parameters every stack has; the contract lists only the template's own.
PSEUDO_PARAMETERS = frozenset(('AWS::Region', 'AWS::StackId', 'AWS::StackName',
                               'AWS::AccountId', 'AWS::NoValue'))
ENV_SECTIONS = ('parameters', 'parameter_defaults', 'resource_registry',
                'event_sinks', 'parameter_merge_strategies')


def _always_valid(self, value, context, template=None):
    return True


def _service_always_there(cls, context):
    return (True, None)


def _offline_constraints(env):
    """Client-backed constraints accept every value; constraints that check a
    value by themselves (ip_addr, cron_expression, ...) define their own
    validate() and stay as they are."""
    base = constraints.BaseCustomConstraint
    for name, cls in list(env.constraints.items()):
        if isinstance(cls, type) and issubclass(cls, base) and cls.validate is base.validate:
            env.register_constraint(name, type(cls.__name__, (cls,),
                                               {'validate': _always_valid}))


def _offline_resource_types(env):
    """Resource types whose service Heat would look up in the catalog get a
    subclass that finds it; types with their own availability rule keep it."""
    manager = plugin_manager.PluginManager(heat_resources.__name__)
    mapping = plugin_manager.PluginMapping(['available_resource', 'resource'])
    generic = heat_resource.Resource.is_service_available.__func__
    for name, cls in mapping.load_all(manager):
        if cls.default_client_name is None or cls.is_service_available.__func__ is not generic:
            continue
        offline = type(cls.__name__, (cls,),
                       {'is_service_available': classmethod(_service_always_there),
                        '__module__': cls.__module__, '__qualname__': cls.__qualname__,
                        '__doc__': cls.__doc__})
        env.register_class(name, offline)


class _NoEngine(object):
    """The engine's RPC client while a full validation runs: a group's
    validate() makes one (GroupInspector) and calls it only for a stack that
    exists, which no question has; a call is a failure of the oracle."""

    def __getattr__(self, name):
        raise AssertionError('the oracle has no Heat engine to call (%s)' % name)


@contextlib.contextmanager
def _no_engine_service():
    """While the resources' own validate() run: no RPC transport (a group's
    member inspector is made, not called, for a new stack) and one engine
    (a ResourceChain's concurrency, which Heat counts in its database)."""
    saved = (heat_resource.Resource.rpc_client,
             heat_service.Service.__dict__['active_service_count'])
    heat_resource.Resource.rpc_client = lambda self: _NoEngine()
    heat_service.Service.active_service_count = classmethod(lambda cls, context: 1)
    try:
        yield
    finally:
        heat_resource.Resource.rpc_client = saved[0]
        heat_service.Service.active_service_count = saved[1]


def _prepare():
    heat_resources.initialise()  # loads every plugin once (~1 s)
    env = heat_resources.global_env()
    _offline_constraints(env)
    _offline_resource_types(env)


def _context():
    # heat.tests.utils.dummy_context()'s identity; its auth_url is loopback on
    # the discard port so a stray request fails at once instead of hanging.
    return heat_context.RequestContext.from_dict({
        'tenant_id': 'test_tenant_id', 'tenant': 'test_tenant',
        'username': 'test_username', 'user_id': None, 'password': '',
        'roles': [], 'is_admin': False, 'auth_url': 'http://127.0.0.1:9/v2.0',
        'auth_token': 'abcd1234', 'trust_id': None, 'region_name': None})


class _AttributePaths(dict):
    """get_attr with a path ([port, fixed_ips, 0, ip_address]) looks the
    tuple up in a resource's cached attributes; walk it from the top-level
    value the request gave, None where the path does not exist (as Heat)."""

    def __missing__(self, key):
        if not isinstance(key, tuple):
            raise KeyError(key)
        value = dict.__getitem__(self, key[0])
        for step in key[1:]:
            try:
                value = value[step]
            except (KeyError, IndexError, TypeError):
                return None
        return value


def _live_state(fake_resources):
    state = {}
    for name, given in fake_resources.items():
        state[name] = node_data.NodeData(
            None, name, None, given.get('reference_id', name + '-fake-id'),
            _AttributePaths(given.get('attrs') or {}),
            given.get('action', 'CREATE'), given.get('status', 'COMPLETE'))
    return state


def _failure(exc, phase):
    return {'phase': phase, 'type': type(exc).__name__, 'message': str(exc)}


def _plain(value):
    """JSON as it is, or its repr when Heat hands back an object."""
    try:
        json.dumps(value)
    except TypeError:
        return repr(value)
    return value


def _environment(params):
    if any(key in params for key in ENV_SECTIONS):
        return params
    return {'parameters': params}


class _Question(object):
    """One template, the stack Heat builds from it and the answer so far."""

    def __init__(self, template_text, params, files, fake_resources):
        self.files = files or {}
        self.fake = fake_resources or {}
        self.env_dict = _environment(params or {})
        self.answer = {'valid': False, 'error': None, 'conditions': {},
                       'resources': {}, 'dependency_order': [], 'outputs': {},
                       'resource_properties': {}}
        self.text = template_text
        self.parsed = None
        self.stack = None
        self.resolving = None

    def _new_stack(self, live=None):
        tmpl = heat_template.Template(self.parsed, files=self.files,
                                      env=environment.Environment(self.env_dict))
        return heat_stack.Stack(_context(), STACK_NAME, tmpl, cache_data=live)

    def build(self):
        self.parsed = template_format.parse(self.text)
        self.stack = self._new_stack()
        # validate() stores node data of its own on the resources, so values
        # that read live state come from a second stack that only knows it.
        self.resolving = self.stack
        if self.fake:
            self.resolving = self._new_stack(_live_state(self.fake))

    def validate(self):
        if os.environ.get('HEAT_ORACLE_FULL_VALIDATE') == '1':
            with _no_engine_service():
                self.stack.validate(validate_res_tmpl_only=False)
        else:
            self.stack.validate(validate_res_tmpl_only=True)
        self.answer['valid'] = True

    def parameters(self):
        params = self.stack.parameters
        self.answer['parameters'] = {
            name: _plain(params[name]) for name in params
            if not name.startswith('OS::') and name not in PSEUDO_PARAMETERS}

    def conditions(self):
        known = self.stack.t.conditions(self.stack)
        for name in (self.parsed.get('conditions') or {}):
            self.answer['conditions'][name] = known.is_enabled(name)

    def dependencies(self):
        deps = self.stack.dependencies
        requires = {node.name: sorted(req.name for req in needed)
                    for node, needed in deps.graph().items()}
        order = [res.name for res in deps]
        self.answer['dependency_order'] = order
        for name in order:
            self.answer['resources'][name] = {'type': self.stack[name].type(),
                                              'requires': requires[name]}

    def properties(self):
        for name, res in self.resolving.resources.items():
            # Properties.data is the definition's own snippet, functions and
            # all; a definition without properties renders none (null).
            has = 'properties' in res.t.render_hot()
            raw = res.t.properties({}, res.context).data if has else None
            try:
                value = _plain(function.resolve(raw))
            except Exception as exc:  # noqa: BLE001 - Heat's failure is the answer
                value = {'error': _failure(exc, 'properties')}
            self.answer['resource_properties'][name] = value

    def outputs(self):
        for name, out in self.resolving.outputs.items():
            unknown = sorted(n for n in out.required_resource_names() if n not in self.fake)
            if unknown:
                self.answer['outputs'][name] = {'unresolved': unknown}
                continue
            try:
                self.answer['outputs'][name] = {'value': _plain(out.get_value())}
            except Exception as exc:  # noqa: BLE001 - Heat's failure is the answer
                self.answer['outputs'][name] = {'error': _failure(exc, 'output')}


# After the stack is built every section is answered on its own: one failing
# (with the phase and the key it is reported under) does not hide the others.
SECTIONS = (('validate', 'error', 'validate'),
            ('parameters', 'parameters_error', 'parameters'),
            ('conditions', 'conditions_error', 'conditions'),
            ('dependencies', 'dependency_error', 'dependencies'),
            ('properties', 'resource_properties_error', 'properties'),
            ('outputs', 'outputs_error', 'outputs'))


def answer(template_text, params=None, files=None, fake_resources=None):
    """What Heat makes of one template (see the module docstring)."""
    question = _Question(template_text, params, files, fake_resources)
    try:
        question.build()
    except Exception as exc:  # noqa: BLE001 - any failure of Heat is an answer
        question.answer['error'] = _failure(exc, 'parse')
        return question.answer
    for phase, key, method in SECTIONS:
        try:
            getattr(question, method)()
        except Exception as exc:  # noqa: BLE001 - any failure of Heat is an answer
            question.answer[key] = _failure(exc, phase)
    return question.answer


_prepare()


def main(argv):
    """``--batch``: request lines on stdin ({"id", "template_text" or
    "template" (a path), "params", "files", "fake_resources"}), one JSON
    answer per line on stdout, with its id."""
    if argv != ['--batch']:
        sys.stderr.write('usage: heat_offline.py --batch < requests.jsonl\n')
        return 2
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        text = req.get('template_text')
        if text is None:
            with open(req['template']) as handle:
                text = handle.read()
        out = answer(text, req.get('params'), req.get('files'), req.get('fake_resources'))
        out['id'] = req.get('id')
        sys.stdout.write(json.dumps(out, sort_keys=True) + '\n')
        sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
