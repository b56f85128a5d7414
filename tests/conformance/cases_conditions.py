# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Condition cases: the conditions section per version, each condition function
used well and badly, conditions on resources and outputs, and the parameter
values that flip them."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from cases_base import ALIASES, BAD, OK, UNSAID, VERSIONS, Case, tmpl

COND_VERSIONS = tuple(v for v in VERSIONS if v >= '2016-10-14')

PARAMS = {
    'env': {'type': 'string', 'default': 'prod'},
    'zone': {'type': 'string', 'default': 'a'},
    'count': {'type': 'number', 'default': 2},
    'flags': {'type': 'comma_delimited_list', 'default': 'x,y'},
    'on': {'type': 'boolean', 'default': True},
}
FLIPPED = {'env': 'dev', 'zone': 'b', 'count': '3', 'flags': 'z', 'on': 'false'}

EQ = {'equals': [{'get_param': 'env'}, 'prod']}
EQ_ZONE = {'equals': [{'get_param': 'zone'}, 'a']}

# (label, definition, intent, since): a single condition named "c".
DEFINITIONS = [
    ('lit-true', True, OK, None),
    ('lit-false', False, OK, None),
    ('equals', EQ, OK, None),
    ('equals-number', {'equals': [{'get_param': 'count'}, 2]}, OK, None),
    ('equals-list', {'equals': [{'get_param': 'flags'}, ['x', 'y']]}, OK, None),
    ('equals-bool-param', {'equals': [{'get_param': 'on'}, True]}, OK, None),
    ('not', {'not': EQ}, OK, None),
    ('and', {'and': [EQ, EQ_ZONE]}, OK, None),
    ('or', {'or': [EQ, EQ_ZONE]}, OK, None),
    ('and-three', {'and': [EQ, EQ_ZONE, {'not': False}]}, OK, None),
    ('nested', {'or': [{'and': [EQ, {'not': EQ_ZONE}]}, {'equals': ['x', 'x']}]}, OK, None),
    ('param-bool', {'get_param': 'on'}, UNSAID, None),
    ('param-string', {'get_param': 'env'}, UNSAID, None),
    ('contains', {'contains': [{'get_param': 'zone'}, ['a', 'b']]}, OK, '2017-09-01'),
    ('contains', {'contains': [{'get_param': 'zone'}, ['a', 'b']]}, BAD, ('<', '2017-09-01')),
    ('yaql', {'yaql': {'expression': '$.data.c > 1', 'data': {'c': {'get_param': 'count'}}}},
     OK, '2017-09-01'),
    ('yaql', {'yaql': {'expression': '$.data.c > 1', 'data': {'c': {'get_param': 'count'}}}},
     BAD, ('<', '2017-09-01')),
    ('list-join', {'list_join': [',', ['a']]}, BAD, None),
    ('get-resource', {'get_resource': 'x'}, BAD, None),
    ('get-attr', {'get_attr': ['x', 'value']}, BAD, None),
    ('str-replace', {'equals': [{'str_replace': {'template': 'a', 'params': {}}}, 'a']}, BAD, None),
    ('removed-fn', {'Fn::Join': [',', ['a']]}, BAD, None),
    ('and-one-arg', {'and': [EQ]}, BAD, None),
    ('or-not-list', {'or': EQ}, BAD, None),
    ('not-list', {'not': [EQ]}, BAD, None),
    ('equals-three', {'equals': [1, 1, 1]}, BAD, None),
    ('equals-not-list', {'equals': 'a'}, BAD, None),
    ('unknown-param', {'equals': [{'get_param': 'nope'}, 'a']}, BAD, None),
    ('string-literal', 'c_other', UNSAID, None),
    ('number', 1, UNSAID, None),
    ('list', ['a'], UNSAID, None),
    ('null', None, UNSAID, None),
    ('not-literal', {'not': True}, OK, None),
    ('not-string', {'not': 'yes'}, UNSAID, None),
    ('and-names', {'and': ['c_other', True]}, UNSAID, None),
    ('unknown-key', {'bogus': [1, 2]}, UNSAID, None),
]


def _applies(since, version):
    if since is None:
        return True
    if isinstance(since, tuple):
        return version < since[1]
    return version >= since


def _uses(version, definition, extra_conditions=None):
    conditions = {'c': definition, 'c_other': EQ_ZONE}
    conditions.update(extra_conditions or {})
    return tmpl(
        version, parameters=dict(PARAMS), conditions=conditions,
        resources={
            'x': {'type': 'OS::Heat::Value', 'condition': 'c', 'properties': {'value': 'x'}},
            'y': {'type': 'OS::Heat::Value',
                  'properties': {'value': {'if': ['c', 'when-true', 'when-false']}}},
            'z': {'type': 'OS::Heat::None', 'condition': 'c_other'},
        },
        outputs={
            'choice': {'value': {'if': ['c', 't', 'f']}},
            'guarded': {'value': 'shown', 'condition': 'c'},
        })


def definition_cases():
    for version in COND_VERSIONS:
        for label, definition, intent, since in DEFINITIONS:
            if not _applies(since, version):
                continue
            yield Case('cond/%s/def-%s' % (version, label), _uses(version, definition),
                       'cond', intent=intent)
            if intent is not BAD:
                yield Case('cond/%s/def-%s/flipped' % (version, label),
                           _uses(version, definition), 'cond', intent=intent,
                           params=dict(FLIPPED))
    for alias in sorted(ALIASES):
        if ALIASES[alias] >= '2016-10-14':
            yield Case('cond/%s/def-and' % alias, _uses(alias, {'and': [EQ, EQ_ZONE]}),
                       'cond', intent=OK, params={'zone': 'b'})


def _usage(version, label):
    """Where a condition is used: resource/output condition keys, inline
    expressions, references between conditions."""
    conds = {'yes': {'equals': ['a', 'a']}, 'no': {'not': {'equals': ['a', 'a']}}}
    res = {'a': {'type': 'OS::Heat::Value', 'properties': {'value': 'a'}}}
    outputs = {}
    intent = OK
    if label == 'resource-bool-true':
        res['b'] = {'type': 'OS::Heat::None', 'condition': True}
    elif label == 'resource-bool-false':
        res['b'] = {'type': 'OS::Heat::None', 'condition': False}
    elif label == 'resource-inline':
        res['b'] = {'type': 'OS::Heat::None', 'condition': {'not': 'yes'}}
        intent = UNSAID
    elif label == 'resource-inline-equals':
        res['b'] = {'type': 'OS::Heat::None', 'condition': {'equals': [1, 2]}}
        intent = UNSAID
    elif label == 'resource-undefined':
        res['b'] = {'type': 'OS::Heat::None', 'condition': 'nope'}
        intent = BAD
    elif label == 'resource-number':
        res['b'] = {'type': 'OS::Heat::None', 'condition': 1}
        intent = UNSAID
    elif label == 'output-undefined':
        outputs['o'] = {'value': 1, 'condition': 'nope'}
        intent = BAD
    elif label == 'output-false':
        outputs['o'] = {'value': {'get_attr': ['a', 'value']}, 'condition': 'no'}
    elif label == 'output-true':
        outputs['o'] = {'value': {'get_attr': ['a', 'value']}, 'condition': 'yes'}
    elif label == 'cond-refers-cond':
        conds['both'] = {'and': ['yes', {'not': 'no'}]}
        res['b'] = {'type': 'OS::Heat::None', 'condition': 'both'}
        intent = UNSAID
    elif label == 'cond-cycle':
        conds['p'] = {'not': 'q'}
        conds['q'] = {'not': 'p'}
        res['b'] = {'type': 'OS::Heat::None', 'condition': 'p'}
        intent = UNSAID
    elif label == 'cond-self':
        conds['p'] = {'not': 'p'}
        res['b'] = {'type': 'OS::Heat::None', 'condition': 'p'}
        intent = UNSAID
    elif label == 'conditions-not-map':
        conds = ['yes']
        intent = BAD
    elif label == 'conditions-null':
        conds = None
        intent = UNSAID
    elif label == 'if-in-depends-on':
        res['b'] = {'type': 'OS::Heat::None', 'depends_on': {'if': ['yes', 'a', 'a']}}
        intent = UNSAID
    elif label == 'if-selects-reference':
        res['c'] = {'type': 'OS::Heat::Value', 'properties': {'value': 'c'}}
        res['b'] = {'type': 'OS::Heat::Value',
                    'properties': {'value': {'if': ['no', {'get_resource': 'a'},
                                                    {'get_attr': ['c', 'value']}]}}}
    elif label == 'ref-to-disabled':
        res['a']['condition'] = 'no'
        res['b'] = {'type': 'OS::Heat::Value', 'properties': {'value': {'get_attr': ['a', 'value']}}}
        intent = UNSAID
    elif label == 'depends-on-disabled':
        res['a']['condition'] = 'no'
        res['b'] = {'type': 'OS::Heat::None', 'depends_on': ['a']}
        intent = UNSAID
    elif label == 'disabled-refers-enabled':
        res['b'] = {'type': 'OS::Heat::Value', 'condition': 'no',
                    'properties': {'value': {'get_attr': ['a', 'value']}}}
    elif label == 'output-refs-disabled':
        res['a']['condition'] = 'no'
        outputs['o'] = {'value': {'get_attr': ['a', 'value']}}
        intent = UNSAID
    elif label == 'disabled-refers-unknown':
        res['b'] = {'type': 'OS::Heat::Value', 'condition': 'no',
                    'properties': {'value': {'get_attr': ['zzz', 'value']}}}
        intent = UNSAID
    elif label == 'disabled-invalid-props':
        res['b'] = {'type': 'OS::Heat::Value', 'condition': 'no', 'properties': {'bogus': 1}}
        intent = UNSAID
    else:
        raise ValueError(label)
    return tmpl(version, conditions=conds, resources=res, outputs=outputs or None), intent


USAGES = ('resource-bool-true', 'resource-bool-false', 'resource-inline',
          'resource-inline-equals', 'resource-undefined', 'resource-number',
          'output-undefined', 'output-false', 'output-true', 'cond-refers-cond',
          'cond-cycle', 'cond-self', 'conditions-not-map', 'conditions-null',
          'if-in-depends-on', 'if-selects-reference', 'ref-to-disabled',
          'depends-on-disabled', 'disabled-refers-enabled', 'output-refs-disabled',
          'disabled-refers-unknown', 'disabled-invalid-props')


def usage_cases():
    for version in COND_VERSIONS:
        for label in USAGES:
            template, intent = _usage(version, label)
            yield Case('cond/%s/use-%s' % (version, label), template, 'cond', intent=intent)
    # Before 2016-10-14 none of it exists: the section and the keys are errors.
    for version in (v for v in VERSIONS if v < '2016-10-14'):
        yield Case('cond/%s/section-too-early' % version,
                   tmpl(version, conditions={'c': True},
                        resources={'a': {'type': 'OS::Heat::None'}}), 'cond', intent=BAD)
        yield Case('cond/%s/resource-key-too-early' % version,
                   tmpl(version, resources={'a': {'type': 'OS::Heat::None', 'condition': True}}),
                   'cond', intent=BAD)
        # ... except an output's condition key: output keys are never checked.
        yield Case('cond/%s/output-key-too-early' % version,
                   tmpl(version, resources={'a': {'type': 'OS::Heat::None'}},
                        outputs={'o': {'value': 1, 'condition': True}}), 'cond', intent=OK)


def condition_cases():
    for gen in (definition_cases, usage_cases):
        yield from gen()
