# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The README stays a true front door.

Its table of entry points has one row per module (plugins/modules/*.py), inventory plugin
(plugins/inventory/*.py), role (roles/*/) and playbook (playbooks/*.yml), and no row for
anything gone; each row links to a file that exists. galaxy.yml's version is not older than any
version_added under plugins/ or in a role's argument specs. Every relative link of the README,
of the pages under docs/ (docs/architecture.md has its own test) and of bench/README.md resolves,
and the README links to every page under docs/.  The checkers take text and a root, so the
tests at the end can plant each failure."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re

import pytest
import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
README = os.path.join(ROOT, 'README.md')
KINDS = ('module', 'inventory', 'role', 'playbook')
# docs/architecture.md is checked by tests/unit/test_architecture_doc.py, with rules of its own.
OWN_CHECKER = ('docs/architecture.md',)

FENCE = re.compile(r'^(```|~~~).*?^\1[ \t]*$', re.M | re.S)
INLINE_LINK = re.compile(r'!?\[[^\]\n]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
REFERENCE_LINK = re.compile(r'^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s+.*)?$', re.M)
SCHEME = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')
HEADING = re.compile(r'^#{1,6}\s+(.+?)\s*#*\s*$', re.M)
ROW_NAME = re.compile(r'^\[`([^`]+)`\]\(([^)\s]+)\)$')
VERSION_ADDED = re.compile(r'^\s*version_added:\s*["\']?([0-9][0-9.]*)["\']?\s*(?:#.*)?$', re.M)


# -- what the tree holds ---------------------------------------------------------------------------

def entry_points(root=ROOT):
    """{(kind, name)} of every entry point the README's table must show."""
    found = set()
    for kind, folder in (('module', 'plugins/modules'), ('inventory', 'plugins/inventory')):
        path = os.path.join(root, folder)
        found.update((kind, f[:-3]) for f in os.listdir(path) if f.endswith('.py') and f != '__init__.py')
    roles = os.path.join(root, 'roles')
    found.update(('role', d) for d in os.listdir(roles)
                 if os.path.isdir(os.path.join(roles, d)) and not d.startswith(('.', '_')))
    playbooks = os.path.join(root, 'playbooks')
    found.update(('playbook', f) for f in os.listdir(playbooks)
                 if f.endswith('.yml') and os.path.isfile(os.path.join(playbooks, f)))
    return found


# -- the README's table ----------------------------------------------------------------------------

def prose(text):
    """The page without its fenced code blocks."""
    return FENCE.sub('', text)


def table_rows(text):
    """[(name, target, kind)] of the table whose header is `entry point | kind | ...`.
    A row that is not `[`name`](target) | kind | what` is an error naming it."""
    lines = prose(text).splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if line.lstrip().startswith('|') and cells[:2] == ['entry point', 'kind']:
            break
    else:
        raise AssertionError('README.md has no table with the header "| entry point | kind | ... |"')
    rows = []
    for line in lines[i + 2:]:
        if not line.lstrip().startswith('|'):
            break
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        name = ROW_NAME.match(cells[0])
        assert len(cells) == 3 and name and cells[1] in KINDS and cells[2], (
            'a row of the entry points table is not "| [`name`](link) | %s | what it does |": %s'
            % ('/'.join(KINDS), line))
        rows.append((name.group(1), name.group(2), cells[1]))
    return rows


def table_problems(text, expected):
    """What is wrong with the table, as sentences: rows missing, rows for nothing, rows twice."""
    rows = table_rows(text)
    shown = [(kind, name) for name, _target, kind in rows]
    problems = ['no row for the %s %s' % key for key in sorted(set(expected) - set(shown))]
    problems += ['a row for the %s %s, which does not exist' % key for key in sorted(set(shown) - set(expected))]
    problems += ['two rows for the %s %s' % key for key in sorted(set(k for k in shown if shown.count(k) > 1))]
    return problems


# -- links -------------------------------------------------------------------------------------------

def slug(heading):
    """A heading's anchor as GitHub makes it."""
    text = re.sub(r'[^\w\- ]', '', heading.strip().lower())
    return text.replace(' ', '-')


def anchors(path):
    with open(path, encoding='utf-8') as handle:
        return set(slug(h) for h in HEADING.findall(prose(handle.read())))


def broken_links(text, page, root=ROOT):
    """(target, why) of every relative link of ``text`` (the page at ``page``) that names no file or
    directory of the repository, or no heading of the Markdown page it names. Links with a scheme
    (https:, mailto:) are not followed."""
    body = prose(text)
    broken = []
    for target in INLINE_LINK.findall(body) + REFERENCE_LINK.findall(body):
        if not target:
            broken.append((target, 'empty link'))
            continue
        if SCHEME.match(target) or target.startswith('//'):
            continue
        path, anchor = (target.split('#', 1) + [''])[:2]
        if path.startswith('/'):
            broken.append((target, 'absolute path'))
            continue
        full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if os.path.relpath(full, root).split(os.sep)[0] == os.pardir:
            broken.append((target, 'leaves the repository'))
        elif not os.path.exists(full):
            broken.append((target, 'no such file'))
        elif anchor:
            if not full.endswith('.md'):
                broken.append((target, 'an anchor in a file that is not Markdown'))
            elif anchor not in (anchors(full) if path else set(slug(h) for h in HEADING.findall(body))):
                broken.append((target, 'no such heading'))
    return broken


def pages():
    """The README, the pages under docs/ this test checks, and bench/README.md."""
    docs = sorted('docs/' + f for f in os.listdir(os.path.join(ROOT, 'docs')) if f.endswith('.md'))
    return ['README.md'] + [d for d in docs if d not in OWN_CHECKER] + ['bench/README.md']


def _read(rel):
    with open(os.path.join(ROOT, rel), encoding='utf-8') as handle:
        return handle.read()


# -- versions ----------------------------------------------------------------------------------------

def version_tuple(text):
    """'0.3.0' -> (0, 3, 0): versions compared as numbers, not strings ('0.10.0' > '0.9.0')."""
    assert re.match(r'^\d+(\.\d+)*$', str(text)), 'not a version: %r' % (text,)
    parts = [int(p) for p in str(text).split('.')]
    return tuple(parts + [0] * (3 - len(parts)))


def _walk_spec(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == 'version_added':
                yield str(value)
            else:
                yield from _walk_spec(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk_spec(value)


def versions_added(root=ROOT):
    """[(file, version)] of every version_added under plugins/ and in roles' argument specs."""
    found = []
    for here, dirs, files in os.walk(os.path.join(root, 'plugins')):
        dirs[:] = sorted(d for d in dirs if d != '__pycache__')
        for name in sorted(files):
            if name.endswith('.py'):
                path = os.path.join(here, name)
                with open(path, encoding='utf-8') as handle:
                    found.extend((os.path.relpath(path, root), v) for v in VERSION_ADDED.findall(handle.read()))
    roles = os.path.join(root, 'roles')
    for role in sorted(os.listdir(roles)):
        for spec in ('argument_specs.yml', 'argument_specs.yaml'):
            path = os.path.join(roles, role, 'meta', spec)
            if os.path.isfile(path):
                with open(path, encoding='utf-8') as handle:
                    found.extend((os.path.relpath(path, root), v) for v in _walk_spec(yaml.safe_load(handle)))
    return found


def newer_than(version, added):
    """The (file, version) of ``added`` newer than ``version``."""
    return [(f, v) for f, v in added if version_tuple(v) > version_tuple(version)]


def galaxy_version(root=ROOT):
    with open(os.path.join(root, 'galaxy.yml'), encoding='utf-8') as handle:
        return str(yaml.safe_load(handle)['version'])


# -- the repository as it is -----------------------------------------------------------------------

@pytest.fixture(scope='module')
def readme():
    return _read('README.md')


def test_the_tree_has_entry_points_of_every_kind():
    kinds = set(kind for kind, _name in entry_points())
    assert kinds == set(KINDS), kinds
    assert ('module', 'heat_stack') in entry_points() and ('playbook', 'stack.yml') in entry_points()


def test_every_entry_point_has_one_row_and_every_row_one_entry_point(readme):
    assert table_problems(readme, entry_points()) == []


def test_every_row_links_to_a_file_that_exists(readme):
    bad = []
    for name, target, kind in table_rows(readme):
        if broken_links('[x](%s)' % target, README):
            bad.append('%s %s: %s' % (kind, name, target))
    assert not bad, 'rows whose link names nothing: %s' % ', '.join(bad)


def test_a_module_or_playbook_row_links_to_its_own_file(readme):
    wrong = []
    for name, target, kind in table_rows(readme):
        own = {'module': 'plugins/modules/%s.py', 'playbook': 'playbooks/%s'}.get(kind)
        if own and target.split('#')[0] != own % name:
            wrong.append('%s %s -> %s' % (kind, name, target))
    assert not wrong, wrong


@pytest.mark.parametrize('page', pages())
def test_every_relative_link_resolves(page):
    text = _read(page)
    assert INLINE_LINK.search(prose(text)), '%s links to nothing: the check would check nothing' % page
    assert broken_links(text, os.path.join(ROOT, page)) == []


@pytest.mark.parametrize('page', pages())
def test_every_page_has_a_title(page):
    assert re.match(r'# \S', _read(page)), '%s does not start with a "# " title' % page


def test_the_readme_links_to_every_docs_page(readme):
    linked = set(os.path.normpath(os.path.join(ROOT, t.split('#')[0]))
                 for t in INLINE_LINK.findall(prose(readme)) if t and not SCHEME.match(t))
    docs = [f for f in os.listdir(os.path.join(ROOT, 'docs')) if f.endswith('.md')]
    assert 'stacks.md' in docs
    missing = sorted(f for f in docs if os.path.join(ROOT, 'docs', f) not in linked)
    assert not missing, 'README.md does not link to docs/%s' % ', docs/'.join(missing)


def test_galaxy_version_is_not_older_than_any_version_added():
    added = versions_added()
    assert ('plugins/modules/heat_stack.py', '0.1.0') in added, 'the scan finds nothing: it would check nothing'
    assert newer_than(galaxy_version(), added) == []


def test_the_example_execution_environment_names_the_galaxy_version():
    text = _read('docs/execution-environment.yml')
    names = set(re.findall(r'stackers-orchestration-([0-9.]+)\.tar\.gz', text))
    assert names == {galaxy_version()}, names


# -- the checkers fail when they should ------------------------------------------------------------

TABLE = ('# x\n\n| entry point | kind | what it does |\n|---|---|---|\n'
         '| [`heat_stack`](plugins/modules/heat_stack.py) | module | runs stacks |\n'
         '| [`heat_stacks`](docs/playbooks.md) | inventory | hosts |\n'
         '| [`stack`](docs/awx.md) | role | a job |\n'
         '| [`stack.yml`](playbooks/stack.yml) | playbook | create |\n\nAfter the table.\n')
EXPECTED = {('module', 'heat_stack'), ('inventory', 'heat_stacks'), ('role', 'stack'), ('playbook', 'stack.yml')}


def test_a_planted_complete_table_passes():
    assert table_problems(TABLE, EXPECTED) == []


def test_a_planted_missing_row_is_reported():
    page = TABLE.replace('| [`stack`](docs/awx.md) | role | a job |\n', '')
    assert table_problems(page, EXPECTED) == ['no row for the role stack']
    assert table_problems(TABLE, EXPECTED | {('module', 'heat_new')}) == ['no row for the module heat_new']


def test_a_name_elsewhere_on_the_page_is_not_a_row():
    page = TABLE.replace('| [`stack`](docs/awx.md) | role | a job |\n', '') + '\nThe role `stack` runs a job.\n'
    assert table_problems(page, EXPECTED) == ['no row for the role stack']


def test_a_planted_stale_or_doubled_row_is_reported():
    gone = TABLE.replace('| [`stack.yml`]', '| [`gone.yml`](playbooks/gone.yml) | playbook | x |\n| [`stack.yml`]')
    assert table_problems(gone, EXPECTED) == ['a row for the playbook gone.yml, which does not exist']
    twice = TABLE.replace('| [`stack`](docs/awx.md) | role | a job |\n',
                          '| [`stack`](docs/awx.md) | role | a job |\n' * 2)
    assert table_problems(twice, EXPECTED) == ['two rows for the role stack']


@pytest.mark.parametrize('row', ['| `heat_stack` | module | no link |',
                                 '| [`heat_stack`](plugins/modules/heat_stack.py) | modul | a typo |',
                                 '| [`heat_stack`](plugins/modules/heat_stack.py) | module |'])
def test_a_malformed_row_is_an_error(row):
    page = TABLE.replace('| [`heat_stack`](plugins/modules/heat_stack.py) | module | runs stacks |', row)
    with pytest.raises(AssertionError, match='a row of the entry points table'):
        table_rows(page)


def test_a_page_without_the_table_is_an_error():
    with pytest.raises(AssertionError, match='no table'):
        table_rows('# x\n\n| name | what |\n|---|---|\n| a | b |\n')


@pytest.mark.parametrize('link, why', [
    ('[gone](plugins/modules/heat_gone.py)', 'no such file'),
    ('[up](../../etc/passwd)', 'leaves the repository'),
    ('[abs](/etc/passwd)', 'absolute path'),
    ('[anchor](docs/configuration.md#no-such-heading)', 'no such heading'),
    ('[here](#nowhere)', 'no such heading'),
    ('[anchor](galaxy.yml#version)', 'an anchor in a file that is not Markdown'),
    ('[ref]: docs/nowhere.md', 'no such file'),
])
def test_a_planted_broken_link_is_reported(link, why):
    good = ('# Title\n\n## A part\n\n[part](#a-part) [doc](docs/configuration.md#where-the-stacks-record-lives) '
            '[bench](bench/README.md) [web](https://example.org)\n\n```\n[not a link](nowhere.md)\n```\n')
    assert broken_links(good, README) == []
    target = re.search(r'\(([^)]*)\)|\]: (\S+)', link)
    assert broken_links(good + '\n' + link + '\n', README) == [(target.group(1) or target.group(2), why)]


def test_a_link_from_a_docs_page_resolves_from_its_folder():
    page = os.path.join(ROOT, 'docs', 'x.md')
    assert broken_links('[readme](../README.md) [sec](security.md#limits)', page) == []
    assert broken_links('[readme](README.md)', page) == [('README.md', 'no such file')]


@pytest.mark.parametrize('version, added, newer', [
    ('0.3.0', [('a.py', '0.1.0'), ('b.py', '0.3.0')], []),
    ('0.1.0', [('a.py', '0.1.0'), ('b.py', '0.3.0')], [('b.py', '0.3.0')]),
    ('0.9.0', [('a.py', '0.10.0')], [('a.py', '0.10.0')]),  # numbers, not strings
    ('1.0', [('a.py', '1.0.0')], []),
    ('1.0.0', [('a.py', '1.0.1')], [('a.py', '1.0.1')]),
])
def test_versions_compare_as_numbers(version, added, newer):
    assert newer_than(version, added) == newer


def test_version_added_is_found_in_plugins_and_role_specs(tmp_path):
    (tmp_path / 'plugins' / 'modules').mkdir(parents=True)
    (tmp_path / 'plugins' / 'modules' / 'm.py').write_text(
        "DOCUMENTATION = r'''\nmodule: m\nversion_added: 0.4.0\noptions:\n  o:\n    version_added: '0.5.0'\n'''\n")
    (tmp_path / 'roles' / 'r' / 'meta').mkdir(parents=True)
    (tmp_path / 'roles' / 'r' / 'meta' / 'argument_specs.yml').write_text(
        'argument_specs:\n  main:\n    version_added: 0.6.0\n    options:\n      v: {type: str, version_added: 0.7.0}\n')
    found = versions_added(str(tmp_path))
    assert sorted(v for _f, v in found) == ['0.4.0', '0.5.0', '0.6.0', '0.7.0']
    assert newer_than('0.6.0', found) == [(os.path.join('roles', 'r', 'meta', 'argument_specs.yml'), '0.7.0')]
