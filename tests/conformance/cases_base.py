# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What every case family shares: versions, the function availability table
and the Case record."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import yaml


class _Dumper(getattr(yaml, 'CSafeDumper', yaml.SafeDumper)):
    # The C dumper when PyYAML has it: thousands of cases are dumped per
    # session.  A value used in several places is written out each time, not
    # as a YAML anchor and aliases, so each case reads as a person writes it.
    def ignore_aliases(self, data):
        return True


_DUMPER = _Dumper

VERSIONS = ('2013-05-23', '2014-10-16', '2015-04-30', '2015-10-15', '2016-04-08',
            '2016-10-14', '2017-02-24', '2017-09-01', '2018-03-02', '2018-08-31',
            '2021-04-16')
ALIASES = {'newton': '2016-10-14', 'ocata': '2017-02-24', 'pike': '2017-09-01',
           'queens': '2018-03-02', 'rocky': '2018-08-31', 'wallaby': '2021-04-16'}
CONDITIONS_SINCE = '2016-10-14'

# name -> (first version that has it, first version where it raises "removed")
FUNCTIONS = {
    'get_param': ('2013-05-23', None), 'get_resource': ('2013-05-23', None),
    'get_attr': ('2013-05-23', None), 'get_file': ('2013-05-23', None),
    'list_join': ('2013-05-23', None), 'str_replace': ('2013-05-23', None),
    'resource_facade': ('2013-05-23', None),
    'repeat': ('2015-04-30', None), 'digest': ('2015-04-30', None),
    'str_split': ('2015-10-15', None), 'map_merge': ('2016-04-08', None),
    'yaql': ('2016-10-14', None), 'map_replace': ('2016-10-14', None),
    'if': ('2016-10-14', None),
    'filter': ('2017-02-24', None), 'str_replace_strict': ('2017-02-24', None),
    'make_url': ('2017-09-01', None), 'list_concat': ('2017-09-01', None),
    'list_concat_unique': ('2017-09-01', None), 'contains': ('2017-09-01', None),
    'str_replace_vstrict': ('2017-09-01', None),
    'Fn::GetAZs': ('2013-05-23', '2014-10-16'), 'Ref': ('2013-05-23', '2014-10-16'),
    'Fn::Join': ('2013-05-23', '2014-10-16'), 'Fn::Split': ('2013-05-23', '2014-10-16'),
    'Fn::Replace': ('2013-05-23', '2014-10-16'), 'Fn::Base64': ('2013-05-23', '2014-10-16'),
    'Fn::MemberListToMap': ('2013-05-23', '2014-10-16'),
    'Fn::ResourceFacade': ('2013-05-23', '2014-10-16'),
    'Fn::Select': ('2013-05-23', '2015-10-15'),
}
# Keys that look like functions but never are in a HOT resource/output: plain data.
NEVER_FUNCTIONS = {
    'Fn::GetAtt': ['r', 'value'], 'Fn::If': ['c', 'a', 'b'], 'Fn::Equals': ['a', 'a'],
    'Fn::FindInMap': ['m', 'k', 'v'], 'Fn::Sub': 'x', 'equals': ['a', 'a'],
    'not': True, 'and': [True, False], 'or': [True, False], 'get_input': 'x',
    'get_params': 's', 'GET_PARAM': 's',
}


def availability(fn, version):
    since, removed = FUNCTIONS[fn]
    if removed and version >= removed:
        return 'removed'
    return 'yes' if version >= since else 'absent'


class Case(object):
    """One differential case.  ``template`` and each environment are Python
    data (dumped to YAML) or text used as is."""

    def __init__(self, cid, template, family, intent=None, params=None,
                 environments=(), files=None, fake=None, compare_values=True,
                 note=None, incomparable=None):
        self.id = cid
        self.template = template
        self.family = family
        self.intent = intent
        self.params = params or {}
        self.environments = list(environments)
        self.files = files or {}
        self.fake = fake
        self.compare_values = compare_values
        # Why Heat's offline answer cannot be compared (None: it can).
        self.incomparable = incomparable
        self.note = note

    @staticmethod
    def _text(doc):
        if isinstance(doc, str):
            return doc
        return yaml.dump(doc, Dumper=_DUMPER, default_flow_style=False, sort_keys=False,
                         allow_unicode=True)

    @property
    def template_text(self):
        if getattr(self, '_template_text', None) is None:
            self._template_text = self._text(self.template)
        return self._template_text

    @property
    def environment_texts(self):
        return [self._text(env) for env in self.environments]

    def request(self):
        req = {'template_text': self.template_text, 'params': self.params,
               'environments': self.environment_texts, 'files': self.files}
        if self.fake:
            req['fake_resources'] = self.fake
        return req

    def __repr__(self):
        return 'Case(%s)' % self.id


OK, BAD, UNSAID = True, False, None


def canonical(version):
    return ALIASES.get(version, version)


def tmpl(version, **sections):
    """A template dict with sections in the usual order (empty ones left out)."""
    out = {'heat_template_version': version}
    for key in ('description', 'parameter_groups', 'parameters', 'conditions',
                'resources', 'outputs'):
        if sections.get(key) is not None:
            out[key] = sections[key]
    return out
