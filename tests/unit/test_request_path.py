# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One request path: every request to the cloud goes through keystoneauth's session (openstacksdk's
proxies, or a keystoneauth Adapter's public get/post/put/delete), which gives each one its request
id in the log, the session's hooks, token refresh and the retries set on it.  So no module under
plugins/ makes a requests session or a request of its own (``requests.Session``, ``Request``,
``PreparedRequest``, ``prepare_request``), takes keystoneauth's auth headers to send them itself
(``get_auth_headers``), or writes an ``X-Auth-Token`` header.  Read with ``ast``, not grep: an
import alias or a name split over lines is seen; a comment or docstring naming them is not an
offence.  The checker is tried on planted offences first, so a check that finds nothing fails."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
PLUGINS = os.path.join(ROOT, 'plugins')
# What makes a request outside keystoneauth: requests' sessions and requests of one's own.
REQUESTS_NAMES = frozenset(('Session', 'session', 'Request', 'PreparedRequest'))
# Names whose use takes keystoneauth's place at the last step.
FORBIDDEN_ATTRIBUTES = frozenset(('get_auth_headers', 'prepare_request'))
AUTH_HEADER = 'x-auth-token'


def _dotted(node):
    """``a.b.c`` of a Name/Attribute chain, or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return '.'.join(reversed(parts))
    return None


def _docstrings(tree):
    """The string constants that are docstrings (they name things, they send nothing)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def offences(source, filename='<source>'):
    """(line, what) of each way ``source`` sends a request around keystoneauth."""
    tree = ast.parse(source, filename)
    aliases = {}        # local name -> the requests module path it stands for
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == 'requests' or alias.name.startswith('requests.'):
                    aliases[alias.asname or alias.name.split('.')[0]] = (
                        alias.name if alias.asname else 'requests')
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and (
                node.module == 'requests' or node.module.startswith('requests.')):
            for alias in node.names:
                if alias.name in REQUESTS_NAMES:
                    found.append((node.lineno, 'imports requests %s' % alias.name))
                else:
                    aliases[alias.asname or alias.name] = '%s.%s' % (node.module, alias.name)
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            dotted = _dotted(node)
            head = dotted.split('.', maxsplit=1)[0] if dotted else None
            if head in aliases and node.attr in REQUESTS_NAMES:
                found.append((node.lineno, 'uses %s' % dotted))
            if node.attr in FORBIDDEN_ATTRIBUTES:
                found.append((node.lineno, 'uses %s' % node.attr))
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_ATTRIBUTES:
            found.append((node.lineno, 'uses %s' % node.id))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                id(node) not in docstrings:
            text = node.value.lower()
            if AUTH_HEADER in text:
                found.append((node.lineno, 'writes the %s header' % node.value))
            elif text in FORBIDDEN_ATTRIBUTES:     # getattr(session, 'get_auth_headers')
                found.append((node.lineno, 'names %s' % node.value))
    return sorted(set(found))


def plugin_sources():
    for here, dirs, files in os.walk(PLUGINS):
        dirs[:] = sorted(d for d in dirs if d != '__pycache__')
        for name in sorted(files):
            if name.endswith('.py'):
                yield os.path.join(here, name)


PLANTED = [
    ('import requests\ns = requests.Session()\n', 'uses requests.Session'),
    ('import requests as rq\ns = rq.sessions.Session()\n', 'uses rq.sessions.Session'),
    ('from requests import Session\n', 'imports requests Session'),
    ('from requests.models import PreparedRequest\n', 'imports requests PreparedRequest'),
    ('import requests\nr = requests.Request("GET", "http://127.0.0.1/").prepare()\n',
     'uses requests.Request'),
    ('from requests import sessions\ns = sessions.session()\n', 'uses sessions.session'),
    ('def f(ks):\n    return dict(ks.get_auth_headers())\n', 'uses get_auth_headers'),
    ('def f(ks):\n    return getattr(ks, "get_auth_headers")()\n', 'names get_auth_headers'),
    ('def f(http, req):\n    return http.prepare_request(req)\n', 'uses prepare_request'),
    ('def f(token):\n    return {"X-Auth-Token": token}\n', 'writes the X-Auth-Token header'),
    ('def f(h, t):\n    h["x-auth-token"] = t\n', 'writes the x-auth-token header'),
]


@pytest.mark.parametrize('source,what', PLANTED)
def test_the_checker_finds_each_planted_offence(source, what):
    assert [w for _line, w in offences(source)] == [what]


def test_the_checker_lets_keystoneauths_own_path_and_prose_pass():
    source = (
        '"""Sent through keystoneauth: never requests.Session() nor get_auth_headers."""\n'
        'from requests.adapters import HTTPAdapter\n'
        'from requests import exceptions as _requests\n'
        'def f(proxy, path):\n'
        '    """No X-Auth-Token written here."""\n'
        '    return proxy.get(path, raise_exc=False)  # not requests.Session either\n')
    assert offences(source) == []


def test_no_module_under_plugins_sends_a_request_around_keystoneauth():
    sources = list(plugin_sources())
    assert len(sources) > 100      # the walk found the plugins
    found = []
    for path in sources:
        with open(path) as f:
            for line, what in offences(f.read(), path):
                found.append('%s:%d %s' % (os.path.relpath(path, ROOT), line, what))
    assert found == []
