# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""No function under plugins/ takes, and no call passes, more than five
positional arguments: past that, a reader cannot tell which value is which
(the engine once had calls of nine to eleven).  More go by keyword
(``*`` in the signature) or in a small dataclass."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast

import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugin_sources import findings, plugin_files
LIMIT = 5


def offenders(source, filename='<source>'):
    """(line, what) for every def with more than LIMIT positional
    parameters (self and cls not counted) and every call passing more than
    LIMIT positional arguments (``*args`` counts as one)."""
    out = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = [a.arg for a in node.args.posonlyargs + node.args.args]
            if names and names[0] in ('self', 'cls'):
                names = names[1:]
            if len(names) > LIMIT:
                out.append((node.lineno, 'def %s: %d positional parameters'
                            % (node.name, len(names))))
        elif isinstance(node, ast.Call) and len(node.args) > LIMIT:
            out.append((node.lineno, 'call of %s: %d positional arguments'
                        % (ast.unparse(node.func), len(node.args))))
    return out


def test_no_def_nor_call_under_plugins_has_more_than_five_positional_arguments():
    assert findings(offenders) == []


def test_the_scan_sees_every_module_file():
    assert len(list(plugin_files())) > 100


@pytest.mark.parametrize('source, expected', [
    ('def f(a, b, c, d, e, g): pass\n', [(1, 'def f: 6 positional parameters')]),
    ('async def f(a, b, c, d, e, g): pass\n', [(1, 'def f: 6 positional parameters')]),
    ('def f(a, b, c, d, e, /, g): pass\n', [(1, 'def f: 6 positional parameters')]),
    ('class C:\n    def m(self, a, b, c, d, e, f): pass\n',
     [(2, 'def m: 6 positional parameters')]),
    ('f(1, 2, 3, 4, 5, 6)\n', [(1, 'call of f: 6 positional arguments')]),
    ('o.m(1, 2, 3, 4, 5, *rest)\n', [(1, 'call of o.m: 6 positional arguments')]),
    ('def f(a, b, c, d, e, g=1): pass\n', [(1, 'def f: 6 positional parameters')]),
])
def test_offenders_are_caught(source, expected):
    assert offenders(source) == expected


@pytest.mark.parametrize('source', [
    'def f(a, b, c, d, e, *, g, h): pass\n',
    'class C:\n    def m(self, a, b, c, d, e): pass\n',
    'class C:\n    @classmethod\n    def m(cls, a, b, c, d, e): pass\n',
    'def f(a, b, c, d, e, *args, **kw): pass\n',
    'f(1, 2, 3, 4, 5, g=6, h=7)\n',
])
def test_five_positional_and_the_rest_by_keyword_pass(source):
    assert offenders(source) == []
