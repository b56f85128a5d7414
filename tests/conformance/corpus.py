# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The real-template corpus (shared/corpus/heat-templates) as differential cases.

Each template that MANIFEST.tsv marks as validated upstream becomes a case with
its paired environment and a files map holding every file it references (nested
templates, registry targets, get_file targets) keyed the way the template and
environment spell them, as a client would upload them.  Parameters without a
default get a value that satisfies their constraints, so validation with values
(what Heat does before a create) can pass."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re

import yaml

import oracle_runner
from cases_base import Case

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TEMPLATE_SUFFIXES = ('.yaml', '.yml', '.template')


def corpus_dir():
    path = os.environ.get('HEAT_CORPUS') or os.path.join(
        oracle_runner.shared_dir(), 'corpus', 'heat-templates')
    return path if os.path.isfile(os.path.join(path, 'MANIFEST.tsv')) else None


def manifest(base=None):
    base = base or corpus_dir()
    rows = []
    header = None
    with open(os.path.join(base, 'MANIFEST.tsv')) as handle:
        for line in handle:
            if line.startswith('#') or not line.strip():
                continue
            cells = line.rstrip('\n').split('\t')
            if header is None:
                header = cells
                continue
            rows.append(dict(zip(header, cells + [''] * (len(header) - len(cells)))))
    return rows


def _read(path):
    with open(path) as handle:
        return handle.read()


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def references(data):
    """(kind, name) of every file a template refers to: nested template types
    (also inside ResourceGroup/AutoScalingGroup definitions) and get_file."""
    refs = []
    for node in _walk(data):
        rtype = node.get('type')
        if isinstance(rtype, str) and rtype.endswith(TEMPLATE_SUFFIXES):
            refs.append(('template', rtype))
        target = node.get('get_file')
        if len(node) == 1 and isinstance(target, str):
            refs.append(('file', target))
    return refs


def registry_targets(env):
    out = []
    registry = (env or {}).get('resource_registry') or {}
    for node in _walk(registry):
        for value in node.values():
            if isinstance(value, str) and value.endswith(TEMPLATE_SUFFIXES):
                out.append(value)
    return out


def collect_files(base, rel_path, data, env_rel=None, env_data=None):
    """The files map for a template (and its environment), and the references
    the corpus cannot satisfy as (name, referring file)."""
    files, missing = {}, []
    pending = [(rel_path, data)]
    if env_data:
        for target in registry_targets(env_data):
            pending.append(_ref(base, env_rel, 'template', target, files, missing))
    seen = set()
    while pending:
        item = pending.pop()
        if item is None:
            continue
        rel, doc = item
        if rel in seen:
            continue
        seen.add(rel)
        for kind, name in references(doc):
            pending.append(_ref(base, rel, kind, name, files, missing))
    return files, missing


def _ref(base, referrer, kind, name, files, missing):
    path = os.path.normpath(os.path.join(os.path.dirname(referrer), name))
    full = os.path.join(base, path)
    if path.startswith('..') or not os.path.isfile(full):
        missing.append((name, referrer))
        return None
    text = _read(full)
    files.setdefault(name, text)
    if kind == 'template':
        return path, yaml.safe_load(text)
    return None


# Candidates for parameters without a default, tried in order against the
# declared constraints.
_CANDIDATES = {
    'string': ['abcdefgh', 'Abcdefg1', 'Passw0rd!', 'admin', 'a1', '10.0.0.1', '10.0.0.0/24', 'x'],
    'number': ['1', '10', '100', '0'],
    'comma_delimited_list': ['a,b'],
    'json': ['{}'],
    'boolean': ['true'],
}
_CUSTOM = {'ip_addr': '10.0.0.1', 'net_cidr': '10.0.0.0/24', 'mac_addr': '00:11:22:33:44:55',
           'ip_or_cidr': '10.0.0.1', 'iso_8601': '2020-01-01T00:00:00Z',
           'cron_expression': '* * * * *', 'dns_name': 'host.example.com',
           'dns_domain': 'example.com.', 'json_string': '{}',
           'expiration': '2999-01-01T00:00:00Z'}


# Parameters whose value ends up in a typed property, by name.
_BY_NAME = [('cidr', '10.0.0.0/24'), ('pool_start', '10.0.0.10'), ('pool_end', '10.0.0.20'),
            ('gateway', '10.0.0.1'), ('lengths', '8,16'), ('index', '1'),
            ('email', 'admin@example.com')]


def _satisfies(value, constraints):
    for con in constraints or ():
        if not isinstance(con, dict):
            continue
        if 'allowed_values' in con and value not in [str(v) for v in con['allowed_values']]:
            return False
        if 'allowed_pattern' in con:
            match = re.match(str(con['allowed_pattern']), value)
            if not match or match.end() != len(value):
                return False
        if 'length' in con:
            lo, hi = con['length'].get('min'), con['length'].get('max')
            if (lo is not None and len(value) < lo) or (hi is not None and len(value) > hi):
                return False
        if 'range' in con:
            lo, hi = con['range'].get('min'), con['range'].get('max')
            if (lo is not None and float(value) < lo) or (hi is not None and float(value) > hi):
                return False
    return True


def parameter_values(data):
    """Values for the parameters that have no default."""
    values = {}
    for name, decl in ((data or {}).get('parameters') or {}).items():
        if not isinstance(decl, dict) or 'default' in decl:
            continue
        constraints = decl.get('constraints') or []
        candidates = []
        for con in constraints:
            if isinstance(con, dict) and con.get('custom_constraint') in _CUSTOM:
                candidates.append(_CUSTOM[con['custom_constraint']])
            if isinstance(con, dict) and 'allowed_values' in con and con['allowed_values']:
                candidates.append(str(con['allowed_values'][0]))
        candidates += [value for key, value in _BY_NAME if key in name]
        candidates += _CANDIDATES.get(decl.get('type'), ['x'])
        values[name] = next((c for c in candidates if _satisfies(c, constraints)), candidates[0])
    return values


STUB = '# placeholder: %s is not in the corpus\n'


def corpus_cases(base=None):
    """One Case per template validated upstream (in MANIFEST order), and the
    list of (case id, missing reference, referring file).  A template with
    references the corpus cannot satisfy also gets a "stubbed" case whose
    files map holds a placeholder text for each of them."""
    base = base or corpus_dir()
    out, missing_all = [], []
    for row in manifest(base):
        if row['kind'] != 'template' or row['upstream_ci_validated'] != 'yes':
            continue
        rel = row['path']
        text = _read(os.path.join(base, rel))
        data = yaml.safe_load(text)
        envs, env_data = [], None
        if row.get('paired_env'):
            env_text = _read(os.path.join(base, row['paired_env']))
            env_data = yaml.safe_load(env_text)
            envs.append(env_text)
        files, missing = collect_files(base, rel, data, row.get('paired_env'), env_data)
        cid = 'corpus/%s' % rel
        out.append(Case(cid, text, 'corpus', params=parameter_values(data), environments=envs,
                        files=files, note=row))
        missing_all.extend((cid, name, referrer) for name, referrer in missing)
        if missing:
            stubbed = dict(files)
            for name, _referrer in missing:
                stubbed.setdefault(name, STUB % name)
            out.append(Case('corpus-stubbed/%s' % rel, text, 'corpus-stubbed',
                            params=parameter_values(data), environments=envs, files=stubbed,
                            note=row))
    return out, missing_all


def _declaring(env):
    """A minimal template declaring the parameters an environment sets."""
    kinds = ((bool, 'boolean'), (int, 'number'), (float, 'number'), (list, 'comma_delimited_list'),
             (dict, 'json'))
    params = {}
    for name, value in sorted(((env or {}).get('parameters') or {}).items()):
        ptype = next((kind for cls, kind in kinds if isinstance(value, cls)), 'string')
        params[name] = {'type': ptype}
    data = {'heat_template_version': '2016-10-14'}
    if params:
        data['parameters'] = params
    return yaml.safe_dump(data, sort_keys=False)


def environment_cases(base=None):
    """One Case per environment file of the corpus: a minimal template with
    that environment and the templates its registry maps to."""
    base = base or corpus_dir()
    out = []
    for row in manifest(base):
        if row['kind'] != 'environment':
            continue
        text = _read(os.path.join(base, row['path']))
        env = yaml.safe_load(text)
        files, _missing = collect_files(base, row['path'], {}, row['path'], env)
        out.append(Case('corpus-env/%s' % row['path'], _declaring(env), 'corpus-env',
                        environments=[text],
                        files=files, note=row))
    return out
