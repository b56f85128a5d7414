# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::Stack (Heat 27's RemoteStack) run as a nested stack here.

Heat makes it a stack of its own through its API, in the region its
``context`` names (its own by default).  This collection runs it in the
parent's walk like a template resource (engine/nested/stacks.py): its
template is the ``template`` property (text, known before the walk), its
parameters the entries of ``parameters`` (an entry waiting on a resource
becomes a ``param`` step as a template resource's property does), with
the child environment as Heat's get_child_environment builds it.  A
``context.region_name`` other than the connection's region would be a
remote stack: it is refused before any cloud call.  Its reference id is
the stack's id; its attributes are ``outputs`` (every output, as a map) and
``stack_name``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import TemplateError
from ...hot import functions as fns
from ...hot.template import Template

STACK_TYPE = 'OS::Heat::Stack'


def is_stack(defn):
    info = getattr(defn, 'type_info', None)
    return (getattr(info, 'plugin', None) or defn.type) == STACK_TYPE


def _known(defn, prop, what):
    """The resolved value of property ``prop``, which must not wait on a resource."""
    value = (defn.properties or {}).get(prop)
    if fns.dependencies(value):
        raise TemplateError('The "%s" of OS::Heat::Stack "%s" must be known before the run (%s '
                            'cannot come from another resource)' % (prop, defn.name, what),
                            path=defn.path + ('properties', prop))
    return fns.resolve(value, nullable=True)


def check_region(defn, region):
    """Refuse a stack ``context.region_name`` puts in another region than
    ``region`` (the connection's): Heat would make it there, remotely."""
    context = (defn.properties or {}).get('context')
    if context is None:
        return
    if isinstance(context, dict):
        context = dict(context, region_name=_known_value(defn, context.get('region_name')))
    else:
        context = _known(defn, 'context', 'its region')
    wanted = (context or {}).get('region_name')
    if wanted and wanted != region:
        raise TemplateError('OS::Heat::Stack "%s" names region "%s" in its context, not this '
                            'connection\'s region (%s): a stack in another region is a remote '
                            'stack, which this collection does not run'
                            % (defn.name, wanted, '"%s"' % region if region else 'none set'),
                            path=defn.path + ('properties', 'context', 'region_name'))


def _known_value(defn, value):
    if fns.dependencies(value):
        raise TemplateError('The "context.region_name" of OS::Heat::Stack "%s" must be known '
                            'before the run' % defn.name,
                            path=defn.path + ('properties', 'context', 'region_name'))
    return fns.resolve(value, nullable=True)


def template_of(sd, defn):
    """The Template the ``template`` property holds (text, as Heat parses it)."""
    text = _known(defn, 'template', 'the template')
    path = defn.path + ('properties', 'template')
    if not isinstance(text, str):
        raise TemplateError('The "template" of OS::Heat::Stack "%s" must be a template as text'
                            % defn.name, path=path)
    # bytes: text, never taken for a file name; what it reads (get_file)
    # is found next to the parent's template, from the parent's files
    template = Template.load(text.encode('utf-8'), filename=sd.template.filename,
                             files=sd.files, root=sd.template.root)
    template.check_output_keys()
    return template


def parameter_snippets(defn):
    """name -> parsed value of each entry of the ``parameters`` property:
    the nested stack's parameters.  The map itself must be known before
    the run (its entries may wait on resources)."""
    value = (defn.properties or {}).get('parameters')
    if value is None or isinstance(value, dict):
        return dict(value or {})
    resolved = _known(defn, 'parameters', 'the map of parameters')
    if not isinstance(resolved, dict):
        raise TemplateError('The "parameters" of OS::Heat::Stack "%s" must be a map' % defn.name,
                            path=defn.path + ('properties', 'parameters'))
    return resolved


def stack_fields(defn):
    """What Heat's create gives the stack beyond a nested stack's: its own
    ``timeout`` (when known before the run), no rollback."""
    fields = {'disable_rollback': True}
    timeout = (defn.properties or {}).get('timeout')
    if timeout is not None and not fns.dependencies(timeout):
        fields['timeout_mins'] = fns.resolve(timeout, nullable=True)
    return fields


def attribute(outputs, key, stack_name):
    """``outputs`` (every output: the run's ``nested_outputs`` of the row) or
    ``stack_name``; KeyError for another."""
    if key == 'outputs':
        return dict(outputs)
    if key == 'stack_name':
        return stack_name
    raise KeyError(key)
