# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tests that can fail, in the right room.

- No unit test changes ``sys.path``: what a unit test imports is importable by its name from the
  repository root (pytest.ini's ``pythonpath``: ``localcloud.harness``, ``bench.stack``) or as the
  collection (the root conftest.py, the one place that puts ``.build`` on the path).
- No test anywhere under tests/ turns an ImportError of the collection into a skip (or anything
  else): a collection that cannot be imported is a failure, never "not available yet".

Both scans read the source with ``ast``: a script in a string, run by a test in a subprocess, is
not the test's own code.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import ast
import os

import pytest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNIT = os.path.join(TESTS, 'unit')
OWN = 'ansible_collections.stackers'
IMPORT_ERRORS = ('ImportError', 'ModuleNotFoundError', 'Exception', 'BaseException')


def _sources(top):
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith('.') and d != '__pycache__')
        for name in sorted(files):
            if name.endswith('.py'):
                path = os.path.join(folder, name)
                with open(path) as handle:
                    yield os.path.relpath(path, os.path.dirname(TESTS)), handle.read()


def _dotted(node):
    """``a.b.c`` of a Name/Attribute chain, or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return '.'.join(reversed(parts))


def path_changes(source, filename='<source>'):
    """(line, text) of every change of ``sys.path`` in ``source``: a call of one of its
    methods, an assignment to it or into it, an augmented assignment."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and _dotted(node.func.value) == 'sys.path':
            found.append((node.lineno, ast.unparse(node)))
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            inner = target.value if isinstance(target, ast.Subscript) else target
            if _dotted(inner) == 'sys.path':
                found.append((node.lineno, ast.unparse(target)))
    return found


def _imports_own(nodes):
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.ImportFrom) and not sub.level and (sub.module or '').startswith(OWN):
                return True
            if isinstance(sub, ast.Import) and any(a.name.startswith(OWN) for a in sub.names):
                return True
            if isinstance(sub, ast.Call) and isinstance(sub.func, (ast.Name, ast.Attribute)) \
                    and (_dotted(sub.func) or '').rsplit('.', maxsplit=1)[-1] in ('import_module', '__import__') \
                    and sub.args and isinstance(sub.args[0], ast.Constant) \
                    and str(sub.args[0].value).startswith(OWN):
                return True
    return False


def _catches_import_errors(handler):
    if handler.type is None:
        return True
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any((_dotted(kind) or '').rsplit('.', maxsplit=1)[-1] in IMPORT_ERRORS for kind in kinds)


def guarded_own_imports(source, filename='<source>'):
    """(line, text) of every place ``source`` survives an ImportError of the collection: a
    ``try`` importing it with a handler that catches ImportError (or wider), and
    ``pytest.importorskip`` of one of its modules."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Try) and _imports_own(node.body) \
                and any(_catches_import_errors(h) for h in node.handlers):
            found.append((node.lineno, ast.unparse(node).splitlines()[1].strip()))
        elif isinstance(node, ast.Call) and (_dotted(node.func) or '').endswith('importorskip') \
                and node.args and isinstance(node.args[0], ast.Constant) \
                and str(node.args[0].value).startswith(OWN):
            found.append((node.lineno, ast.unparse(node)))
    return found


def _offenders(scan, top):
    return ['%s:%d: %s' % (path, line, text)
            for path, source in _sources(top) for line, text in scan(source, path)]


def test_no_unit_test_changes_sys_path():
    offenders = _offenders(path_changes, UNIT)
    assert not offenders, 'tests/unit changes sys.path (import by name instead):\n' + '\n'.join(offenders)


def test_no_test_survives_an_import_error_of_the_collection():
    offenders = _offenders(guarded_own_imports, TESTS)
    assert not offenders, 'an ImportError of the collection must fail the test:\n' + '\n'.join(offenders)


def test_the_scans_see_the_tests():
    names = [path for path, _source in _sources(TESTS)]
    assert len([n for n in names if n.startswith('tests/unit/')]) > 100
    assert 'tests/conformance/differential.py' in names and 'tests/fuzz/test_fuzz.py' in names


@pytest.mark.parametrize('source', [
    'import sys\nsys.path.insert(0, "x")\n',
    'import sys\nsys.path.append("x")\n',
    'import sys\nsys.path.extend(["x"])\n',
    'import sys\nsys.path[:0] = ["x"]\n',
    'import sys\nsys.path = ["x"] + sys.path\n',
    'import sys\nsys.path += ["x"]\n',
    'import sys\ndef f():\n    sys.path.insert(1, "x")\n',
])
def test_the_path_scan_catches(source):
    assert path_changes(source)


@pytest.mark.parametrize('source', [
    'import sys\nprint(sys.path[0])\n',
    'import sys\nif "x" in sys.path:\n    pass\n',
    'SCRIPT = "import sys\\nsys.path.insert(0, sys.argv[1])\\n"\n',
    'import os\nos.path.join("a", "b")\n',
])
def test_the_path_scan_leaves_reads_and_strings_alone(source):
    assert not path_changes(source)


@pytest.mark.parametrize('source', [
    'try:\n    from ansible_collections.stackers.orchestration.plugins import x\n'
    'except ImportError:\n    x = None\n',
    'try:\n    import ansible_collections.stackers.orchestration.plugins.x as x\n'
    'except (ValueError, ModuleNotFoundError):\n    pytest.skip("not yet")\n',
    'def engine():\n    try:\n        from ansible_collections.stackers.orchestration import y\n'
    '    except Exception:\n        return None\n    return y\n',
    'try:\n    importlib.import_module("ansible_collections.stackers.orchestration.z")\n'
    'except:\n    pass\n',
    'x = pytest.importorskip("ansible_collections.stackers.orchestration.plugins.x")\n',
])
def test_the_import_scan_catches(source):
    assert guarded_own_imports(source)


@pytest.mark.parametrize('source', [
    'from ansible_collections.stackers.orchestration.plugins import x\n',
    'try:\n    from ansible.module_utils.testing import patch_module_args\n'
    'except ImportError:\n    patch_module_args = None\n',
    'try:\n    from ansible_collections.stackers.orchestration.plugins import x\n'
    'except KeyError:\n    pass\n',
    'yaml = pytest.importorskip("yaml")\n',
])
def test_the_import_scan_leaves_other_imports_alone(source):
    assert not guarded_own_imports(source)
