# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""hot/validate.py's entry points with what the template language may not
import bound in: the resource registry (which types the collection can
create) and the dependency graph (Heat's implicit dependencies and their
cycles).  heat_template_validate and the conformance tests call these;
signatures are hot/validate.py's without ``supported_types``,
``dependencies`` and ``type_rules``."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
from collections.abc import Mapping

from ...resources import registry as _registry
from ...hot import validate as _hot
from ...hot.limits import DEFAULT as DEFAULT_LIMITS
from ..graph import dependencies as _graph
from . import inputs, remote_files
from ...resources.heat.group_kinds import GROUP_TYPES
from ...resources.heat.remote_stack import STACK_TYPE

# The types the engine runs itself, as nested stacks (no plugin of their own).
NESTED_TYPES = frozenset(GROUP_TYPES + (STACK_TYPE,))


class _Supported(object):
    """The types the registry has a plugin for at the call, and the nested ones."""

    def __contains__(self, name):
        return name in _registry.PLUGINS or name in NESTED_TYPES


class _Requires(Mapping):
    """{resource: sorted names it requires}, read off the graph when asked.

    Template validate only needs the graph built (a cycle refused), so a hub
    fan (every port x every subnet of a network) is expanded only for the
    names ``inspect`` reads, never for a validation."""

    def __init__(self, graph):
        self._graph = graph

    def __getitem__(self, name):
        if name not in self._graph or _graph.is_hub(self._graph, name):
            raise KeyError(name)
        return sorted(_graph.resource_requires(self._graph, name))

    def __iter__(self):
        return (node for node, hub in self._graph.nodes(data='hub') if not hub)

    def __len__(self):
        return sum(1 for name in self)


def dependencies(stack_definition, implicit=True):
    """{resource: sorted names it requires} of a StackDefinition (hubs
    expanded); ``implicit=False`` leaves Heat's implicit dependencies out, as
    its template validate does.  A cycle raises DependencyCycle."""
    return _Requires(_graph.build_graph(stack_definition, implicit=implicit))


def validate_template(template, environment=(), parameters=None, files=None, root=None, *,
                      checker=None, max_resources=_hot.MAX_RESOURCES_PER_STACK, strict=False,
                      limits=None, urls=(), opener=None, global_environment_dir=None):
    """What ``openstack orchestration template validate`` answers (with
    ``strict``: what stack create checks first); see hot/validate.py.  Types
    are supported when the registry has a plugin for them at the call.  The
    files named by URL beneath ``urls`` are fetched first (remote_files).
    The global environment's files (``global_environment_dir``, else
    $STACKERS_GLOBAL_ENVIRONMENT_DIR) come before ``environment``, as
    heat_stack applies them."""
    environment = inputs.with_global_environment(environment, global_environment_dir)
    if urls and isinstance(template, str) and os.path.isfile(template):
        files = dict(files or {})
        files.update(remote_files.fetch_for_paths(template, environment, urls, files,
                                                  limits or DEFAULT_LIMITS, opener=opener))
    return _hot.validate_template(template, environment, parameters, files, root,
                                  checker=checker, max_resources=max_resources, strict=strict,
                                  supported_types=_Supported(), dependencies=dependencies,
                                  limits=limits, type_rules=_registry.type_rule)


def inspect(template, environment=(), parameters=None, files=None, root=None, *, checker=None,
            resource_data=None, stack_name='oracle_stack', stack_id=None, project_id=None):
    """What the Heat oracle reports for the same inputs; see hot/validate.py.
    As the oracle's default, the types' own rules (Heat's resource
    validate()) are not applied: test_type_rules.py compares those."""
    return _hot.inspect(template, environment, parameters, files, root, checker=checker,
                        resource_data=resource_data, stack_name=stack_name, stack_id=stack_id,
                        project_id=project_id, dependencies=dependencies)
