# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's Python files, for the tests that scan all of them (no
patching, call shapes): one walk and one report format for every scan."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLUGINS = os.path.join(ROOT, 'plugins')


def plugin_files():
    """Every .py file under plugins/, in a stable order."""
    for base, dirs, files in os.walk(PLUGINS):
        dirs[:] = sorted(d for d in dirs if d != '__pycache__')
        for name in sorted(files):
            if name.endswith('.py'):
                yield os.path.join(base, name)


def findings(scan):
    """``path:line: text`` for each (line, text) ``scan(source, path)`` reports in any file."""
    found = []
    for path in plugin_files():
        with open(path) as f:
            found.extend('%s:%d: %s' % (os.path.relpath(path, ROOT), line, text)
                         for line, text in scan(f.read(), path))
    return found
