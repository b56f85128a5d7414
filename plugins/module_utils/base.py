# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The module side of the collection: what every module shares.

This is the file under module_utils that knows Ansible's modules (with
url_opener.py, which only the modules fetching URLs import).  It merges the
connection options (doc fragment ``stackers.orchestration.openstack``) into a
module's argument spec, opens the connection (connection.py) on first use,
and turns the engine's typed errors into ``fail_json`` with the error's own
message (which already names file, line and path).  The engine itself never
sees AnsibleModule.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import traceback

from ansible.module_utils.basic import AnsibleModule, missing_required_lib

from . import connection
from .errors import LocatedError, StackersError, format_path
from .hot.limits import DEFAULT as DEFAULT_LIMITS, Limits
from .resources.sdk import secrets_noted

try:
    from .hot.loader import load_file
except ImportError:     # PyYAML missing: validation reports it
    load_file = None


def diff_view(changes):
    """Ansible's list of diffs of a run's plan (heat_stack's update, a
    snapshot's restore), one per resource that changes: its properties
    before and after, under headers naming the resource and what happens to
    it (a replacement is a new physical resource)."""
    out = []
    for change in changes:
        name = '%s (%s)' % (change['resource_name'], change['resource_type'])
        out.append({'resource_name': change['resource_name'], 'action': change['action'],
                    'before_header': name,
                    'after_header': '%s: %s, %s' % (name, change['action'], change['reason']),
                    'before': change['before'] if change['before'] is not None else {},
                    'after': dict(change['after']) if change['after'] is not None else {}})
    return out


def openstack_argument_spec():
    """The argument spec matching the ``openstack`` doc fragment."""
    return dict(
        cloud=dict(type='raw'),
        auth=dict(type='dict', no_log=True),
        auth_type=dict(type='str'),
        region_name=dict(type='str'),
        interface=dict(type='str', default='public', choices=['admin', 'internal', 'public'],
                       aliases=['endpoint_type']),
        validate_certs=dict(type='bool', aliases=['verify']),
        ca_cert=dict(type='str', aliases=['cacert']),
        client_cert=dict(type='str', aliases=['cert']),
        client_key=dict(type='str', aliases=['key'], no_log=False),
        api_timeout=dict(type='int'),
        wait=dict(type='bool', default=True),
        timeout=dict(type='int', default=180),
    )


def limits_argument_spec():
    """The argument spec matching the ``limits`` doc fragment (Heat's
    request limits, Heat's defaults, and get_file's allowed directories)."""
    return dict(
        max_template_size=dict(type='int', default=DEFAULT_LIMITS.max_template_size),
        max_json_body_size=dict(type='int', default=DEFAULT_LIMITS.max_json_body_size),
        max_resources=dict(type='int', default=DEFAULT_LIMITS.max_resources_per_stack,
                           aliases=['max_resources_per_stack']),
        max_nested_depth=dict(type='int', default=DEFAULT_LIMITS.max_nested_stack_depth,
                              aliases=['max_nested_stack_depth']),
        yaql_limit_iterators=dict(type='int', default=DEFAULT_LIMITS.yaql_limit_iterators),
        yaql_memory_quota=dict(type='int', default=DEFAULT_LIMITS.yaql_memory_quota),
        files_allowed_paths=dict(type='list', elements='path', default=[]),
        files_allowed_urls=dict(type='list', elements='str', default=[]),
    )


def resource_plugins_argument_spec():
    """The argument spec matching the ``resource_plugins`` doc fragment
    (no default: None means ``$STACKERS_PLUGIN_DIRS``, read by
    resources/plugin_loader.configured_dirs)."""
    return dict(resource_plugin_dirs=dict(type='list', elements='path'))


def limits_from(params):
    """The engine's Limits from the options of ``limits_argument_spec``."""
    return Limits(max_template_size=params['max_template_size'],
                  max_json_body_size=params['max_json_body_size'],
                  max_resources_per_stack=params['max_resources'],
                  max_nested_stack_depth=params['max_nested_depth'],
                  yaql_limit_iterators=params['yaql_limit_iterators'],
                  yaql_memory_quota=params['yaql_memory_quota'])


def error_details(err):
    """A JSON-friendly description of an engine error, for the ``error``
    key of a failed result (the message itself goes into ``msg``)."""
    details = {'type': type(err).__name__}
    if isinstance(err, LocatedError):
        details['file'] = None if err.filename is None else str(err.filename)
        details['line'] = err.line
        details['path'] = format_path(err.path)
    return details


def hidden_parameters(template_path):
    """The parameters the template declares hidden (HOT ``hidden``, CFN
    ``NoEcho``) with their declared defaults, read before the engine runs so
    that their values are masked even in an error message and in the
    invocation Ansible echoes at -vvv.  Any problem is left for the engine to
    report."""
    if load_file is None or not template_path:
        return {}
    try:
        data = load_file(template_path).data
    except Exception:  # pylint: disable=broad-except
        return {}
    if not isinstance(data, dict):
        return {}
    hidden = {}
    for section, flag, default in (('parameters', 'hidden', 'default'), ('Parameters', 'NoEcho', 'Default')):
        declared = data.get(section)
        if not isinstance(declared, dict):
            continue
        for name, schema in declared.items():
            if isinstance(schema, dict) and str(schema.get(flag, '')).lower() in ('true', 'yes', '1', 'on'):
                hidden[name] = schema.get(default)
    return hidden


def secret_strings(value):
    """The strings under which a hidden value could show up in a result."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, (list, tuple)):
        out = set()
        for item in value:
            out |= secret_strings(item)
        if value:
            out.add(','.join(str(item) for item in value))
        return out
    if isinstance(value, dict):
        out = set()
        for item in value.values():
            out |= secret_strings(item)
        return out
    text = str(value)
    return {text} if text else set()


class StackersModule(object):
    """Base of the collection's modules.

    A module sets ``argument_spec`` (its own options) and ``module_kwargs``
    (``supports_check_mode`` ...), implements ``run()`` returning the result
    dict, and calls ``MyModule()()`` from ``main()``.  ``self.conn`` connects
    on first use.
    """

    argument_spec = {}
    module_kwargs = {}
    module_class = AnsibleModule

    def __init__(self):
        spec = openstack_argument_spec()
        spec.update(self.argument_spec)
        self.ansible = self.module_class(argument_spec=spec, **self.module_kwargs)
        self.params = self.ansible.params
        self.check_mode = self.ansible.check_mode
        self._conn = None
        # the connection the engine ran on: what it learned there is hidden
        self.learned_conn = None

    @property
    def conn(self):
        if self._conn is None:
            if connection.openstack_sdk() is None:
                self.ansible.fail_json(msg=missing_required_lib('openstacksdk'),
                                       exception=connection.sdk_import_error())
            self._conn = connection.openstack_connection(self.params)
            self.learned_conn = self._conn
        return self._conn

    def run(self):
        raise NotImplementedError

    def hide(self, names, defaults=None):
        """Mask the values of these parameters everywhere in the result (the
        echoed invocation included): the user's and, defensively, the
        template's declared default."""
        values = self.params.get('parameters') or {}
        for name in names:
            if name in values:
                self.ansible.no_log_values.update(secret_strings(values[name]))
            if defaults and defaults.get(name) is not None:
                self.ansible.no_log_values.update(secret_strings(defaults[name]))

    def hide_learned(self, result=None):
        """Add the secrets the engine learned on this module's connection
        (``sdk.note_secret``: generated passwords, private keys, the TempURL
        key, hidden values read back from the store) to Ansible's no-log
        values, so Ansible masks them in all it prints (the result, its
        events and errors, the invocation at -vvvv).  A value that a
        declared output shows in ``result`` stays visible: the user asked
        for it (Heat's output show prints it too); so does one in
        ``abandon_data``, which Heat's adopt needs in clear (masked, the
        data would make another stack: see ``secrets_returned``)."""
        if self.learned_conn is None:
            return
        shown = list(_strings([(result or {}).get('outputs'),
                               ((result or {}).get('stack') or {}).get('outputs'),
                               (result or {}).get('abandon_data')]))
        for value in secrets_noted(self.learned_conn):
            if not any(value in text for text in shown):
                self.ansible.no_log_values.add(value)

    def secrets_returned(self, value):
        """Whether ``value`` (a part of the result) holds a secret the
        engine learned: the task should then run with ``no_log``, which
        alone stops Ansible printing a result it must return in clear."""
        if self.learned_conn is None:
            return False
        texts = list(_strings(value))
        return any(secret in text for secret in secrets_noted(self.learned_conn) for text in texts)

    def _plugin_hint(self, details):
        """What to add to Heat's "The Resource Type (...) could not be
        found." where the type may be a resource plugin's that was not
        loaded (a later run of a stack made with one, without its
        directory)."""
        if details.get('type') != 'UnknownResourceType' or 'resource_plugin_dirs' not in self.params or \
                self.params.get('resource_plugin_dirs') or os.environ.get('STACKERS_PLUGIN_DIRS'):
            return ''
        return (' No resource plugin directory was given: the type of a resource plugin needs its directory in '
                'resource_plugin_dirs (or $STACKERS_PLUGIN_DIRS).')

    def fail(self, msg, **kwargs):
        self.hide_learned(kwargs)
        self.ansible.fail_json(msg=msg, **kwargs)

    def __call__(self):
        try:
            result = self.run()
        except StackersError as err:
            details = error_details(err)
            self.fail(str(err) + self._plugin_hint(details), error=details)
        except Exception as err:  # pylint: disable=broad-except
            # The SDK's errors (and keystoneauth's, which it does not wrap)
            # carry a readable message; anything else is a bug worth a trace.
            if connection.is_cloud_error(err):
                self.fail('OpenStack error: %s' % err, error={'type': type(err).__name__},
                          exception=traceback.format_exc())
            self.hide_learned()
            raise
        self.hide_learned(result)
        self.ansible.exit_json(**result)


def _strings(value):
    """Every string inside ``value`` (dicts' keys and values, lists)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)
