# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A small stand-in for the stack definition, so each function can be tested
alone: parse a snippet with a version's table, validate it, resolve it."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections.abc import Mapping, Sequence

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    StackersError, TemplateError)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import functions as fns
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.conditions import Conditions
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.template import Template

ALL_VERSIONS = ('2013-05-23', '2014-10-16', '2015-04-30', '2015-10-15', '2016-04-08',
                '2016-10-14', '2017-02-24', '2017-09-01', '2018-03-02', '2018-08-31',
                '2021-04-16')


def since(first, until=None):
    """The versions from ``first`` (included) to ``until`` (excluded)."""
    return tuple(v for v in ALL_VERSIONS if v >= first and (until is None or v < until))


class FakeStack(object):
    """The context protocol of functions/base.py, from plain data.

    ``resources``: enabled resource names; ``disabled``: names defined but
    disabled; ``data``: name -> {'reference_id', 'attrs'}; ``attributes``:
    name -> allowed attribute names (absent: any)."""

    def __init__(self, version='2021-04-16', params=None, resources=(), disabled=(), data=None,
                 attributes=None, conditions=None, files=None, parent=None, zones=None):
        tdata = {'heat_template_version': version}
        if conditions is not None:
            tdata['conditions'] = conditions
        self.template = Template.load(tdata, files=dict(files or {}))
        self.parameters = dict(params or {})
        self.parameters.setdefault('OS::stack_name', 'fake')
        self.enabled = set(resources)
        self.defined = self.enabled | set(disabled)
        self.data = data or {}
        self.attributes = attributes or {}
        self.parent_resource = parent
        self.zones = zones
        self.conditions = Conditions(self.template, self.parameters, stack=self)

    def resource_enabled(self, name):
        return name in self.enabled

    def resource_defined(self, name):
        return name in self.defined

    def reference_id(self, name):
        data = self.data.get(name)
        return name if data is None else data['reference_id']

    def attribute(self, name, attr, path=()):
        data = self.data.get(name)
        if data is None:
            return None
        value = data['attrs'][attr]
        for key in path:
            if not isinstance(value, (Mapping, Sequence)):
                return None
            try:
                value = value[key]
            except (KeyError, IndexError, TypeError):
                return None
        return value

    def all_attributes(self, name):
        data = self.data.get(name)
        return None if data is None else dict((k, v) for k, v in data['attrs'].items()
                                              if k != 'show')

    def check_attribute(self, name, attr, path):
        allowed = self.attributes.get(name)
        if allowed is not None and attr not in allowed:
            raise TemplateError('no attribute %s' % attr, path=path)

    def get_file(self, name, path=()):
        return self.template.get_file(name, path)

    def availability_zones(self):
        return self.zones or ['nova']


def run(snippet, version='2021-04-16', **kw):
    """(phase, value_or_error): parse, validate then resolve ``snippet``
    (as a condition with ``condition=True``)."""
    as_condition = kw.pop('condition', False)
    stack = kw.pop('stack', None) or FakeStack(version, **kw)
    parse = stack.template.parse_condition if as_condition else stack.template.parse
    phase = 'parse'
    try:
        parsed = parse(snippet, ('x',), stack=stack)
        phase = 'validate'
        fns.validate(parsed)
        phase = 'resolve'
        return 'ok', fns.resolve(parsed)
    except StackersError as exc:
        return phase, exc


def value(snippet, version='2021-04-16', **kw):
    phase, result = run(snippet, version, **kw)
    assert phase == 'ok', '%s: %s' % (phase, result)
    return result


def failure(snippet, version='2021-04-16', **kw):
    """(phase, error) of a snippet that must fail."""
    phase, result = run(snippet, version, **kw)
    assert phase != 'ok', 'expected a failure, got %r' % (result,)
    assert isinstance(result, TemplateError), repr(result)
    return phase, result
