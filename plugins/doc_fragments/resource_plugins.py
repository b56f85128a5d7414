# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # Users' resource types, loaded as Heat's plugin_dirs
    # (module_utils/resources/plugin_loader.py, docs/plugins.md).
    DOCUMENTATION = r'''
options:
  resource_plugin_dirs:
    description:
      - Directories, on the host the module runs on, holding resource plugins - Python modules that each declare
        C(CONTRACT_VERSION) and Heat's C(resource_mapping()) of type names to plugin classes - as Heat's
        C(plugin_dirs). Their types are then used as the built-in ones are (validated, planned, created, updated,
        checked, deleted, mapped in an environment's C(resource_registry)).
      - Every C(*.py) file of a directory whose name does not start with C(_) is a plugin module; other files and
        packages are its helpers.
      - Before anything else, a directory or file that another user can write to, an import that fails, another
        contract version, a missing or bad C(resource_mapping()), a type name that is a built-in type's (or
        another plugin file's) or a schema that is not valid fails the task, naming the file.
      - When not given, C($STACKERS_PLUGIN_DIRS) (directories joined by C(:)); an empty list loads none. Set it
        for several tasks with C(module_defaults).
      - A stack whose template uses a plugin type needs the same directories on every later run of it (update,
        check, delete).
    type: list
    elements: path
'''
