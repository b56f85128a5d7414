# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Load templates and environments as Heat does, remembering where each value was.

Heat parses JSON when the text starts with ``{`` and YAML otherwise, with YAML
timestamps kept as strings (so ``heat_template_version: 2013-05-23`` is the
string ``'2013-05-23'``).  We do the same, and additionally return a
*positions* map: ``{path_tuple: (line, column)}`` (1-based), so every error
can name the line it is about.  The data itself stays plain dict/list/str, so
the template functions, yaql and json see exactly what Heat would.

YAML aliases are resolved to shared objects by the composer; a walk over the
data would still expand them, so a "billion laughs" document is refused once
its expanded size passes a limit.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

try:
    import yaml
except ImportError:  # pragma: no cover - PyYAML is a requirement; the module reports it
    yaml = None

from ..errors import TemplateError

if yaml is not None:
    _Loader = getattr(yaml, 'CSafeLoader', None) or yaml.SafeLoader

# heat/common/config.py: max_template_size (bytes); the same limit applies to
# environments and files.
MAX_TEMPLATE_SIZE = 524288
# Expanded node count past which alias expansion is refused.  A template at
# the size limit holds well under 200k nodes; this leaves room for honest
# anchors while stopping exponential blow-up long before memory suffers.
MAX_EXPANDED_NODES = 1000000

_STR = 'tag:yaml.org,2002:str'
_TIMESTAMP = 'tag:yaml.org,2002:timestamp'

_scalar_constructor = yaml.constructor.SafeConstructor() if yaml is not None else None


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


class _Builder(object):
    """Turns a composed YAML node tree into plain Python data + positions."""

    def __init__(self, filename, max_nodes):
        self.filename = filename
        self.max_nodes = max_nodes
        self.positions = {}
        self.count = 0
        self.seen = {}       # id(node) -> built value, for aliases
        self.sizes = {}      # id(node) -> expanded node count of that subtree

    def build(self, node, path):
        key = id(node)
        if key in self.seen:
            # An alias: the composer hands us the same node object again.
            if key not in self.sizes:
                # Still being built: the alias sits inside its own anchor.
                # Such data has no end, so no walk over it could finish.
                raise TemplateError('A YAML alias refers to the node that contains it '
                                    '(a recursive structure); refused',
                                    path=path, filename=self.filename,
                                    line=node.start_mark.line + 1)
            self.count += self.sizes[key]
            self._check(node)
            return self.seen[key]
        start = self.count
        self.count += 1
        self._check(node)
        self.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            value = {}
            self.seen[key] = value
            for knode, vnode in node.value:
                if knode.tag == 'tag:yaml.org,2002:merge':
                    raise TemplateError('YAML merge keys ("<<") are not supported',
                                        path=path, filename=self.filename,
                                        line=knode.start_mark.line + 1)
                k = self._scalar(knode, path) if isinstance(knode, yaml.ScalarNode) else None
                if k is None and not isinstance(knode, yaml.ScalarNode):
                    raise TemplateError('A mapping key must be a scalar', path=path,
                                        filename=self.filename, line=knode.start_mark.line + 1)
                try:
                    hash(k)
                except TypeError:
                    raise TemplateError('A mapping key must be a scalar', path=path,
                                        filename=self.filename, line=knode.start_mark.line + 1)
                value[k] = self.build(vnode, path + (k,))
                # A key's line is where users look for it, not its value's.
                self.positions[path + (k,)] = (knode.start_mark.line + 1,
                                               knode.start_mark.column + 1)
        elif isinstance(node, yaml.SequenceNode):
            value = []
            self.seen[key] = value
            for i, item in enumerate(node.value):
                value.append(self.build(item, path + (i,)))
        else:
            value = self._scalar(node, path)
            self.seen[key] = value
        self.sizes[key] = self.count - start
        return value

    def _check(self, node):
        if self.count > self.max_nodes:
            raise TemplateError(
                'The document expands to more than %d nodes (YAML aliases?); refused'
                % self.max_nodes, filename=self.filename, line=node.start_mark.line + 1)

    def _scalar(self, node, path):
        if node.tag in (_STR, _TIMESTAMP):
            return node.value
        try:
            return _scalar_constructor.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise TemplateError('Invalid YAML value: %s' % (getattr(exc, 'problem', None) or exc),
                                path=path, filename=self.filename,
                                line=node.start_mark.line + 1)


def _yaml_error(exc, filename):
    mark = getattr(exc, 'problem_mark', None) or getattr(exc, 'context_mark', None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(exc, 'problem', None) or str(exc)
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
        raise error_cls('Template size (%d bytes) exceeds maximum allowed size (%d bytes).'
                        % (len(text.encode('utf-8')), max_size), filename=filename)
    if text.lstrip().startswith('{'):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise error_cls('Error parsing JSON: %s' % exc, filename=filename,
                            line=getattr(exc, 'lineno', None))
        # Positions are a courtesy for JSON: YAML usually reads JSON too.
        positions = {}
        try:
            node = yaml.compose(text, Loader=_Loader)
            if node is not None:
                builder = _Builder(filename, max_nodes)
                if builder.build(node, ()) == data:
                    positions = builder.positions
        except (yaml.YAMLError, TemplateError):
            pass
        return Document(data, positions, filename)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        err = _yaml_error(exc, filename)
        raise error_cls(err.message, filename=filename, line=err.line)
    if node is None:
        return Document({}, {(): (1, 1)}, filename)
    try:
        builder = _Builder(filename, max_nodes)
        data = builder.build(node, ())
    except TemplateError as exc:
        if isinstance(exc, error_cls):
            raise
        raise error_cls(exc.message, path=exc.path, filename=filename, line=exc.line)
    return Document(data, builder.positions, filename)


def load_file(path, max_size=MAX_TEMPLATE_SIZE, error_cls=TemplateError):
    """Read and parse a file; its name goes into every error."""
    try:
        with open(path, 'rb') as handle:
            raw = handle.read(max_size + 1 if max_size else -1)
    except (IOError, OSError) as exc:
        raise error_cls('Could not read %s: %s' % (path, exc.strerror or exc), filename=path)
    return load_text(raw, filename=path, max_size=max_size, error_cls=error_cls)
