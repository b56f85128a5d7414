# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # What `openstack stack create` takes besides the stack's name: the
    # template, its environment files, parameter values and get_file files.
    DOCUMENTATION = r'''
options:
  template:
    description:
      - Path to the HOT (or CFN JSON) template on the host the module runs on.
      - Errors name the file, the line and the path inside the document.
    type: path
    required: true
  environment:
    description:
      - Paths to environment files, merged in the order given (the C(-e) options of the C(openstack) client).
      - Their C(resource_registry) may map types to provider templates, which are read relative to the environment
        file.
    type: list
    elements: path
    default: []
  global_environment_dir:
    description:
      - A directory of environment files every stack gets before its own O(environment) files, as Heat's
        C(environment_dir) (C(/etc/heat/environment.d)) gives each stack the global environment - its C(*.yaml)
        files, in the order of their names. The stack's own files, and O(parameters), win over them.
      - Defaults to C($STACKERS_GLOBAL_ENVIRONMENT_DIR); neither set, there is none. A directory named but missing
        fails.
      - An operator's global C(resource_registry) (a type mapped to a provider template, say) goes here; so may
        C(parameter_defaults) common to every stack. M(stackers.orchestration.heat_stack) and
        M(stackers.orchestration.heat_template_validate) take it; set it once with C(module_defaults) or the
        environment variable.
    type: path
  parameters:
    description:
      - Parameter values, applied on top of the C(parameters) of the environment files.
      - Values may be strings, numbers, booleans, lists or dicts; they are checked against the template's parameter
        types and constraints as Heat does when it creates a stack.
    type: dict
    default: {}
  files:
    description:
      - Contents of files the template reads with C(get_file), or that the environment maps resource types to,
        keyed by the name the template uses.
      - Names not given here are read from disk under O(allow_root) (and O(files_allowed_paths)).
    type: dict
    default: {}
  allow_root:
    description:
      - The directory tree from which C(get_file) and provider templates may be read from disk.
      - Defaults to the directory of O(template). Names that resolve outside this tree are refused.
    type: path
'''
