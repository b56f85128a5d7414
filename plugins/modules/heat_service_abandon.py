#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_service_abandon
short_description: Read a stack's abandon data from a cloud's Heat service (stack abandon or export)
version_added: 0.3.0
description:
  - Asks the cloud's Heat service (the orchestration API) for a stack's abandon data, the JSON that
    C(openstack stack abandon) prints and C(openstack stack adopt --adopt-file) reads, for
    O(stackers.orchestration.heat_stack#module:adopt_data).
  - By default Heat's C(stack abandon) - Heat forgets the stack and leaves every resource in the cloud. With
    O(export=true), Heat's C(stack export) - the same data, Heat untouched.
  - Heat's abandon of a stack keeps its nested stacks (template resources, groups) as stacks of their own, which
    C(openstack stack list --nested) still lists and whose delete there would delete resources the stack held;
    the module abandons each of them too.
  - Both need C(enable_stack_abandon) in the Heat service's C(heat.conf); without it Heat answers
    C(Stack Abandon is not supported.) and the module fails with that and a line asking the cloud's operator to
    enable it.
  - "The data holds the stack's secrets in clear, as Heat gives them (hidden parameters, random strings, private
    keys): register it under C(no_log: true)."
  - playbooks/adopt_from_heat.yml uses it to move a stack from Heat into the state store.
options:
  name:
    description: The stack's name or id in the Heat service.
    type: str
    required: true
  export:
    description: Heat's stack export - read the data and leave the stack in Heat.
    type: bool
    default: false
author:
  - stackers.orchestration contributors (!UNKNOWN)
extends_documentation_fragment:
  - stackers.orchestration.openstack
  - stackers.orchestration.openstack.wait
attributes:
  check_mode:
    support: full
    description: Reads the data with Heat's stack export; the stack stays in Heat.
  diff_mode:
    support: none
    description: Nothing to compare.
'''

EXAMPLES = r'''
- name: Read a stack's abandon data, leaving it in Heat
  stackers.orchestration.heat_service_abandon:
    cloud: mycloud
    name: web
    export: true
  register: exported
  no_log: true

- name: Adopt it into the state store
  stackers.orchestration.heat_stack:
    cloud: mycloud
    name: web
    adopt_data: "{{ exported.abandon_data }}"
'''

RETURN = r'''
abandon_data:
  description:
    - Heat's abandon data of the stack - C(name), C(id), C(action), C(status), C(template), C(environment),
      C(files), C(resources) (each C(name), C(resource_id), C(type), C(action), C(status), C(metadata),
      C(resource_data); a nested stack's resource is its stack's abandon data), C(project_id), C(tags).
  returned: success
  type: dict
abandoned:
  description: Whether Heat abandoned the stack (false with O(export) and in check mode).
  returned: success
  type: bool
abandoned_nested:
  description: The ids of the nested stacks Heat kept after the stack's abandon, which the module abandoned too.
  returned: success
  type: list
  elements: str
'''

import time

from ansible_collections.stackers.orchestration.plugins.module_utils.base import StackersModule

# Heat's answer when heat.conf's enable_stack_abandon is off (service.py abandon_stack)
NOT_SUPPORTED = 'Stack Abandon is not supported.'
ASK_OPERATOR = ('Ask the cloud\'s operator to enable enable_stack_abandon in the Heat service\'s heat.conf '
                '(stack abandon and export need it).')


class HeatServiceAbandon(StackersModule):
    argument_spec = dict(
        name=dict(type='str', required=True),
        export=dict(type='bool', default=False),
    )
    module_kwargs = dict(supports_check_mode=True)

    def run(self):
        p = self.params
        orchestration = self.conn.orchestration
        stack = orchestration.find_stack(p['name'], ignore_missing=True)
        if stack is None:
            self.fail('Stack %s not found in the Heat service' % p['name'])
        abandon = not (p['export'] or self.check_mode)
        try:
            if abandon:
                data = orchestration.abandon_stack(stack)
            else:
                data = orchestration.export_stack(stack)
        except Exception as err:  # pylint: disable=broad-except  # Heat's message, with what to do
            self.fail(explained(str(err)))
        if not isinstance(data, dict) or 'template' not in data:
            # openstacksdk's abandon answers an error's body as it answers the data
            self.fail(explained(error_message(data)))
        nested = self._abandon_nested(data) if abandon else []
        if abandon and p['wait']:
            self._wait_gone([stack.id] + nested, p['timeout'])
        return dict(changed=abandon, abandoned=abandon, abandon_data=data, abandoned_nested=nested)

    def _wait_gone(self, stack_ids, timeout):
        """Heat answers the abandon data, then deletes its record of the
        stack (its resources retained) in the background: wait until it no
        longer lists them, so that the move is over when the task is.  A
        timeout warns rather than fails: the abandon happened, and the
        data must reach the adopt."""
        orchestration = self.conn.orchestration
        deadline = time.monotonic() + timeout
        left = list(stack_ids)
        while left:
            left = [i for i in left if _listed(orchestration.find_stack(i, ignore_missing=True))]
            if not left:
                return
            if time.monotonic() >= deadline:
                self.ansible.warn('Heat still lists the abandoned stack(s) %s after %d s: its abandon goes on '
                                  'there' % (', '.join(left), timeout))
                return
            time.sleep(1)

    def _abandon_nested(self, data):
        """Abandon the nested stacks of ``data`` that Heat still has: its
        convergence abandon gives every resource the Retain policy, a nested
        stack's resource too, so the nested stacks stay."""
        orchestration, done = self.conn.orchestration, []
        for stack_id in nested_stack_ids(data):
            nested = orchestration.find_stack(stack_id, ignore_missing=True)
            if nested is None:
                continue    # a Heat that abandoned it with its parent
            try:
                got = orchestration.abandon_stack(nested)
            except Exception as err:  # pylint: disable=broad-except  # Heat's message, with its stack
                self.fail('The stack was abandoned, but not its nested stack %s: %s' % (stack_id, err))
            if not isinstance(got, dict) or 'template' not in got:
                self.fail('The stack was abandoned, but not its nested stack %s: %s'
                          % (stack_id, error_message(got)))
            done.append(stack_id)
        return done


def _listed(stack):
    """Whether Heat still lists a stack it was asked to abandon."""
    return stack is not None and getattr(stack, 'status', None) != 'DELETE_COMPLETE'


def nested_stack_ids(data):
    """The ids of the nested stacks in abandon data, parents first."""
    out = []
    for entry in (data.get('resources') or {}).values():
        if isinstance(entry, dict) and 'template' in entry and 'resources' in entry:
            if entry.get('id'):
                out.append(entry['id'])
            out.extend(nested_stack_ids(entry))
    return out


def error_message(body):
    """Heat's message in an error body (``{"error": {"message": ...}}``)."""
    if isinstance(body, dict):
        error = body.get('error')
        if isinstance(error, dict) and error.get('message'):
            return str(error['message'])
        if body.get('explanation'):
            return str(body['explanation'])
    return 'Heat answered no abandon data: %r' % (body,)


def explained(message):
    if NOT_SUPPORTED in message:
        return '%s\n%s' % (message, ASK_OPERATOR)
    return message


def main():
    HeatServiceAbandon()()


if __name__ == '__main__':
    main()
