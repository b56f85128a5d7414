# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""docs/architecture.md stays true to the tree: it names every Python file
under plugins/, every .py path it names exists, each file's row is one
short line, and its links stay inside the repository and resolve.  The
rules are written out in the page's last section; the checker is here so a
test can plant each failure."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
DOC = os.path.join(ROOT, 'docs', 'architecture.md')
# Not the repository's own files: virtualenvs, build links, test output.
SKIP_DIRS = ('.git', '.build', '.venv', '.heat-venv', 'tests/output', '.hypothesis', '.pytest_cache')

FENCE = re.compile(r'^(```|~~~).*?^\1[ \t]*$', re.M | re.S)
CODE_SPAN = re.compile(r'`([^`\n]+)`')
PY_PATH = re.compile(r'[\w./-]*\w\.py\b')
INLINE_LINK = re.compile(r'!?\[[^\]\n]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
REFERENCE_LINK = re.compile(r'^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s+.*)?$', re.M)
SCHEME = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')
# A table row that names a file: one short line, the rest in the file's docstring.
MAX_ROW = 200
# Addresses written as plain text are references too: a bare URL, or a path
# that climbs out of docs/ (the page once sent readers to "../shared/...").
BARE_REFERENCE = re.compile(r'(?<![\w/.])(?:[a-z][a-z0-9+.-]*://[^\s`)>\]]+|\.\./[\w./-]+)')


def repo_py_files(root):
    """Every .py file of the repository, as '/'-separated paths from its root."""
    found = []
    for here, dirs, files in os.walk(root):
        rel = os.path.relpath(here, root).replace(os.sep, '/')
        dirs[:] = sorted(d for d in dirs if d != '__pycache__' and not d.startswith('.venv')
                         and ('%s/%s' % (rel, d) if rel != '.' else d) not in SKIP_DIRS)
        found.extend(('%s/%s' % (rel, f) if rel != '.' else f) for f in files if f.endswith('.py'))
    return sorted(found)


def prose(text):
    """The page without its fenced code blocks (the diagram names nothing)."""
    return FENCE.sub('', text)


def named_paths(text):
    """Every .py path written in an inline code span outside code blocks."""
    names = set()
    for span in CODE_SPAN.findall(prose(text)):
        names.update(PY_PATH.findall(span))
    return names


def long_rows(text, limit=MAX_ROW):
    """(length, row) of every table row outside code blocks that names a
    .py path and is longer than ``limit`` characters."""
    return [(len(line), line) for line in prose(text).splitlines()
            if line.lstrip().startswith('|') and len(line) > limit
            and any(PY_PATH.search(span) for span in CODE_SPAN.findall(line))]


def _ends_with(path, suffix):
    return path == suffix or path.endswith('/' + suffix.lstrip('/'))


def unnamed_plugin_files(text, files):
    """The files under plugins/ (but __init__.py) the page does not name
    by a suffix that names only them."""
    plugin_files = [f for f in files if f.startswith('plugins/')]
    named = set()
    for suffix in named_paths(text):
        matches = [f for f in plugin_files if _ends_with(f, suffix)]
        if len(matches) == 1:
            named.add(matches[0])
    return [f for f in plugin_files
            if not f.endswith('/__init__.py') and f not in named]


def stale_paths(text, files):
    """The .py paths the page names that no file of the repository ends with."""
    return sorted(p for p in named_paths(text) if not any(_ends_with(f, p) for f in files))


def _slug(heading):
    """A heading's anchor as GitHub makes it."""
    text = re.sub(r'[^\w\- ]', '', heading.strip().lower())
    return text.replace(' ', '-')


def broken_links(text, doc_path, root):
    """(target, why) of every link that leaves the repository or resolves to
    nothing in it."""
    body = prose(text)
    anchors = set(_slug(h) for h in re.findall(r'^#{1,6}\s+(.+?)\s*#*\s*$', body, re.M))
    broken = []
    bare = BARE_REFERENCE.findall(REFERENCE_LINK.sub('', INLINE_LINK.sub('', body)))
    for target in INLINE_LINK.findall(body) + REFERENCE_LINK.findall(body) + bare:
        if not target:
            broken.append((target, 'empty link'))
        elif SCHEME.match(target) or target.startswith('//'):
            broken.append((target, 'leaves the repository'))
        elif target.startswith('#'):
            if target[1:] not in anchors:
                broken.append((target, 'no such heading on this page'))
        else:
            path = target.split('#', 1)[0]
            if path.startswith('/'):
                broken.append((target, 'absolute path'))
                continue
            full = os.path.normpath(os.path.join(os.path.dirname(doc_path), path))
            if os.path.relpath(full, root).split(os.sep)[0] == os.pardir:
                broken.append((target, 'leaves the repository'))
            elif not os.path.exists(full):
                broken.append((target, 'no such file'))
    return broken


@pytest.fixture(scope='module')
def doc():
    with open(DOC, encoding='utf-8') as handle:
        return handle.read()


@pytest.fixture(scope='module')
def files():
    return repo_py_files(ROOT)


# -- the page itself -------------------------------------------------------------

def test_every_plugin_file_is_on_the_page(doc, files):
    assert any(f.startswith('plugins/module_utils/hot/') for f in files)
    missing = unnamed_plugin_files(doc, files)
    assert not missing, ('docs/architecture.md does not name these files (add a row to their '
                         "package's table): %s" % ', '.join(missing))


def test_every_py_path_on_the_page_exists(doc, files):
    assert not stale_paths(doc, files), 'docs/architecture.md names files that do not exist'


def test_each_files_row_is_one_short_line(doc):
    assert not long_rows(doc), ('docs/architecture.md has rows longer than %d characters (move the details to '
                                "the file's docstring): %s" % (MAX_ROW, [row[:60] for _n, row in long_rows(doc)]))


def test_every_link_resolves_inside_the_repository(doc):
    assert INLINE_LINK.search(prose(doc)), 'the page links to nothing: the check would check nothing'
    assert broken_links(doc, DOC, ROOT) == []


# -- the checker fails when it should ---------------------------------------------

FILES = ['plugins/modules/heat_stack.py', 'plugins/module_utils/__init__.py',
         'plugins/module_utils/base.py', 'plugins/module_utils/resources/base.py',
         'plugins/module_utils/hot/conditions.py', 'plugins/module_utils/hot/functions/conditions.py',
         'plugins/module_utils/hot/loader.py', 'plugins/module_utils/resources/nova/server.py',
         'tests/unit/test_architecture_doc.py']


def test_a_planted_file_missing_from_the_page_is_reported():
    page = ('| `modules/heat_stack.py` | x |\n| `module_utils/base.py` | `resources/base.py` |\n'
            '| `hot/conditions.py` | `functions/conditions.py` | `loader.py` | `nova/server.py` |\n')
    assert unnamed_plugin_files(page, FILES) == []
    assert unnamed_plugin_files(page, FILES + ['plugins/module_utils/hot/new_part.py']) == \
        ['plugins/module_utils/hot/new_part.py']
    assert unnamed_plugin_files(page.replace('`loader.py`', 'loader.py'), FILES) == \
        ['plugins/module_utils/hot/loader.py']


def test_an_ambiguous_name_names_nothing():
    page = '`base.py` `conditions.py` `modules/heat_stack.py` `loader.py` `server.py`'
    assert sorted(unnamed_plugin_files(page, FILES)) == [
        'plugins/module_utils/base.py', 'plugins/module_utils/hot/conditions.py',
        'plugins/module_utils/hot/functions/conditions.py', 'plugins/module_utils/resources/base.py']


def test_a_name_in_the_diagram_does_not_count():
    page = '```\nhot/loader.py\n`hot/loader.py`\n```\n'
    assert 'plugins/module_utils/hot/loader.py' in unnamed_plugin_files(page, FILES)


def test_a_stale_row_is_reported():
    page = '`hot/loader.py` `hot/sdk_speed.py` `test_architecture_doc.py` (`engine/gone.py`)'
    assert stale_paths(page, FILES) == ['engine/gone.py', 'hot/sdk_speed.py']


def test_a_planted_long_row_is_reported():
    short = '| `hot/loader.py` | documents as Heat loads them |'
    long_row = short[:-1] + 'x' * (MAX_ROW - len(short) + 1) + ' |'
    assert len(long_row) == MAX_ROW + 2
    assert long_rows(short + '\n') == []
    assert long_rows('# Title\n\n%s\n%s\n' % (short, long_row)) == [(len(long_row), long_row)]
    # a long row naming no file, a long line of prose, a row inside a code block: not rows of a file
    assert long_rows('| `docs/` | %s |\n' % ('y' * MAX_ROW)) == []
    assert long_rows('see `hot/loader.py` %s\n' % ('y' * MAX_ROW)) == []
    assert long_rows('```\n%s\n```\n' % long_row) == []


def test_the_real_tree_is_walked_without_virtualenvs(files):
    assert 'plugins/module_utils/hot/loader.py' in files
    assert 'tests/unit/test_architecture_doc.py' in files
    assert not [f for f in files if f.startswith(('.venv', '.build/', '.git/'))]


@pytest.mark.parametrize('link, why', [
    ('[design](../shared/DESIGN.md)', 'no such file'),  # the old link: docs/../shared
    ('[design](../../shared/DESIGN.md)', 'leaves the repository'),
    ('[heat](https://opendev.org/openstack/heat)', 'leaves the repository'),
    ('[mail](mailto:x@example.org)', 'leaves the repository'),
    ('[gone](../bench/nothing_here.py)', 'no such file'),
    ('[abs](/etc/passwd)', 'absolute path'),
    ('[here](#no-such-heading)', 'no such heading on this page'),
    ('[ref]: ../nowhere.md', 'no such file'),
])
def test_a_planted_broken_link_is_reported(link, why):
    page = '# Title\n\n## A part\n\nsee [the part](#a-part) and [readme](../README.md)\n\n%s\n' % link
    assert broken_links('# Title\n\n## A part\n\nsee [the part](#a-part) and [readme](../README.md)\n',
                        DOC, ROOT) == []
    target = re.search(r'\(([^)]*)\)|\]: (\S+)', link)
    assert broken_links(page, DOC, ROOT) == [(target.group(1) or target.group(2), why)]


@pytest.mark.parametrize('text, target, why', [
    ('See ../shared/DESIGN.md for the reasoning.', '../shared/DESIGN.md', 'no such file'),
    ('See `../../shared/DESIGN.md`.', '../../shared/DESIGN.md', 'leaves the repository'),
    ('Heat: https://opendev.org/openstack/heat.', 'https://opendev.org/openstack/heat.',
     'leaves the repository'),
])
def test_a_planted_address_in_plain_text_is_reported(text, target, why):
    assert broken_links('See ../README.md and `../bench/hot_bench.py`.\n', DOC, ROOT) == []
    assert broken_links(text + '\n', DOC, ROOT) == [(target, why)]


def test_links_inside_code_blocks_are_not_links():
    assert broken_links('```\n[x](https://example.org)\n```\n', DOC, ROOT) == []
