# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The shape of plugins/ read from its sources with ast: no import of the
collection inside a function (it would hide a cycle from import-linter, and
AnsiballZ ships only what is imported by name at the top), no import cycle
between modules counting every import, and no folder of module_utils holding
more Python files than a newcomer can scan."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os

import networkx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PLUGINS = os.path.join(ROOT, 'plugins')
PREFIX = 'ansible_collections.stackers.orchestration.'
MAX_FILES_PER_FOLDER = 30


def _module_name(path, root):
    rel = os.path.relpath(path, root)[:-3].replace(os.sep, '.')
    return rel[:-len('.__init__')] if rel.endswith('.__init__') else rel


def _sources(top):
    for folder, _dirs, files in os.walk(top):
        for name in sorted(files):
            if name.endswith('.py'):
                yield os.path.join(folder, name)


def _imports(path, modules, root):
    """(imported module, line, inside a function) for each import of the collection in ``path``."""
    tree = ast.parse(open(path).read(), path)
    mod = _module_name(path, root)
    package = mod if path.endswith('__init__.py') else mod.rsplit('.', 1)[0]
    in_function = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            in_function.update(id(sub) for sub in ast.walk(node) if sub is not node)
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split('.')
                base = '.'.join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            elif (node.module or '').startswith(PREFIX + 'plugins'):
                base = node.module[len(PREFIX):]
            else:
                continue
            targets = [base + '.' + a.name if base + '.' + a.name in modules else base for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name[len(PREFIX):] for a in node.names if a.name.startswith(PREFIX + 'plugins')]
        for target in targets:
            yield target, node.lineno, id(node) in in_function


def _graph(root=ROOT):
    paths = list(_sources(os.path.join(root, 'plugins')))
    modules = set(_module_name(p, root) for p in paths)
    graph = networkx.DiGraph()
    inner = []
    for path in paths:
        mod = _module_name(path, root)
        graph.add_node(mod)
        for target, line, in_function in _imports(path, modules, root):
            if target != mod:
                graph.add_edge(mod, target)
            if in_function:
                inner.append('%s:%d imports %s' % (os.path.relpath(path, root), line, target))
    return graph, inner


def test_no_module_of_the_collection_is_imported_inside_a_function():
    assert _graph()[1] == []


def test_no_import_cycle_between_modules_counting_every_import():
    graph = _graph()[0]
    # a package's __init__ importing its own modules is no cycle of two ideas
    graph.remove_edges_from([(a, b) for a, b in list(graph.edges) if b.startswith(a + '.')])
    assert list(networkx.simple_cycles(graph)) == []


def test_no_folder_of_module_utils_holds_more_than_a_newcomer_can_scan():
    crowded = {}
    for folder, _dirs, files in os.walk(os.path.join(PLUGINS, 'module_utils')):
        count = len([f for f in files if f.endswith('.py')])
        if count > MAX_FILES_PER_FOLDER:
            crowded[os.path.relpath(folder, ROOT)] = count
    assert crowded == {}


def test_the_checks_see_a_hidden_cycle(tmp_path):
    """The two checks above fail on a package whose modules import each other, one of them lazily."""
    pkg = tmp_path / 'plugins' / 'module_utils' / 'pkg'
    pkg.mkdir(parents=True)
    (pkg / '__init__.py').write_text('')
    (pkg / 'a.py').write_text('from . import b\n')
    (pkg / 'b.py').write_text('def f():\n    from .a import x\n    return x\n')
    graph, inner = _graph(str(tmp_path))
    assert inner == ['plugins/module_utils/pkg/b.py:2 imports plugins.module_utils.pkg.a']
    assert [sorted(c) for c in networkx.simple_cycles(graph)] == [
        ['plugins.module_utils.pkg.a', 'plugins.module_utils.pkg.b']]
