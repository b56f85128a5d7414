# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run a case through our engine and compare the answer with Heat's.

Shared by the pytest suites and by report.py (``make conformance-report``)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import fnmatch
import inspect as pyinspect
import json
import re
import signal

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import validation
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError

CASE_SECONDS = 20

# Invalid in both, but the messages do not name the same things, on purpose.
# case id pattern (fnmatch) -> why the difference is fine.
KNOWN_MESSAGE_DIFFERENCES = {
    'deps/*/random-cyclic-*':
        'Heat prints every resource left in its graph when it finds a cycle '
        '(bystanders that only depend on the cycle included); ours names the cycle itself',
    'cond/*/def-not-*':
        'Heat reports a bad condition name where a resource uses the condition; '
        'ours where the condition is defined',
    'corpus/hot/Windows/*':
        'several get_file targets are missing: each side reports a different one first',
    'corpus/hot/software-config/*':
        'several get_file targets are missing: each side reports a different one first',
}


# Verdicts that differ from Heat's on purpose (where Heat is reached through
# its client, which refuses the input before sending it, or where the engine
# deliberately supports less): case id pattern (fnmatch) -> why.
KNOWN_VERDICT_DIFFERENCES = {
    'fn/*/get_file/edge-missing/out':
        'a literal get_file of a file that does not exist: the heat client reads every '
        'get_file target before sending the template (heatclient template_utils '
        'get_file_contents -> "Could not fetch contents for ..."), so Heat never sees it; '
        'the engine (Heat without its client) would accept it while the output is unused',
    'corpus/hot/software-config/example-templates/example-pristine-atomic-tool.yaml':
        'its nested template (boot-config/templates/install_container_agent.yaml) reads '
        'fragments the corpus does not carry: the heat client reads the get_file targets of '
        'nested templates too before sending, so Heat never sees this; Heat\'s engine only '
        'misses it because it validates nested stacks without resolving their files. The '
        'variant with placeholder files validates in both',
    'corpus/hot/software-config/example-templates/cirros-example/cirros-hello-world.yaml':
        'a deployment with signal_transport HEAT_SIGNAL: with no Heat API here, transports '
        'that need one are refused at validation naming TEMP_URL_SIGNAL (docs/architecture.md, '
        'software deployments)',
    'corpus/hot/software-config/example-templates/example-sw-component-template.yaml':
        'a deployment with signal_transport HEAT_SIGNAL: refused naming TEMP_URL_SIGNAL',
    'corpus-stubbed/hot/software-config/example-templates/example-pristine-atomic-tool.yaml':
        'a deployment of a config whose group (atomic) has no hook in heat-agents 13: refused at '
        'validation (hot/type_checks.py CONFIG_GROUPS); Heat accepts any group and leaves it to '
        'the image',
    'struct/text/cfn-version':
        'CloudFormation-format templates (AWSTemplateFormatVersion, '
        'HeatTemplateFormatVersion) are refused as not supported: the collection runs HOT '
        'templates only',
}


def engine():
    """Our validate entry points (hot/validate.py's, with the engine's
    registry and graph bound in)."""
    return validation


class CaseTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise CaseTimeout('no answer within %ds' % CASE_SECONDS)


_MEMO = {}


def run_ours(case, seconds=CASE_SECONDS):
    """Our inspect() on a case: the oracle's shape.  A StackersError counts as
    the verdict "invalid"; any other exception propagates (it is a bug).
    Answers are kept for the session (several tests look at each)."""
    if case.id not in _MEMO:
        _MEMO[case.id] = _run_ours(case, seconds)
    return _MEMO[case.id]


def _run_ours(case, seconds):
    """Like the oracle: the verdict, edges and conditions come from a stack
    that knows no live state; with live state (case.fake) outputs and
    properties are resolved on a second one that has it."""
    validate = engine()
    kwargs = {'environment': case.environment_texts, 'parameters': case.params or None,
              'files': case.files or None}
    out = _inspect(validate, case, kwargs, seconds)
    if case.fake and 'resource_data' in pyinspect.signature(validate.inspect).parameters:
        live = _inspect(validate, case, dict(kwargs, resource_data=case.fake), seconds)
        for key in ('outputs', 'resource_properties'):
            out[key] = live.get(key, {})
    return json.loads(json.dumps(out, sort_keys=True, default=repr))


def _inspect(validate, case, kwargs, seconds):
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        try:
            return validate.inspect(case.template_text, **kwargs)
        except StackersError as exc:
            return {'valid': False, 'error': {'type': type(exc).__name__, 'message': str(exc)}}
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def message(answer):
    err = answer.get('error')
    if isinstance(err, dict):
        return str(err.get('message', ''))
    return '' if err is None else str(err)


def _norm_value(entry):
    """An output or a resource's properties, reduced to what must agree:
    values exactly; errors and unresolved references by kind only."""
    if isinstance(entry, dict) and set(entry) == {'error'} and isinstance(entry['error'], dict) \
            and 'message' in entry['error']:
        return ('error',)
    if isinstance(entry, dict) and set(entry) == {'unresolved'}:
        return ('unresolved', sorted(entry['unresolved']))
    if isinstance(entry, dict) and set(entry) == {'value'}:
        return ('value', entry['value'])
    return ('data', entry)


def _edges(answer):
    return {name: (res.get('type'), sorted(res.get('requires') or ()))
            for name, res in (answer.get('resources') or {}).items()}


def compare(case, heat, ours, values=True):
    """Differences between Heat's and our answers, as readable lines."""
    diffs = []
    if bool(heat.get('valid')) != bool(ours.get('valid')):
        diffs.append('verdict: heat %s, ours %s\n  heat: %s\n  ours: %s' % (
            'valid' if heat.get('valid') else 'invalid',
            'valid' if ours.get('valid') else 'invalid', message(heat), message(ours)))
        return diffs
    if not heat.get('valid'):
        return diffs
    if _edges(heat) != _edges(ours):
        diffs.append('resources/requires: heat %s, ours %s' % (_edges(heat), _edges(ours)))
    if not (values and case.compare_values):
        return diffs
    if (heat.get('conditions') or {}) != (ours.get('conditions') or {}):
        diffs.append('conditions: heat %s, ours %s' % (heat.get('conditions'), ours.get('conditions')))
    for section in ('outputs', 'resource_properties'):
        h, o = heat.get(section) or {}, ours.get(section) or {}
        for name in sorted(set(h) | set(o)):
            hv = _norm_value(h[name]) if name in h else ('missing',)
            ov = _norm_value(o[name]) if name in o else ('missing',)
            if section == 'resource_properties':
                # Heat shows a definition without properties as None: the
                # same as no properties at all.
                hv, ov = (hv[1] if hv[0] == 'data' else hv), (ov[1] if ov[0] == 'data' else ov)
                hv, ov = ({} if hv is None else hv), ({} if ov is None else ov)
            if hv != ov:
                diffs.append('%s.%s: heat %r, ours %r' % (section, name, hv, ov))
    if 'parameters' in ours and 'parameters' in heat:
        for name in sorted(set(heat['parameters']) & set(ours['parameters'])):
            if heat['parameters'][name] != ours['parameters'][name]:
                diffs.append('parameters.%s: heat %r, ours %r' % (
                    name, heat['parameters'][name], ours['parameters'][name]))
    return diffs


_QUOTED = re.compile(r'''"([^"\s]{1,80})"|'([^'\s]{1,80})'|\(([^()\s]{1,80})\)''')


def _names_in(case):
    """Names a template defines: what an error message should cite."""
    import yaml
    try:
        data = yaml.safe_load(case.template_text)
    except yaml.YAMLError:
        return set()
    names = set()
    if isinstance(data, dict):
        for section in ('parameters', 'resources', 'outputs', 'conditions'):
            if isinstance(data.get(section), dict):
                names.update(str(k) for k in data[section])
    return names


def cited_names(case, heat_message):
    """Names (resources, parameters, outputs, conditions) that Heat's message
    quotes or puts in a dotted path: ours must mention them too."""
    names = _names_in(case)
    cited = set()
    for match in _QUOTED.finditer(heat_message):
        token = next(g for g in match.groups() if g)
        if token in names:
            cited.add(token)
    for match in re.finditer(r'(?:resources|outputs|parameters|conditions)\.([\w:-]+)', heat_message):
        if match.group(1) in names:
            cited.add(match.group(1))
    return cited


def known_message_difference(case_id):
    for pattern, why in KNOWN_MESSAGE_DIFFERENCES.items():
        if fnmatch.fnmatchcase(case_id, pattern):
            return why
    return None


def known_verdict_difference(case_id):
    for pattern, why in KNOWN_VERDICT_DIFFERENCES.items():
        if fnmatch.fnmatchcase(case_id, pattern):
            return why
    return None


def message_gaps(case, heat, ours):
    """Names Heat's error cites that ours does not."""
    ours_msg = message(ours)
    return sorted(name for name in cited_names(case, message(heat))
                  if not re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(name), ours_msg))
