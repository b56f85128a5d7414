# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack_info's ``export``: Heat's ``openstack stack export`` answered by
heat_stack's ``state: abandoned`` in check mode, which removes nothing.

The abandon data needs each resource type's plugin (its ``resource_data``)
and the template language, which the read-only module does not load: a
store read stays the size of a read (docs/stacks.md).  So ``export`` is
answered here, on the controller, by running heat_stack instead of
heat_stack_info on the task's host, with the task's store and auth options;
every other call runs heat_stack_info unchanged."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.action.normal import ActionModule as ModuleAction

STACK_MODULE = 'stackers.orchestration.heat_stack'

# The options heat_stack reads for an export: the stack, its store and the
# cloud (a Swift store's); an export takes no other.
EXPORT_OPTIONS = frozenset((
    'name', 'store_path', 'store_url', 'store_key',
    'cloud', 'auth', 'auth_type', 'region_name', 'interface', 'endpoint_type', 'validate_certs', 'verify',
    'ca_cert', 'cacert', 'client_cert', 'cert', 'client_key', 'key', 'api_timeout'))


class ActionModule(ModuleAction):
    """Ansible's own action of a module (async, check mode, the remote tmp
    path), but for ``export``."""

    def run(self, tmp=None, task_vars=None):
        args = dict(self._task.args)
        try:
            export = boolean(args.pop('export', False), strict=True)
        except TypeError as exc:
            return dict(failed=True, msg='export: %s' % exc)
        if not export:
            return super(ActionModule, self).run(tmp, task_vars)
        refused = sorted(set(args) - EXPORT_OPTIONS)
        if refused:
            return dict(failed=True, msg='export answers the stack\'s abandon data only; it takes name, the store '
                                         'and the cloud options, not %s' % ', '.join(refused))
        if not args.get('name'):
            return dict(failed=True, msg='export needs the name of the stack to export')
        if self._task.async_val:
            return dict(failed=True, msg='export does not run async')
        return self._export(args, task_vars)

    def _export(self, args, task_vars):
        # heat_stack's abandon in check mode reads the record and removes
        # nothing, whatever mode the task itself runs in
        check_mode = self._task.check_mode
        self._task.check_mode = True
        try:
            answer = self._execute_module(module_name=STACK_MODULE, module_args=dict(args, state='abandoned'),
                                          task_vars=task_vars)
        finally:
            self._task.check_mode = check_mode
            self._remove_tmp_path(self._connection._shell.tmpdir)
        result = dict((k, v) for k, v in answer.items() if k not in ('changed', 'resources', 'events'))
        result['changed'] = False
        if not answer.get('failed') and 'abandon_data' not in answer:
            result.update(failed=True, msg='The Stack (%s) could not be found in the state store' % args['name'])
        return result
