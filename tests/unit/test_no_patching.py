# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection never patches another package at run time.

It shares the Ansible process (and the execution environment) with every
other collection: assigning into openstacksdk's, keystoneauth's, requests'
or Ansible's modules or classes would change them for everyone.  This scans
every file under plugins/ for an assignment, deletion or ``setattr`` whose
target is reached from a name imported from another package.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import ast
import re

import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugin_sources import findings, plugin_files
OWN = 'ansible_collections.stackers.orchestration'
# Modules whose state is the process's own business, not another package's
# internals: the interpreter's import table is one (writing into sys.modules
# replaces a package for everyone).
ALWAYS_FOREIGN = frozenset(['sys', 'builtins'])


def _foreign_names(tree):
    """Names a file binds to another package's module, class or function."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not alias.name.startswith(OWN):
                    names.add((alias.asname or alias.name).split('.')[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level or (node.module or '').startswith(OWN) or node.module == '__future__':
                continue
            for alias in node.names:
                names.add(alias.asname or alias.name)
    return names


def _root(node):
    """The name an attribute or subscript chain starts from (``a`` of
    ``a.b[c].d``), or None."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def patches(source, filename='<source>'):
    """(line, text) of each write into another package found in ``source``."""
    tree = ast.parse(source, filename)
    foreign = _foreign_names(tree) | ALWAYS_FOREIGN
    found = []

    def check(target, node):
        if isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                check(elt, node)
            return
        if isinstance(target, (ast.Attribute, ast.Subscript)) and _root(target) in foreign:
            found.append((node.lineno, ast.unparse(target)))

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                check(target, node)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            check(node.target, node)
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                check(target, node)
        elif isinstance(node, ast.Call):
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else (
                fn.attr if isinstance(fn, ast.Attribute) else None)
            if name in ('setattr', 'delattr') and node.args and _root(node.args[0]) in foreign:
                found.append((node.lineno, ast.unparse(node)))
            # dict-style writes: vars(mod)[...] = / mod.__dict__.update(...)
            if (isinstance(fn, ast.Attribute) and fn.attr in ('update', 'setdefault', '__setitem__')
                    and isinstance(fn.value, ast.Attribute) and fn.value.attr == '__dict__'
                    and _root(fn.value) in foreign):
                found.append((node.lineno, ast.unparse(node)))
    return found


def private_uses(source, filename='<source>'):
    """(line, text) of each private name of another package ``source`` imports or reads."""
    tree = ast.parse(source, filename)
    foreign = _foreign_names(tree)
    found = []

    def private(dotted):
        return any(part.startswith('_') and not part.startswith('__') for part in dotted.split('.'))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names
                         if not a.name.startswith(OWN) and private(a.name))
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module != '__future__' \
                and not (node.module or '').startswith(OWN):
            found.extend((node.lineno, '%s.%s' % (node.module, a.name)) for a in node.names
                         if private(node.module or '') or private(a.name))
        elif isinstance(node, ast.Attribute) and private(node.attr) and _root(node) in foreign:
            found.append((node.lineno, ast.unparse(node)))
    return found


# The one write allowed: the users' resource plugins are imported, as Heat
# imports them, into packages of the collection's own that it adds to the
# import table under new names (never replacing a module) so that their
# relative imports work.
ALLOWED = ('plugins/module_utils/resources/plugin_loader.py:%d: sys.modules[name]',)


def _allowed(finding):
    return any(re.match(re.escape(pattern).replace('%d', '[0-9]+') + '$', finding) for pattern in ALLOWED)


def test_no_file_under_plugins_writes_into_another_package():
    offenders = [f for f in findings(patches) if not _allowed(f)]
    assert not offenders, 'plugins/ patches other packages:\n' + '\n'.join(offenders)


def test_no_file_under_plugins_uses_another_package_s_private_names():
    offenders = findings(private_uses)
    assert not offenders, 'plugins/ reaches into private names:\n' + '\n'.join(offenders)


@pytest.mark.parametrize('source', [
    'from keystoneauth1 import _utils\n',
    'from openstack import _log as log\n',
    'import openstack._log\n',
    'from openstack.resource import _BaseComponent\n',
    'from openstack import utils\nutils._private(1)\n',
])
def test_the_private_scan_catches(source):
    assert private_uses(source)


@pytest.mark.parametrize('source', [
    'from . import _common\n',
    'from ._record_only import RecordOnly\n',
    'from openstack import utils\nutils.supports_microversion(1, 2)\n',
    'x = object()\nx._private = 1\n',
])
def test_the_private_scan_leaves_own_names_alone(source):
    assert not private_uses(source)


def test_the_scan_sees_plugins():
    assert len(list(plugin_files())) > 50


@pytest.mark.parametrize('source', [
    'from openstack import resource\nresource.Resource._consume_attrs = None\n',
    'import requests.utils\nrequests.utils.get_environ_proxies = len\n',
    'import requests.utils as ru\nru.x = 1\n',
    'from keystoneauth1 import _utils as u\nu.parse_isotime = str\n',
    'from openstack.resource import Resource\nResource.x += 1\n',
    'import openstack\nsetattr(openstack.resource.Resource, "f", 1)\n',
    'import openstack\ndelattr(openstack.resource, "f")\n',
    'import openstack\ndel openstack.resource.Resource.f\n',
    'import sys\nsys.modules["openstack"] = None\n',
    'import requests\nrequests.__dict__.update(x=1)\n',
    'import openstack\na, openstack.x = 1, 2\n',
])
def test_the_scan_catches_each_kind_of_patch(source):
    assert patches(source)


@pytest.mark.parametrize('source', [
    'from . import sdk\nsdk.RETRIES = 2\n',
    'from ansible_collections.stackers.orchestration.plugins.module_utils import errors\nerrors.X = 1\n',
    'import requests\ns = requests.Session()\ns.trust_env = False\n',
    'import openstack\nconn = openstack.connect()\nconn.x = 1\n',
    'x = {}\nx["a"] = 1\n',
])
def test_the_scan_leaves_own_objects_alone(source):
    assert not patches(source)
