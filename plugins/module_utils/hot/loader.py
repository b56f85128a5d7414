# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Load templates and environments as Heat does, remembering where each value was.

Heat parses JSON when the text starts with ``{`` and YAML otherwise, with YAML
timestamps kept as strings (so ``heat_template_version: 2013-05-23`` is the
string ``'2013-05-23'``).  We do the same, and additionally return a
*positions* map: ``{path_tuple: (line, column)}`` (1-based, read off the node tree on demand), so every error
can name the line it is about.  The data itself stays plain dict/list/str, so
the template functions, yaql and json see exactly what Heat would.

YAML aliases are resolved to shared objects by the composer; a walk over the
data would still expand them, so a "billion laughs" document is refused once
its expanded size passes a limit.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import gc
import json
import os

try:
    import yaml
except ImportError:  # pragma: no cover - PyYAML is a requirement; the module reports it
    yaml = None

from ..errors import TemplateError
from . import limits
from .yaml_nodes import build_data, compose

# heat/common/config.py: max_template_size (bytes); the same limit applies to
# environments and files (hot/limits.py holds Heat's limits).
MAX_TEMPLATE_SIZE = limits.DEFAULT.max_template_size
# Expanded node count past which alias expansion is refused.  A template at
# the size limit holds well under 200k nodes; this leaves room for honest
# anchors while stopping exponential blow-up long before memory suffers.
MAX_EXPANDED_NODES = 1000000


@contextlib.contextmanager
def gc_paused():
    """Pause the cyclic garbage collector for a block that builds or walks a
    big template: it would scan the growing tree again and again while
    nothing in it can be garbage."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


class Document(object):
    """A parsed document: ``data`` plus ``positions`` and ``filename``."""

    __slots__ = ('data', 'positions', 'filename')

    def __init__(self, data, positions, filename):
        self.data = data
        self.positions = positions
        self.filename = filename

    def line_of(self, path):
        """The line of ``path`` or of its nearest ancestor with a known position."""
        path = tuple(path)
        while True:
            pos = self.positions.get(path)
            if pos is not None:
                return pos[0]
            if not path:
                return None
            path = path[:-1]

    def error(self, cls, message, path=(), **kw):
        """Build a located error of class ``cls`` about ``path`` in this document."""
        return cls(message, path=path, filename=self.filename,
                   line=self.line_of(path), **kw)


class NodePositions(object):
    """``{path: (line, column)}`` read off the composed node tree on demand.

    Lines are only needed when something is wrong, so neither a position per
    node nor the node tree is kept while loading: the tree of a big template
    is most of the objects a validation leaves behind, and the collector has
    to scan each of them once it runs again.  The text is composed again the
    first time a line is asked for.  A key path gives the key's line: that is
    where users look for it."""

    __slots__ = ('root', 'text')

    def __init__(self, text):
        self.text = text
        self.root = None

    def _tree(self):
        if self.text is not None:
            text, self.text = self.text, None
            try:
                with gc_paused():
                    self.root = compose(text)
            except yaml.YAMLError:
                # JSON that YAML does not read: no lines, as if there were none.
                self.root = None
        return self.root

    def __getitem__(self, path):
        node = self._tree()
        if node is None:
            raise KeyError(path)
        mark = node.start_mark
        for part in path:
            if node.id == 'mapping':
                for knode, vnode in node.value:
                    if knode.id == 'scalar' and (knode.value == part or knode.value == str(part)):
                        node, mark = vnode, knode.start_mark
                        break
                else:
                    raise KeyError(path)
            elif node.id == 'sequence' and isinstance(part, int) and 0 <= part < len(node.value):
                node = node.value[part]
                mark = node.start_mark
            else:
                raise KeyError(path)
        return (mark.line + 1, mark.column + 1)

    def get(self, path, default=None):
        try:
            return self[tuple(path)]
        except KeyError:
            return default

    def __contains__(self, path):
        return self.get(path) is not None

    def __bool__(self):
        return self.text is not None or self.root is not None


def _yaml_error(exc, filename, text=None):
    mark = getattr(exc, 'problem_mark', None) or getattr(exc, 'context_mark', None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(exc, 'problem', None) or str(exc)
    if isinstance(exc, yaml.reader.ReaderError):
        # a character YAML refuses (a control character): its reader gives
        # a position in the text, not a mark
        char = ord(exc.character) if isinstance(exc.character, str) else exc.character
        problem = 'unacceptable character #x%04x: %s' % (char, exc.reason) \
            if isinstance(char, int) else exc.reason
        if text is not None and isinstance(exc.position, int):
            line = text.count('\n', 0, exc.position) + 1
    return TemplateError('Error parsing YAML: %s' % problem, filename=filename, line=line)


def load_text(text, filename=None, max_size=MAX_TEMPLATE_SIZE, max_nodes=MAX_EXPANDED_NODES,
              error_cls=TemplateError):
    """Parse ``text`` (str or bytes) as Heat does; return a :class:`Document`.

    An empty document gives ``{}`` data (Heat treats it the same).  Raises
    ``error_cls`` (a TemplateError subclass) on bad syntax or size.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode('utf-8')
        except UnicodeDecodeError:
            raise error_cls('The document is not valid UTF-8', filename=filename)
    if max_size and len(text.encode('utf-8')) > max_size:
        raise error_cls(_size_message(len(text.encode('utf-8')), max_size), filename=filename)
    with gc_paused():
        return _load(text, filename, max_nodes, error_cls)


def _load(text, filename, max_nodes, error_cls):
    if text.lstrip().startswith('{'):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise error_cls('Error parsing JSON: %s' % exc, filename=filename,
                            line=getattr(exc, 'lineno', None))
        # Positions are a courtesy for JSON: YAML usually reads JSON too.
        return Document(data, NodePositions(text), filename)
    try:
        node = compose(text)
    except yaml.YAMLError as exc:
        err = _yaml_error(exc, filename, text)
        raise error_cls(err.message, filename=filename, line=err.line)
    if node is None:
        return Document({}, {(): (1, 1)}, filename)
    try:
        data = build_data(node, filename, max_nodes, text)
    except TemplateError as exc:
        if isinstance(exc, error_cls):
            raise
        raise error_cls(exc.message, path=exc.path, filename=filename, line=exc.line)
    return Document(data, NodePositions(text), filename)


def read_bounded(path, max_size=MAX_TEMPLATE_SIZE, error_cls=TemplateError):
    """The bytes of ``path``, refused by its size first: no more than one
    byte past ``max_size`` is ever read (a 1 GB file costs what a small one
    does), and the message gives the file's real size, as Heat's does."""
    try:
        with open(path, 'rb') as handle:
            raw = handle.read(max_size + 1 if max_size else -1)
            if max_size and len(raw) > max_size:
                size = max(os.fstat(handle.fileno()).st_size, len(raw))
                raise error_cls(_size_message(size, max_size), filename=path)
    except (IOError, OSError) as exc:
        raise error_cls('Could not read %s: %s' % (path, exc.strerror or exc), filename=path)
    return raw


def _size_message(size, max_size):
    # Heat's RequestLimitExceeded (template_format.parse)
    return ('Request limit exceeded: Template size (%d bytes) exceeds maximum allowed size '
            '(%d bytes).' % (size, max_size))


def load_file(path, max_size=MAX_TEMPLATE_SIZE, error_cls=TemplateError):
    """Read and parse a file; its name goes into every error."""
    raw = read_bounded(path, max_size, error_cls)
    return load_text(raw, filename=path, max_size=max_size, error_cls=error_cls)
