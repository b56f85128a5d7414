# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # Heat's request limits (heat.conf), which an operator sets for a Heat
    # service and a playbook sets here (module_utils/hot/limits.py), and
    # where get_file may read.
    DOCUMENTATION = r'''
options:
  max_template_size:
    description:
      - "The most bytes a template, an environment file or a file read by C(get_file) may hold, as Heat's
        C(max_template_size). A bigger file is refused by its size before it is parsed (at most one byte more
        than the limit is read), with Heat's C(Request limit exceeded: Template size (N bytes) exceeds maximum
        allowed size (524288 bytes).)"
    type: int
    default: 524288
  max_json_body_size:
    description:
      - "The most bytes of the whole request (template, environments, files and parameters, as JSON), as Heat's
        C(max_json_body_size), refused with Heat's C(Request limit exceeded: JSON body size (N bytes) exceeds
        maximum allowed size (1048576 bytes).)"
      - It also bounds what a template function may build (not a Heat limit; Heat would try and exhaust its
        engine). A string longer than this, or a list or map of more than half this many items (C(repeat),
        C(str_replace), C(list_concat), C(map_merge), C(list_join), yaql's endless C(range), C(sequence),
        C(repeat) and C(cycle)) is refused before it is built.
    type: int
    default: 1048576
  max_resources:
    description:
      - "How many resources the stack may hold, counted over the whole tree of its nested stacks, as Heat's
        C(max_resources_per_stack). More are refused before anything is made, with Heat's
        C(Request limit exceeded: Maximum resources per stack exceeded.)"
      - C(-1) sets no limit.
    type: int
    default: 1000
    aliases: [max_resources_per_stack]
  max_nested_depth:
    description:
      - "How deep nested stacks (template resources, groups, C(OS::Heat::Stack)) may go below this stack, as Heat's
        C(max_nested_stack_depth). A deeper one is refused before anything is made, with Heat's
        C(Request limit exceeded: Recursion depth exceeds N.) A template resource that includes itself
        (directly or through the environment's C(resource_registry)) ends there."
    type: int
    default: 5
    aliases: [max_nested_stack_depth]
  yaql_limit_iterators:
    description:
      - The most elements a collection may hold in a C(yaql) expression, as Heat's C([yaql] limit_iterators).
    type: int
    default: 200
  yaql_memory_quota:
    description:
      - The most bytes a C(yaql) expression's values may take, as Heat's C([yaql] memory_quota).
    type: int
    default: 10000
  files_allowed_paths:
    description:
      - Directories, besides the template's own, beneath which C(get_file) and provider templates may be read
        from disk. A name that resolves elsewhere (C(../), an absolute path, a symbolic link pointing out) is
        refused naming the template's file and line; give its content in O(files) instead.
      - No URL is fetched unless O(files_allowed_urls) allows it; C(file://) names are read beneath these
        directories only.
    type: list
    elements: path
    default: []
  files_allowed_urls:
    description:
      - URL prefixes (C(http://) or C(https://)) beneath which the files a template names by URL are fetched, as
        C(openstack stack create) fetches them for Heat, before anything else is done - C(get_file) values and
        template resources given by URL (a resource's C(type), a C(resource_registry) entry) in the template and
        its environment files, and those the templates fetched name in turn.
      - "A URL matches a prefix it equals or continues at a C(/): C(https://example.com/t) allows
        C(https://example.com/t/a.yaml), never C(https://example.com/tx) nor C(https://example.com.evil/). A
        redirect must land beneath an allowed prefix too; each file is bounded by O(max_template_size)."
      - The contents are kept in the stack's record with the O(files) given, so later runs fetch nothing again.
        A name given in O(files) is never fetched.
      - Without it (the default) no URL is ever fetched; a URL the template names is refused with its file and
        line.
    type: list
    elements: str
    default: []
'''
