# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Ask real Heat about many cases at once, with a cache.

The oracle is the project's own ``heat_offline.py`` (Heat 27's engine from the
.heat-venv package); ``HEAT_ORACLE_SCRIPT`` names another one (the shared
``heat_oracle.py`` that test_oracle_fidelity.py compares ours with).

Starting Heat costs seconds and each template then costs milliseconds, so every
test session sends all its cases in one batch.  Answers are cached in
``tests/conformance/.oracle-cache/`` keyed by a hash of the request and of the
oracle's code, so a changed oracle or case is asked again and nothing else is.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib
import json
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DRIVER = os.path.join(HERE, 'oracle_driver.py')
OWN_ORACLE = os.path.join(HERE, 'heat_offline.py')
CACHE_DIR = os.path.join(HERE, '.oracle-cache')


class OracleUnavailable(Exception):
    pass


def shared_dir():
    """The team's shared directory (corpus, reference oracle), beside the
    clone unless STACKERS_SHARED_DIR points elsewhere (a path that does not
    exist shows what a clone without it does)."""
    return os.environ.get('STACKERS_SHARED_DIR') or os.path.join(
        os.path.dirname(ROOT), 'shared')


def shared_oracle_script():
    """The shared reference oracle, or None when this clone has none."""
    path = os.path.join(shared_dir(), 'tools', 'heat-oracle', 'heat_oracle.py')
    return path if os.path.isfile(path) else None


def oracle_script():
    """The oracle asked by default: HEAT_ORACLE_SCRIPT, else ours (None)."""
    return os.environ.get('HEAT_ORACLE_SCRIPT') or None


def oracle_python():
    for path in (os.environ.get('HEAT_ORACLE_PYTHON'),
                 os.path.join(ROOT, '.heat-venv', 'bin', 'python')):
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def _cache_prefix(script, cache='answers'):
    # One cache per oracle and per set of cases asked together, so asking
    # two oracles in a session (the fidelity test), or the type rules beside
    # the generated cases, does not throw either's answers away.
    if script is None:
        return '%s-own-' % cache
    return '%s-%s-' % (cache, hashlib.sha256(os.path.abspath(script).encode()).hexdigest()[:8])


def _code_hash(script):
    digest = hashlib.sha256()
    for path in (script or OWN_ORACLE, DRIVER):
        with open(path, 'rb') as handle:
            digest.update(handle.read())
    return digest.hexdigest()[:16]


def request_key(request):
    blob = json.dumps(request, sort_keys=True, separators=(',', ':'))
    return hashlib.sha256(blob.encode('utf-8')).hexdigest()


def _load_cache(path):
    try:
        with open(path) as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return {}


def _save_cache(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix='.tmp')
    with os.fdopen(fd, 'w') as handle:
        json.dump(data, handle, sort_keys=True)
    os.replace(tmp, path)


def _run_batch(python, script, requests, timeout):
    lines = ''.join(json.dumps(dict(req, id=str(i)), sort_keys=True) + '\n'
                    for i, req in enumerate(requests))
    env = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'), 'PYTHONHASHSEED': '0',
           'LANG': 'C.UTF-8', 'HOME': os.environ.get('HOME', '/tmp')}
    try:
        proc = subprocess.run([python, '-W', 'ignore', DRIVER] + ([script] if script else []),
                              input=lines,
                              capture_output=True, text=True, timeout=timeout, env=env,
                              check=False)
    except subprocess.TimeoutExpired:
        raise OracleUnavailable('the oracle did not answer %d requests within %ds'
                                % (len(requests), timeout))
    answers = {}
    for line in proc.stdout.splitlines():
        if line.startswith('{'):
            out = json.loads(line)
            answers[out.pop('id')] = out
    if len(answers) != len(requests):
        raise OracleUnavailable('the oracle answered %d of %d requests (rc %s): %s'
                                % (len(answers), len(requests), proc.returncode,
                                   proc.stderr[-2000:]))
    return [answers[str(i)] for i in range(len(requests))]


_DEFAULT = object()


def ask(requests, script=_DEFAULT, cache='answers'):
    """Answers of Heat for ``requests`` (list of request dicts), in order.

    ``script``: the oracle module to ask (None: ours; default: oracle_script()).
    ``cache``: the name of the set of cases, each kept in its own file.
    Raises OracleUnavailable when an answer is not cached and the oracle cannot
    be run here (no oracle venv, or a named oracle that is not there)."""
    if script is _DEFAULT:
        script = oracle_script()
    if script is not None and not os.path.isfile(script):
        raise OracleUnavailable('oracle %s not found (HEAT_ORACLE_SCRIPT)' % script)
    prefix = _cache_prefix(script, cache)
    cache_path = os.path.join(CACHE_DIR, '%s%s.json' % (prefix, _code_hash(script)))
    cache = _load_cache(cache_path)
    keys = [request_key(req) for req in requests]
    missing = [i for i, key in enumerate(keys) if key not in cache]
    if missing:
        python = oracle_python()
        if python is None:
            raise OracleUnavailable('no oracle Python: run `make heat-venv` '
                                    'or set HEAT_ORACLE_PYTHON')
        todo = [requests[i] for i in missing]
        answers = _run_batch(python, script, todo, timeout=60 + len(todo) // 10)
        for i, answer in zip(missing, answers):
            cache[keys[i]] = answer
        # Keep what this session asked for: answers to cases that changed go.
        wanted = set(keys)
        _save_cache(cache_path, dict((k, v) for k, v in cache.items() if k in wanted))
        for name in os.listdir(CACHE_DIR):
            if name.startswith(prefix) and name != os.path.basename(cache_path):
                os.remove(os.path.join(CACHE_DIR, name))  # from an older oracle
    return [cache[key] for key in keys]
