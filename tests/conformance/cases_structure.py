# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Dependency cases (get_resource, get_attr, depends_on, references hidden in
functions and metadata, cycles, random graphs) and the template's own structure
(version, sections, resource and output keys, the no-cloud resource types)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import random

from cases_base import ALIASES, BAD, OK, UNSAID, VERSIONS, Case, tmpl

DEP_VERSIONS = ('2013-05-23', '2015-10-15', '2016-10-14', '2021-04-16')


def _val(value, **extra):
    res = {'type': 'OS::Heat::Value', 'properties': {'value': value}}
    res.update(extra)
    return res


def _none(**extra):
    res = {'type': 'OS::Heat::None'}
    res.update(extra)
    return res


# label -> (resources, intent)
def _dep_shapes():
    def ref(name):
        return {'get_resource': name}

    def attr(name):
        return {'get_attr': [name, 'value']}

    return {
        'chain-get-resource': ({'a': _val('a'), 'b': _val(ref('a')), 'c': _val(ref('b'))}, OK),
        'chain-get-attr': ({'a': _val('a'), 'b': _val(attr('a')), 'c': _val(attr('b'))}, OK),
        'depends-on-string': ({'a': _none(), 'b': _none(depends_on='a')}, OK),
        'depends-on-list': ({'a': _none(), 'b': _none(), 'c': _none(depends_on=['a', 'b'])}, OK),
        'depends-on-duplicate': ({'a': _none(), 'b': _none(depends_on=['a', 'a'])}, UNSAID),
        'depends-on-empty-list': ({'a': _none(), 'b': _none(depends_on=[])}, OK),
        'depends-on-unknown': ({'a': _none(depends_on='zzz')}, BAD),
        'depends-on-map': ({'a': _none(), 'b': _none(depends_on={'a': 1})}, BAD),
        'depends-on-number': ({'a': _none(), 'b': _none(depends_on=1)}, UNSAID),
        'depends-on-fn': ({'a': _none(), 'b': _none(depends_on={'get_resource': 'a'})}, UNSAID),
        'mixed': ({'a': _val('a'), 'b': _none(depends_on='a'),
                   'c': _val({'list_join': ['-', [ref('a'), attr('a')]]}, depends_on=['b'])}, OK),
        'fan-in': ({'a': _val('a'), 'b': _val('b'), 'c': _val('c'),
                    'd': _val([ref('a'), ref('b'), attr('c')])}, OK),
        'fan-out': ({'a': _val('a'), 'b': _val(ref('a')), 'c': _val(attr('a')),
                     'd': _none(depends_on='a')}, OK),
        'in-str-replace': ({'a': _val('a'), 'b': _val({'str_replace': {
            'template': 'X', 'params': {'X': attr('a')}}})}, OK),
        'in-metadata': ({'a': _val('a'), 'b': _none(metadata={'m': ref('a')})}, OK),
        'in-none-props': ({'a': _val('a'), 'b': {'type': 'OS::Heat::None',
                                                 'properties': {'x': attr('a')}}}, OK),
        'self-get-resource': ({'a': _val(ref('a'))}, BAD),
        'self-depends-on': ({'a': _none(depends_on='a')}, BAD),
        'cycle-2': ({'a': _val(ref('b')), 'b': _val(ref('a'))}, BAD),
        'cycle-3': ({'a': _val(attr('c')), 'b': _none(depends_on='a'), 'c': _val(ref('b'))}, BAD),
        'cycle-depends-on': ({'a': _none(depends_on='b'), 'b': _none(depends_on='a')}, BAD),
        'random-string': ({'rs': {'type': 'OS::Heat::RandomString', 'properties': {'length': 8}},
                           'u': _val({'get_attr': ['rs', 'value']}), 'w': _val(ref('rs'))}, OK),
        'test-resource': ({'t': {'type': 'OS::Heat::TestResource', 'properties': {'value': 'tv'}},
                           'u': _val({'get_attr': ['t', 'output']})}, OK),
        'unknown-ref-in-metadata': ({'a': _none(metadata={'m': ref('zzz')})}, BAD),
        'attr-of-none': ({'a': _none(), 'b': _val({'get_attr': ['a', 'anything']})}, UNSAID),
        'random-string-attrs': ({'rs': {'type': 'OS::Heat::RandomString', 'properties': {'length': 8}},
                                 'u': _val({'get_attr': ['rs', 'nosuch']})}, BAD),
        'test-resource-bad-attr': ({'t': {'type': 'OS::Heat::TestResource'},
                                    'u': _val({'get_attr': ['t', 'nosuch']})}, BAD),
        'deletion-policy-fn': ({'a': _val('a', deletion_policy={'get_param': 'OS::stack_name'})}, UNSAID),
        'external-id-fn': ({'a': _none(external_id={'get_param': 'OS::stack_name'})}, UNSAID),
        'repeat-references': ({'a': _val('a'), 'b': _val('b'), 'c': _val({'repeat': {
            'template': {'get_resource': '<%n%>'}, 'for_each': {'<%n%>': ['a', 'b']}}})}, UNSAID),
        'ref-in-if-branches': ({'a': _val('a'), 'b': _val('b'), 'c': _val(
            {'if': [{'equals': [1, 1]}, ref('a'), ref('b')]})}, UNSAID),
    }


def _random_graph(seed, cyclic):
    rnd = random.Random(seed)
    count = rnd.randint(4, 10)
    names = ['r%d' % i for i in range(count)]
    resources = {}
    for i, name in enumerate(names):
        earlier = names[:i]
        picks = rnd.sample(earlier, min(len(earlier), rnd.randint(0, 3)))
        kind = rnd.choice(('value', 'none', 'random', 'test'))
        refs = [{'get_resource': p} if rnd.random() < 0.5 else {'get_attr': [p, _attr(resources[p])]}
                for p in picks[:2]]
        deps = picks[2:]
        if kind == 'value' or (refs and kind in ('random', 'test')):
            res = _val(refs or name)
        elif kind == 'none':
            res = _none(properties={'refs': refs}) if refs else _none()
        elif kind == 'random':
            res = {'type': 'OS::Heat::RandomString', 'properties': {'length': rnd.randint(4, 16)}}
        else:
            res = {'type': 'OS::Heat::TestResource', 'properties': {'value': name}}
        if deps:
            res['depends_on'] = deps if rnd.random() < 0.7 else deps[0]
        resources[name] = res
    if cyclic:
        # first -> last -> middle -> first, whatever else the graph holds.
        first, middle, last = names[0], names[count // 2], names[-1]
        resources[first]['depends_on'] = last
        resources[last]['depends_on'] = [middle]
        resources[middle]['depends_on'] = first
    outputs = {'o%d' % i: {'value': {'get_attr': [n, _attr(resources[n])]}}
               for i, n in enumerate(rnd.sample(names, 2))}
    outputs['refs'] = {'value': [{'get_resource': n} for n in rnd.sample(names, 2)]}
    return resources, outputs


def _fake(resources):
    """Live state for every resource, so outputs and properties resolve."""
    return {name: {'reference_id': '%s-id' % name,
                   'attrs': {'value': 'value-of-%s' % name, 'output': 'output-of-%s' % name}}
            for name in resources}


def _attr(res):
    return {'OS::Heat::Value': 'value', 'OS::Heat::RandomString': 'value',
            'OS::Heat::TestResource': 'output'}.get(res['type'], 'value')


def dependency_cases():
    for version in DEP_VERSIONS:
        for label, (resources, intent) in sorted(_dep_shapes().items()):
            yield Case('deps/%s/%s' % (version, label), tmpl(version, resources=resources),
                       'deps', intent=intent)
    for seed in range(40):
        resources, outputs = _random_graph(seed, cyclic=False)
        version = DEP_VERSIONS[seed % len(DEP_VERSIONS)]
        yield Case('deps/%s/random-%02d' % (version, seed),
                   tmpl(version, resources=resources, outputs=outputs), 'deps', intent=OK)
        yield Case('deps/%s/random-%02d/live' % (version, seed),
                   tmpl(version, resources=resources, outputs=outputs), 'deps', intent=OK,
                   fake=_fake(resources))
    for seed in range(100, 110):
        resources, outputs = _random_graph(seed, cyclic=True)
        yield Case('deps/2016-10-14/random-cyclic-%d' % seed,
                   tmpl('2016-10-14', resources=resources), 'deps', intent=BAD)


def _structure(version):
    res = {'a': {'type': 'OS::Heat::None'}}
    new = version >= '2016-10-14'
    yield 'minimal', {'heat_template_version': version}, OK
    yield 'description', tmpl(version, description='text', resources=res), OK
    yield 'description-not-string', tmpl(version, description=['x'], resources=res), UNSAID
    yield 'unknown-section', dict(tmpl(version, resources=res), bogus={}), BAD
    yield 'cfn-section', dict(tmpl(version, resources=res), Resources={}), BAD
    yield 'resources-list', tmpl(version, resources=[res]), BAD
    yield 'resources-null', {'heat_template_version': version, 'resources': None}, UNSAID
    yield 'outputs-null', {'heat_template_version': version, 'outputs': None}, UNSAID
    yield 'resource-not-map', tmpl(version, resources={'a': 'OS::Heat::None'}), BAD
    yield 'resource-no-type', tmpl(version, resources={'a': {'properties': {}}}), BAD
    yield 'resource-type-not-string', tmpl(version, resources={'a': {'type': ['x']}}), BAD
    yield 'resource-type-unknown', tmpl(version, resources={'a': {'type': 'OS::No::Such'}}), BAD
    yield 'resource-type-aws', tmpl(version, resources={
        'a': {'type': 'AWS::CloudFormation::WaitConditionHandle'}}), OK
    yield 'resource-unknown-key', tmpl(version, resources={'a': {'type': 'OS::Heat::None',
                                                                 'bogus': 1}}), BAD
    yield 'resource-cfn-key', tmpl(version, resources={'a': {'type': 'OS::Heat::None',
                                                             'Properties': {}}}), BAD
    yield 'external-id', tmpl(version, resources={'a': {'type': 'OS::Heat::None',
                                                        'external_id': 'abc'}}), OK if new else BAD
    yield 'properties-not-map', tmpl(version, resources={'a': {'type': 'OS::Heat::Value',
                                                               'properties': ['x']}}), BAD
    yield 'metadata-not-map', tmpl(version, resources={'a': {'type': 'OS::Heat::None',
                                                             'metadata': ['x']}}), BAD
    yield 'metadata-fn', tmpl(version, resources={'a': {'type': 'OS::Heat::None', 'metadata': {
        'k': {'list_join': ['-', ['a', 'b']]}}}}), OK
    for policy, ok in (('Delete', OK), ('Retain', OK), ('delete', OK if new else BAD),
                       ('retain', OK if new else BAD), ('Snapshot', BAD), ('Bogus', BAD)):
        yield 'deletion-policy-%s' % policy, tmpl(version, resources={
            'a': {'type': 'OS::Heat::Value', 'properties': {'value': 1},
                  'deletion_policy': policy}}), ok
    yield 'update-policy', tmpl(version, resources={
        'a': {'type': 'OS::Heat::Value', 'properties': {'value': 1},
              'update_policy': {'bogus': 1}}}), UNSAID
    yield 'resource-description', tmpl(version, resources={
        'a': {'type': 'OS::Heat::None', 'description': 'd'}}), OK
    yield 'output-no-value', tmpl(version, resources=res, outputs={'o': {'description': 'd'}}), UNSAID
    # Heat never checks an output's keys: extra ones are ignored.
    yield 'output-unknown-key', tmpl(version, resources=res, outputs={'o': {'value': 1, 'x': 2}}), OK
    yield 'output-not-map', tmpl(version, resources=res, outputs={'o': 'text'}), BAD
    yield 'output-null-value', tmpl(version, resources=res, outputs={'o': {'value': None}}), OK
    yield 'value-missing', tmpl(version, resources={'a': {'type': 'OS::Heat::Value'}}), BAD
    yield 'value-bad-type', tmpl(version, resources={'a': {'type': 'OS::Heat::Value', 'properties': {
        'value': 1, 'type': 'integer'}}}), BAD
    yield 'value-number-typed', tmpl(version, resources={'a': {'type': 'OS::Heat::Value', 'properties': {
        'value': 'abc', 'type': 'number'}}}), BAD
    yield 'value-json-string', tmpl(version, resources={'a': {'type': 'OS::Heat::Value', 'properties': {
        'value': '{"a": 1}', 'type': 'json'}}}), UNSAID
    yield 'value-unknown-prop', tmpl(version, resources={'a': {'type': 'OS::Heat::Value', 'properties': {
        'value': 1, 'bogus': 2}}}), BAD
    yield 'random-length-word', tmpl(version, resources={'a': {
        'type': 'OS::Heat::RandomString', 'properties': {'length': 'abc'}}}), BAD
    yield 'random-classes', tmpl(version, resources={'a': {
        'type': 'OS::Heat::RandomString', 'properties': {'length': 12, 'character_classes': [
            {'class': 'lettersdigits', 'min': 2}]}}}), OK
    yield 'random-bad-class', tmpl(version, resources={'a': {
        'type': 'OS::Heat::RandomString', 'properties': {'character_classes': [{'class': 'emoji'}]}}}), BAD
    yield 'random-too-short', tmpl(version, resources={'a': {
        'type': 'OS::Heat::RandomString', 'properties': {'length': 2, 'character_classes': [
            {'class': 'digits', 'min': 5}]}}}), UNSAID
    yield 'test-resource-unknown-prop', tmpl(version, resources={'a': {
        'type': 'OS::Heat::TestResource', 'properties': {'bogus': 1}}}), BAD
    yield 'none-any-props', tmpl(version, resources={'a': {
        'type': 'OS::Heat::None', 'properties': {'anything': [1, {'x': 2}]}}}), OK
    yield 'resource-name-with-dot', tmpl(version, resources={'a.b': {'type': 'OS::Heat::None'}}), UNSAID
    yield 'resource-name-empty', tmpl(version, resources={'': {'type': 'OS::Heat::None'}}), UNSAID


TEXT_CASES = [
    ('unquoted-version', 'heat_template_version: 2016-10-14\nresources:\n  a: {type: OS::Heat::None}\n', OK),
    ('json-text', '{"heat_template_version": "2015-04-30", "resources": {"a": {"type": "OS::Heat::None"}}}',
     OK),
    ('no-version', 'resources:\n  a: {type: OS::Heat::None}\n', BAD),
    ('version-unknown', 'heat_template_version: 2012-01-01\n', BAD),
    ('version-capital-alias', 'heat_template_version: Newton\n', BAD),
    ('version-number', 'heat_template_version: 2016\n', BAD),
    ('cfn-version', 'AWSTemplateFormatVersion: "2010-09-09"\nResources: {}\n', UNSAID),
    ('yaml-error', 'heat_template_version: 2016-10-14\nresources: {a: [\n', BAD),
    ('not-a-map', '- heat_template_version\n', BAD),
    ('empty', '', BAD),
    ('tab-indent', 'heat_template_version: 2016-10-14\nresources:\n\ta: {type: OS::Heat::None}\n', BAD),
    ('duplicate-key', 'heat_template_version: 2016-10-14\nresources:\n  a: {type: OS::Heat::None}\n'
     '  a: {type: OS::Heat::Value}\n', UNSAID),
    ('yaml-anchor', 'heat_template_version: 2016-10-14\nresources:\n  a: &r {type: OS::Heat::None}\n'
     '  b: *r\n', OK),
    ('timestamp-value', 'heat_template_version: 2016-10-14\noutputs:\n  o: {value: 2020-01-02}\n', OK),
    ('bool-words', 'heat_template_version: 2016-10-14\noutputs:\n  o: {value: [yes, no, on, off]}\n', OK),
    ('octal-like', 'heat_template_version: 2016-10-14\noutputs:\n  o: {value: [010, 0x1F, 1_000]}\n', OK),
]


def structure_cases():
    for version in VERSIONS:
        for label, template, intent in _structure(version):
            yield Case('struct/%s/%s' % (version, label), template, 'struct', intent=intent)
    for alias in sorted(ALIASES):
        yield Case('struct/%s/minimal' % alias, {'heat_template_version': alias}, 'struct', intent=OK)
    for label, text, intent in TEXT_CASES:
        yield Case('struct/text/%s' % label, text, 'struct', intent=intent)
