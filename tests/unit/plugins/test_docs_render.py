# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every plugin's documentation as ansible-doc renders it in a terminal: no markup left over, no text
eaten. ansible-doc's text view strips anything shaped like an RST directive (two characters, a space, a
word and ``::``), so a bare ``..., OS::Heat::Value`` in a description came out as ``...Heat::Value``: a
Heat type belongs in C(). The docs are those ansible-doc itself loads (doc fragments merged), rendered
by the function its text view uses."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import json
import os
import re
import subprocess

import pytest
from ansible.cli.doc import DocCLI

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PLUGINS = os.path.join(ROOT, 'plugins')
# what is left of a markup macro that did not render (C(, O(, RV(, ...)
MACRO = re.compile(r'\b(?:[BCEIMLOPRUV]|RV)\(')
HEAT_NAME = re.compile(r'\b[A-Za-z]+(?:::[A-Za-z0-9_]+)+')


def _names(kind):
    return sorted('stackers.orchestration.' + os.path.basename(p)[:-3]
                  for p in glob.glob(os.path.join(PLUGINS, kind, '*.py')) if not p.endswith('__init__.py'))


def _loaded(kind):
    names = _names('modules' if kind == 'module' else kind)
    env = dict(os.environ, ANSIBLE_NOCOLOR='1')
    out = subprocess.run([os.path.join(ROOT, '.venv', 'bin', 'ansible-doc'), '--json', '-t', kind] + names,
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=True)
    docs = json.loads(out.stdout)
    assert sorted(docs) == names
    return docs


def _texts(node, where=()):
    """(where, text) of every description in a plugin's doc (options, suboptions, return values)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == 'description':
                for i, text in enumerate(value if isinstance(value, list) else [value]):
                    if isinstance(text, str):
                        yield where + (key, i), text
            else:
                yield from _texts(value, where + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _texts(value, where + (i,))


def problems(text):
    """What goes wrong when ansible-doc renders ``text``."""
    shown = DocCLI.tty_ify(text)
    found = []
    if MACRO.search(shown):
        found.append('markup left: %s' % MACRO.search(shown).group(0))
    for name in HEAT_NAME.findall(text):
        if name not in shown:
            found.append('%s eaten' % name)
    if shown.count('(') != shown.count(')'):
        found.append('unbalanced parentheses')
    return found


def test_the_check_finds_what_ansible_doc_eats():
    assert problems('Resources (OS::Heat::None, OS::Heat::Value) make none.') == [
        'OS::Heat::None eaten', 'OS::Heat::Value eaten']
    assert problems('Resources (C(OS::Heat::None), C(OS::Heat::Value)) make none.') == []
    assert problems('C(unclosed') == ['markup left: C(', 'unbalanced parentheses']


@pytest.mark.parametrize('kind', ['module', 'inventory'])
def test_every_description_renders_whole(kind):
    bad = []
    for name, doc in sorted(_loaded(kind).items()):
        for section in ('doc', 'return'):
            for where, text in _texts(doc.get(section) or {}, (section,)):
                for problem in problems(text):
                    bad.append('%s %s: %s' % (name, '.'.join(str(w) for w in where), problem))
    assert bad == []
