# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::SoftwareDeployment over Swift, with Heat's rules.

Each action the deployment's ``actions`` name (CREATE and UPDATE by
default; DELETE, SUSPEND, RESUME on request) derives a config from the
source config (``ctx.lookup`` of its id: the config's row), as Heat's
``_build_derived_config_params``: a new uuid, the deployment's ``name`` or
the config's, the group (``Heat::Ungrouped`` by default), the declared
inputs with their values from ``input_values`` (or their default), the
``input_values`` no input declares, then the derived inputs
``deploy_server_id``, ``deploy_action``, ``deploy_stack_id``
(``<stack name>/<stack id>``), ``deploy_resource_name``,
``deploy_signal_transport`` and, for TEMP_URL_SIGNAL, ``deploy_signal_id``
(a PUT TempURL, _swift_signal.py) and ``deploy_signal_verb`` (PUT).

The derived config becomes the deployment's entry in its server's
deployments document (_deploy_document.py), which the server's agent reads.
NO_SIGNAL completes at once.  TEMP_URL_SIGNAL waits for a signal PUT after
the action began (the handle's versions counted at its start; one HEAD per
look while nothing arrives) and applies it as Heat's
``signal_software_deployment``: a non-zero ``deploy_status_code`` fails it
("Deployment exited with non-zero status code: N"), so does any output
flagged ``error_output`` that the signal holds; otherwise it completes
("Outputs received") with the declared outputs and ``deploy_stdout``,
``deploy_stderr``, ``deploy_status_code`` as attributes.

Our default ``signal_transport`` is TEMP_URL_SIGNAL where Heat's is
CFN_SIGNAL (a Heat API); CFN_SIGNAL, HEAT_SIGNAL and ZAQAR_SIGNAL written in a
template are refused at validation (hot/type_checks.py), so a CFN_SIGNAL
reaching a handler is the schema's default.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import time
import uuid

from ...errors import ResourceFailure
from ...hot import functions as fns
from ...hot.type_checks import SERVER_TYPES
from ..base import ResourcePlugin
from . import _deploy_document as document
from . import _swift_signal as swift
from .software_config import CONFIG

TEMP_URL, NO_SIGNAL = 'TEMP_URL_SIGNAL', 'NO_SIGNAL'
OUTPUT_KEYS = ('deploy_stdout', 'deploy_stderr', 'deploy_status_code')
# ctx.data keys: the source config and input values of the last action (a
# delete's action needs them, and its properties are the record's masked
# ones), the inputs that replace it when they change (name -> default), the
# entry's config id, the signal URL, the wait, and the outputs.
SOURCE, VALUES, REPLACING, DERIVED = 'source', 'input_values', 'replace_on_change', 'derived_id'
URL, WAIT, OUTPUTS = 'signal_url', 'wait', 'outputs'


def transport(props):
    value = props.get('signal_transport')
    return TEMP_URL if value in (None, 'CFN_SIGNAL') else value


def _fail(message):
    raise ResourceFailure('Deployment to server failed: %s' % message, kind='Error')


def derived_inputs(ctx, source, values, action):
    """Heat's derived inputs, in its order (InputConfig.as_dict shapes)."""
    values = dict(values or {})
    out = []
    for item in source.get('inputs') or ():
        entry = dict(item)
        entry['value'] = values.pop(item['name'], item.get('default'))
        out.append(entry)
    for name, value in values.items():
        out.append({'name': name, 'type': 'String', 'value': value})
    props = ctx.properties
    derived = [('deploy_server_id', props.get('server'), 'ID of the server being deployed to'),
               ('deploy_action', action, 'Name of the current action being deployed'),
               ('deploy_stack_id', '%s/%s' % (ctx.stack_name, ctx.stack_id),
                'ID of the stack this deployment belongs to'),
               ('deploy_resource_name', ctx.name, 'Name of this deployment resource in the stack'),
               ('deploy_signal_transport', transport(props),
                'How the server should signal to heat with the deployment output values.')]
    if transport(props) == TEMP_URL:
        derived += [('deploy_signal_id', ctx.data.get(URL),
                     'ID of signal to use for signaling output values'),
                    ('deploy_signal_verb', 'PUT', 'HTTP verb to use for signaling output values')]
    for name, value, description in derived:
        out.append({'name': name, 'type': 'String', 'description': description, 'value': value})
    return out


def apply_signal(source, details):
    """(failed reason or None, output values) of a signal's details, as
    Heat's signal_software_deployment reads them."""
    details = details if isinstance(details, dict) else {}
    values, reasons = {}, []
    code = details.get('deploy_status_code')
    if code and str(code) != '0':
        reasons.append('deploy_status_code : Deployment exited with non-zero status code: %s'
                       % code)
    for output in source.get('outputs') or ():
        name = output.get('name')
        if name in details:
            values[name] = details[name]
            if output.get('error_output'):
                reasons.append('%s : %s' % (name, details[name]))
    for name in OUTPUT_KEYS:
        values[name] = details.get(name)
    return (', '.join(reasons) or None), values


class SoftwareDeployment(ResourcePlugin):
    type_name = 'OS::Heat::SoftwareDeployment'
    # its attributes are its last signal's outputs, kept in its data
    attributes_from_record = True

    @classmethod
    def validate(cls, given):
        """Heat's SoftwareDeployment.validate for a ``server`` that names a
        server of the stack without get_resource (Heat finds the server by its
        reference id, which is its name until it is made); get_resource is
        hot/type_checks.py's (STACK_CHECKS)."""
        name = given.props.get('server')
        target = given.stack.resources.get(name) if given.stack is not None and name else None
        if target is None or 'server' in given.waiting:
            return
        if (getattr(target.type_info, 'plugin', None) or target.type) not in SERVER_TYPES:
            return
        # unset (or null) reads as the property's default, HEAT_CFNTOOLS
        fmt = fns.resolve((target.properties or {}).get('user_data_format'), nullable=True)
        if fmt in (None, Ellipsis) or fmt != 'SOFTWARE_CONFIG':
            given.fail("Resource %s's property user_data_format should be set to "
                       "SOFTWARE_CONFIG since there are software deployments on it." % name,
                       'server')
    poll_interval = 2.0
    CONFIG_TYPES = ('OS::Heat::SoftwareConfig',)

    # -- the source config ---------------------------------------------------------
    def source(self, ctx):
        config_id = ctx.properties.get(CONFIG)
        if not config_id:
            return {'inputs': [], 'outputs': [], 'options': {}, 'config': ''}
        peer = ctx.lookup(config_id)
        stored = peer.data.get(CONFIG) if peer is not None else None
        if not isinstance(stored, dict):
            ctx.fail('Software config %s not found' % config_id)
        return stored

    def derived_config(self, ctx, source, inputs):
        """The entry the agent reads (Heat's format_software_config of the
        derived config)."""
        return {'id': str(uuid.uuid4()),
                'name': ctx.properties.get('name') or source.get('name') or ctx.physical_name,
                'group': source.get('group') or 'Heat::Ungrouped',
                'creation_time': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
                'config': source.get('config') or '',
                'inputs': inputs, 'outputs': list(source.get('outputs') or ()),
                'options': source.get('options') or {}}

    # -- the server's document -------------------------------------------------------
    def _where(self, ctx):
        peer = ctx.lookup(ctx.properties.get('server') or ctx.data.get('server'))
        where = peer.data.get(document.WHERE_KEY) if peer is not None else None
        return tuple(where) if where else None

    def _publish(self, ctx, entry):
        where = self._where(ctx)
        written = where is not None and document.set_entry(ctx.conn, where, ctx.physical_id, entry)
        if not written and entry is not None and transport(ctx.properties) != NO_SIGNAL:
            ctx.fail('The server %s has no deployments document to read this deployment from: '
                     'it needs user_data_format SOFTWARE_CONFIG and software_config_transport '
                     'POLL_TEMP_URL' % ctx.properties.get('server'))
        return written

    # -- actions -------------------------------------------------------------------------
    def _start(self, ctx, action, source=None, values=None):
        """Publish ``action``'s derived config; False when nothing waits."""
        ctx.data.pop(WAIT, None)
        if source is None:
            source = self.source(ctx)
            values = ctx.properties.get('input_values') or {}
        ctx.data[SOURCE], ctx.data[VALUES] = source, dict(values or {})
        ctx.data['server'] = ctx.properties.get('server')
        actions = ctx.properties.get('actions') or ()
        if action not in actions:
            return False
        signalled = transport(ctx.properties) == TEMP_URL
        before = 0
        if signalled:
            if not ctx.data.get(URL):
                ctx.data[URL] = swift.make_handle(ctx.conn, ctx.stack_id, ctx.physical_name)
            before = len(swift.read_bodies(ctx.conn, ctx.stack_id, ctx.physical_name,
                                           ctx.data.setdefault('seen', {})))
        inputs = derived_inputs(ctx, source, values, action)
        ctx.data[REPLACING] = dict((i['name'], i.get('default')) for i in source.get('inputs') or ()
                                   if i.get('replace_on_change'))
        entry = self.derived_config(ctx, source, inputs)
        ctx.data[DERIVED] = entry['id']
        self._publish(ctx, entry)
        if signalled:
            ctx.data[WAIT] = {'action': action, 'before': before}
        return signalled

    def _check(self, ctx):
        wait = ctx.data.get(WAIT)
        if not wait:
            return True
        bodies = swift.read_bodies(ctx.conn, ctx.stack_id, ctx.physical_name,
                                   ctx.data.setdefault('seen', {}))
        if len(bodies) <= wait['before']:
            return False
        ctx.data.pop(WAIT, None)
        try:
            details = json.loads(bodies[-1]) if bodies[-1].strip() else {}
        except ValueError:
            # Heat's JSON load fails the deployment's refresh; the body is the reason
            _fail('Failed to parse JSON data: %s' % bodies[-1])
        reason, values = apply_signal(ctx.data.get(SOURCE) or {}, details)
        ctx.data[OUTPUTS] = values
        if reason:
            _fail(reason)
        return True

    def create(self, ctx):
        ctx.physical_id = str(uuid.uuid4())
        self._start(ctx, 'CREATE')
        return ctx.physical_id

    def check_create_complete(self, ctx):
        return self._check(ctx)

    def needs_replace(self, ctx):
        """An input with ``replace_on_change`` whose value changed.  The
        planner sees the record's (masked) properties only, so the values
        compared are the masked ones, old and new, and the inputs that
        replace are those of the config last applied."""
        old = (ctx.old_properties or {}).get('input_values') or {}
        new = ctx.properties.get('input_values') or {}
        for name, default in (ctx.data.get(REPLACING) or {}).items():
            if old.get(name, default) != new.get(name, default):
                return True
        return False

    def update(self, ctx):
        self._start(ctx, 'UPDATE')

    def check_update_complete(self, ctx):
        return self._check(ctx)

    def _again(self, ctx, action):
        # a delete, suspend or resume: the record's properties are masked,
        # the last action's source and values are kept in clear in data
        return self._start(ctx, action, ctx.data.get(SOURCE) or {}, ctx.data.get(VALUES))

    def delete(self, ctx):
        if ctx.physical_id is None or self._where(ctx) is None:
            ctx.data.pop(WAIT, None)
            return
        self._again(ctx, 'DELETE')

    def check_delete_complete(self, ctx):
        if not self._check(ctx):
            return False
        if ctx.physical_id is not None:
            where = self._where(ctx)
            if where is not None:
                document.set_entry(ctx.conn, where, ctx.physical_id, None)
            if ctx.data.get(URL):
                swift.delete_handle(ctx.conn, ctx.stack_id, ctx.physical_name)
        for key in (URL, 'seen', DERIVED):
            ctx.data.pop(key, None)
        return True

    def suspend(self, ctx):
        self._again(ctx, 'SUSPEND')

    def check_suspend_complete(self, ctx):
        return self._check(ctx)

    def resume(self, ctx):
        self._again(ctx, 'RESUME')

    def check_resume_complete(self, ctx):
        return self._check(ctx)

    # -- reading ----------------------------------------------------------------------
    def show(self, ctx):
        return None if ctx.physical_id is None else {}

    def check(self, ctx):
        return None

    def attributes(self, ctx, live, names=None):
        values = ctx.data.get(OUTPUTS) or {}
        attrs = dict((o.get('name'), None) for o in (ctx.data.get(SOURCE) or {}).get('outputs') or ())
        attrs.update((k, None) for k in OUTPUT_KEYS)
        attrs.update(values)
        attrs['show'] = None
        return attrs
