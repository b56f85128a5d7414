# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fuzzing the template language: whatever the input, validate_template()
returns or raises a StackersError, and inspect() returns; nothing else ever
escapes, and no example takes long.

Inputs: templates built from Heat's own vocabulary, random text, and
mutations (keys dropped, values of the wrong type, functions injected, names
swapped) of the generated conformance cases and of the real corpus.
In CI (CI=true) the run is derandomized so a failure reproduces; the whole
file stays under about a minute."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json
import os
import signal
import sys
import time
import tracemalloc

import yaml
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'conformance'))

import cases  # noqa: E402
import corpus  # noqa: E402
from cases_base import ALIASES, FUNCTIONS, NEVER_FUNCTIONS, VERSIONS  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (  # noqa: E402
    LocatedError, StackersError)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import loader  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import (
                                                                                               validation as validate)    # noqa: E402

CI = os.environ.get('CI') == 'true'
EXAMPLE_SECONDS = 10
FUZZ = settings(max_examples=int(os.environ.get('FUZZ_EXAMPLES', '150')), deadline=5000,
                derandomize=CI, database=None if CI else settings.default.database,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])

FN_NAMES = sorted(FUNCTIONS) + sorted(NEVER_FUNCTIONS) + ['equals', 'not', 'and', 'or']
KEYS = ['type', 'properties', 'metadata', 'depends_on', 'deletion_policy', 'update_policy',
        'description', 'condition', 'external_id', 'value', 'default', 'constraints', 'hidden',
        'label', 'tags', 'immutable', 'length', 'range', 'modulo', 'allowed_values',
        'allowed_pattern', 'custom_constraint', 'min', 'max', 'template', 'params', 'for_each',
        'permutations', 'expression', 'data', 'keys', 'values', 'parameters', 'resources',
        'outputs', 'conditions', 'parameter_groups', 'heat_template_version']
NAMES = ['a', 'b', 'r', 'p', 'c', 'v', 'value', 'OS::stack_name', '']
TYPES = ['OS::Heat::None', 'OS::Heat::Value', 'OS::Heat::RandomString', 'OS::Heat::TestResource',
         'OS::Nova::Server', 'OS::Neutron::Port', 'OS::Heat::ResourceGroup', 'My::Type',
         'nested.yaml', 'AWS::EC2::Instance']
PTYPES = ['string', 'number', 'comma_delimited_list', 'json', 'boolean', 'integer']

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 70000),
                    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(NAMES + TYPES),
                    st.text(max_size=12))
keys = st.one_of(st.sampled_from(KEYS + FN_NAMES + NAMES), st.text(max_size=6))


def _extend(children):
    return st.one_of(st.lists(children, max_size=4),
                     st.dictionaries(keys, children, max_size=4),
                     st.builds(lambda fn, args: {fn: args}, st.sampled_from(FN_NAMES), children))


values = st.recursive(scalars, _extend, max_leaves=25)
versions = st.sampled_from(list(VERSIONS) + sorted(ALIASES) + ['2012-12-12', 'bogus', ''])


@st.composite
def templates(draw):
    tmpl = {'heat_template_version': draw(versions)}
    if draw(st.booleans()):
        tmpl['parameters'] = draw(st.dictionaries(st.sampled_from(NAMES), st.one_of(
            st.fixed_dictionaries({'type': st.sampled_from(PTYPES)},
                                  optional={'default': values, 'constraints': values,
                                            'hidden': values}), values), max_size=3))
    if draw(st.booleans()):
        tmpl['conditions'] = draw(st.dictionaries(st.sampled_from(NAMES), values, max_size=3))
    tmpl['resources'] = draw(st.dictionaries(st.sampled_from(NAMES), st.one_of(
        st.fixed_dictionaries({'type': st.sampled_from(TYPES)},
                              optional={'properties': values, 'depends_on': values,
                                        'condition': values, 'metadata': values}), values),
        max_size=4))
    if draw(st.booleans()):
        tmpl['outputs'] = draw(st.dictionaries(st.sampled_from(NAMES), st.one_of(
            st.fixed_dictionaries({'value': values}, optional={'condition': values}), values),
            max_size=3))
    return tmpl


environments = st.lists(st.one_of(
    st.fixed_dictionaries({}, optional={
        'parameters': st.dictionaries(st.sampled_from(NAMES), values, max_size=3),
        'parameter_defaults': st.dictionaries(st.sampled_from(NAMES), values, max_size=3),
        'resource_registry': st.dictionaries(st.sampled_from(TYPES + ['resources']), values,
                                             max_size=3),
        'parameter_merge_strategies': st.dictionaries(
            st.sampled_from(NAMES + ['default']),
            st.sampled_from(['merge', 'deep_merge', 'overwrite', 'bogus']), max_size=2)}),
    values), max_size=2)


def _seeds():
    out = [c.template for c in cases.all_cases()[::5] if isinstance(c.template, dict)]
    if corpus.corpus_dir():
        for case in corpus.corpus_cases()[0]:
            try:
                out.append(yaml.safe_load(case.template_text))
            except yaml.YAMLError:
                pass
    return [s for s in out if isinstance(s, dict)]


SEEDS = _seeds()


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, prefix + (index,))


def _parent(doc, path):
    for part in path[:-1]:
        doc = doc[part]
    return doc


@st.composite
def mutants(draw):
    doc = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    for _round in range(draw(st.integers(1, 4))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = _parent(doc, path), path[-1]
        action = draw(st.sampled_from(('drop', 'swap', 'inject', 'rename', 'reference')))
        if action == 'drop':
            del parent[key]
        elif action == 'swap':
            parent[key] = draw(values)
        elif action == 'inject':
            parent[key] = {draw(st.sampled_from(FN_NAMES)): draw(st.one_of(values, st.just(parent[key])))}
        elif action == 'rename' and isinstance(parent, dict):
            parent[draw(keys)] = parent.pop(key)
        elif action == 'reference':
            names = list((doc.get('resources') or {}) if isinstance(doc.get('resources'), dict) else [])
            ref = draw(st.sampled_from(names or ['nope']))
            parent[key] = draw(st.sampled_from(({'get_resource': ref}, {'get_attr': [ref, 'value']},
                                                {'depends_on': ref}, ref)))
    return doc


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang('no answer within %ds' % EXAMPLE_SECONDS)


def _check(template, environment=(), parameters=None, files=None):
    """The property: a StackersError or an answer, quickly; nothing else."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(EXAMPLE_SECONDS)
    try:
        try:
            result = validate.validate_template(template, environment=environment,
                                                parameters=parameters, files=files)
            assert isinstance(result, dict)
        except StackersError:
            pass
        answer = validate.inspect(template, environment=environment, parameters=parameters,
                                  files=files)
        assert isinstance(answer, dict) and isinstance(answer.get('valid'), bool)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _text(doc):
    return yaml.safe_dump(doc, default_flow_style=False, sort_keys=False, allow_unicode=True)


@FUZZ
@given(templates(), environments, st.dictionaries(st.sampled_from(NAMES), values, max_size=2))
def test_random_templates(template, envs, params):
    _check(_text(template), [_text(e) for e in envs], params or None,
           {'nested.yaml': _text(template)})


@FUZZ
@given(mutants(), st.dictionaries(st.sampled_from(NAMES), scalars, max_size=2))
def test_mutated_cases_and_corpus(template, params):
    _check(_text(template), (), params or None)


@FUZZ
@given(templates())
# Found by this fuzzer: a removed function used as a resource condition.
@example({'heat_template_version': '2018-03-02', 'conditions': {},
          'resources': {'x': {'type': 'OS::Heat::None', 'condition': {'Fn::GetAZs': {'b': ''}}}}})
def test_templates_as_data(template):
    # Passing the data itself (not text) is part of the contract too.
    _check(template)


@FUZZ
@given(st.one_of(st.text(max_size=200),
                 st.builds(lambda head, body: head + body,
                           st.sampled_from(['heat_template_version: 2016-10-14\n', '{', '---\n',
                                            'heat_template_version: [\n', '%YAML 1.1\n---\n',
                                            'a: &x [*x]\n', '!!python/object:os.system\n']),
                           st.text(max_size=120))))
# Found by this fuzzer: a YAML alias inside its own anchor.
@example('0: &0 [*0]')
def test_random_text(text):
    _check(text)


# -- hostile inputs: 10,000 per run (issue 16, item 6) -----------------------------------
# Every input ends in an answer or a typed error naming its file (and its line where the
# document has one); nothing else escapes.  Time and traced memory per input are reported
# (max and p99) and bounded.  FUZZ_HOSTILE_EXAMPLES sets the count: `make fuzz` runs 10,000,
# the default (CI's `make conformance`) fewer, to stay within its time budget.
HOSTILE_EXAMPLES = int(os.environ.get('FUZZ_HOSTILE_EXAMPLES', '1000'))
HOSTILE = settings(max_examples=HOSTILE_EXAMPLES, deadline=None, derandomize=CI,
                   database=None, phases=(Phase.generate,),
                   suppress_health_check=list(HealthCheck))
# per input; the slowest are yaql's bounded generators (524,288 items, ~1-2 s; more on a loaded machine)
HOSTILE_SECONDS = EXAMPLE_SECONDS
HOSTILE_MEGABYTES = 200
ATTACKS = [
    'a: &a ["x","x","x","x","x","x","x","x"]\n' + ''.join(
        '%s: &%s [%s]\n' % (c, c, ','.join(['*' + p] * 8)) for p, c in zip('abcdefg', 'bcdefgh')),
    'heat_template_version: 2018-08-31\noutputs: {o: {value: ' + '[' * 3000 + ']' * 3000 + '}}\n',
    'heat_template_version: 2018-08-31\nresources:\n  r:\n    type: OS::Heat::Value\n    properties:\n'
    '      value: {repeat: {template: <%a%><%b%>, for_each: {<%a%>: {get_param: l}, <%b%>: {get_param: l}}}}\n'
    'parameters:\n  l: {type: comma_delimited_list, default: "' + ','.join(['1'] * 900) + '"}\n',
    'heat_template_version: 2018-08-31\nresources:\n  r:\n    type: OS::Heat::Value\n    properties:\n'
    '      value: {yaql: {expression: "sequence().len()"}}\n',
    'heat_template_version: 2018-08-31\nresources:\n  r:\n    type: OS::Heat::Value\n    properties:\n'
    '      value: {get_file: ../../../../etc/passwd}\n',
    'heat_template_version: 2018-08-31\nresources:\n  r:\n    type: fuzz.yaml\n',
]


@st.composite
def hostile_inputs(draw):
    kind = draw(st.sampled_from(('mutant', 'attack', 'text', 'template')))
    if kind == 'mutant':
        text = _text(draw(mutants()))
    elif kind == 'attack':
        text = draw(st.sampled_from(ATTACKS))
        if draw(st.booleans()):
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.text(max_size=8)) + text[at:]
    elif kind == 'text':
        text = draw(st.text(max_size=200))
    else:
        text = _text(draw(templates()))
    return text, draw(st.booleans())


def _one_hostile(text, strict, seen):
    """Validate one input as the module does (a file name for errors); a
    typed error naming the file, else an answer; anything else fails."""
    outcome = 'answer'
    tracemalloc.start()         # traced around the engine only: what it allocates for this input
    started = time.monotonic()
    try:
        doc = loader.load_text(text, filename='fuzz.yaml')
        validate.validate_template(doc, strict=strict, files={'fuzz.yaml': text})
    except LocatedError as err:
        assert err.filename, (type(err).__name__, str(err), text[:300])
        outcome = 'located' if err.line else 'located, no line'
    except StackersError as err:
        outcome = 'typed: %s' % type(err).__name__
    finally:
        took = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    seen.append((took, peak, outcome, text[:130]))


def _percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def test_hostile_inputs_end_in_an_answer_or_a_located_error(capsys):
    seen = []

    @HOSTILE
    @given(hostile_inputs())
    def one(case):
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(EXAMPLE_SECONDS)
        try:
            _one_hostile(case[0], case[1], seen)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)

    started = time.monotonic()
    one()
    seconds = [s for s, _m, _o, _t in seen]
    peaks = [m / 2 ** 20 for _s, m, _o, _t in seen]
    slowest = max(seen)[3]
    outcomes = {}
    for _s, _m, outcome, _t in seen:
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    with capsys.disabled():
        sys.stdout.write('\nhostile inputs: %d in %.0fs; time per input max %.3fs p99 %.3fs; traced memory max %.1f MB '
                         'p99 %.1f MB; outcomes %s; slowest %r\n'
                         % (len(seen), time.monotonic() - started, max(seconds), _percentile(seconds, 0.99), max(peaks),
                            _percentile(peaks, 0.99), json.dumps(outcomes, sort_keys=True), slowest))
    assert len(seen) >= min(HOSTILE_EXAMPLES, 100)
    assert max(seconds) < HOSTILE_SECONDS and max(peaks) < HOSTILE_MEGABYTES
