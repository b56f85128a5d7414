#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_software_deployment
short_description: Apply one software deployment on the host, as Heat's agent hooks apply it
version_added: 0.3.0
description:
  - Runs on the host (over the play's connection) one entry of a server's deployments document, the document a
    stack's C(OS::Heat::SoftwareDeployment) resources write for the server's agent, and returns the body the agent
    would signal back. The role M(stackers.orchestration.software_deployment) reads the document, calls this module
    for each entry in the document's order and signals each result to the deployment's C(deploy_signal_id).
  - "Groups: C(script) and C(Heat::Ungrouped) (the config as an executable, inputs as environment variables, outputs
    read from C(<heat_outputs_path>.<name>)); C(ansible) (the config as a playbook run by C(ansible-playbook) on the
    host, inputs as extra variables); C(puppet) (only where C(puppet) is installed); C(component) (the part for the
    deployment's action). Any other group fails, naming the deployment."
  - The deployment is recorded in C(/var/lib/heat-config/deployed/<id>.json) (the id, a digest of its inputs, its
    status code; no input value), as the agent records it. An entry recorded with the same inputs and a zero status
    code is not applied again (C(changed) false, no RV(signal)).
options:
  deployment:
    description:
      - The entry of the deployments document (C(id), C(name), C(group), C(config), C(inputs), C(outputs),
        C(options)).
      - "Its input values may be hidden parameters: give the task C(no_log) (the role does). The option itself is not
        C(no_log), which would mask every input value wherever it appears in the result (an output equal to an
        input, the deployment's action in its stdout)."
    type: dict
    required: true
  root:
    description: A directory standing for the host's C(/) (tests, or several hosts on one machine); every path the
      module writes is under it.
    type: path
    default: ''
  force:
    description: Apply the deployment even when its record says it was applied.
    type: bool
    default: false
author:
  - stackers.orchestration contributors (!UNKNOWN)
'''

EXAMPLES = r'''
- name: Apply one deployment
  stackers.orchestration.heat_software_deployment:
    deployment: "{{ document.deployments[0] }}"
  register: applied
'''

RETURN = r'''
signal:
  description: The body to signal to C(deploy_signal_id) (the declared outputs found, C(deploy_stdout),
    C(deploy_stderr), C(deploy_status_code)).
  returned: when the deployment ran
  type: dict
signal_id:
  description: Where the result goes (the deployment's C(deploy_signal_id)); absent for C(NO_SIGNAL).
  returned: when the deployment ran and takes a signal
  type: str
signal_verb:
  description: The HTTP method of the signal (C(deploy_signal_verb)).
  returned: when the deployment ran and takes a signal
  type: str
'''

import shutil
import traceback

from ansible.module_utils.basic import AnsibleModule

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils import deploy_hooks
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError
except ImportError:
    deploy_hooks = None
    StackersError = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None

TOOLS = ('ansible-playbook', 'puppet')


def run(module):
    params = module.params
    tools = dict((tool, shutil.which(tool)) for tool in TOOLS)
    if module.check_mode:
        resolved = deploy_hooks.resolve_component(params['deployment'])
        if resolved is None:
            return dict(changed=False, msg='nothing to apply for this action')
        deploy_hooks.runner(resolved, tools)
        pending = params['force'] or not deploy_hooks.applied(params['root'], params['deployment'])
        return dict(changed=pending)
    body = deploy_hooks.apply(params['deployment'], params['root'], tools, params['force'])
    if body is None:
        return dict(changed=False, msg='already applied')
    result = dict(changed=True, signal=body)
    url, verb = deploy_hooks.signal_target(params['deployment'])
    if url:
        result.update(signal_id=url, signal_verb=verb)
    return result


def main():
    module = AnsibleModule(
        argument_spec=dict(deployment=dict(type='dict', required=True),
                           root=dict(type='path', default=''),
                           force=dict(type='bool', default=False)),
        supports_check_mode=True)
    if deploy_hooks is None:
        module.fail_json(msg='The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
    try:
        result = run(module)
    except StackersError as err:
        module.fail_json(msg=str(err))
    module.exit_json(**result)


if __name__ == '__main__':
    main()
