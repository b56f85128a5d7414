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

try:
    import yaml
except ImportError:  # pragma: no cover - PyYAML is a requirement; the module reports it
    yaml = None

from ..errors import TemplateError

if yaml is not None:
    _BaseLoader = getattr(yaml, 'CSafeLoader', None) or yaml.SafeLoader
    # Plain scalars' tags, by value: the same keys and words come back
    # thousands of times, and PyYAML resolves each with regexes in Python.
    _TAGS = {}

    _STR_TAG = _BaseLoader.DEFAULT_SCALAR_TAG
    _COLLECTION_TAGS = {yaml.SequenceNode: _BaseLoader.DEFAULT_SEQUENCE_TAG,
                        yaml.MappingNode: _BaseLoader.DEFAULT_MAPPING_TAG}

    class _Loader(_BaseLoader):  # pylint: disable=too-many-ancestors
        # The composer calls these three for every node.  Without path
        # resolvers (Heat's loader has none, and this class has its own empty
        # table) PyYAML's versions come down to what these do, in more steps.
        yaml_path_resolvers = {}

        def descend_resolver(self, current_node, current_index):
            pass

        def ascend_resolver(self):
            pass

        def resolve(self, kind, value, implicit, _get=_TAGS.get):
            if value is None:  # a sequence or a mapping: a scalar's value is text
                return _COLLECTION_TAGS[kind]
            if implicit[0]:
                tag = _get(value)
                if tag is None:
                    tag = _BaseLoader.resolve(self, kind, value, implicit)
                    if len(_TAGS) < 65536 and len(value) < 256:
                        _TAGS[value] = tag
                return tag
            return _STR_TAG

# heat/common/config.py: max_template_size (bytes); the same limit applies to
# environments and files.
MAX_TEMPLATE_SIZE = 524288
# Expanded node count past which alias expansion is refused.  A template at
# the size limit holds well under 200k nodes; this leaves room for honest
# anchors while stopping exponential blow-up long before memory suffers.
MAX_EXPANDED_NODES = 1000000

_STR = 'tag:yaml.org,2002:str'
_TIMESTAMP = 'tag:yaml.org,2002:timestamp'
_MERGE = 'tag:yaml.org,2002:merge'
# Scalars' values by (tag, text), for the types that cannot be changed in place
# (not floats: every NaN read must stay a distinct object).
_VALUES = {}
_IMMUTABLE = frozenset([int, bool, type(None)])

_scalar_constructor = yaml.constructor.SafeConstructor() if yaml is not None else None


@contextlib.contextmanager
def gc_paused():
    """Pause the cyclic garbage collector for a block that builds or walks a
    big template: it would scan the growing tree again and again while
    nothing in it can be garbage (the walks of a 10,000-resource template
    took several times longer with it on)."""
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
                    self.root = yaml.compose(text, Loader=_Loader)
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


class _Builder(object):
    """Turns a composed YAML node tree into plain Python data + positions.

    Alias bookkeeping (which node was built already, how big it expands) is
    only kept when the text can hold an anchor at all: it would otherwise
    cost a third of the walk for nothing."""

    def __init__(self, filename, max_nodes, aliases=True):
        self.filename = filename
        self.max_nodes = max_nodes
        self.count = 0
        self.aliases = aliases
        self.seen = {}       # id(node) -> built value, for aliases
        self.sizes = {}      # id(node) -> expanded node count of that subtree

    def build(self, node, path):
        if self.aliases:
            return self._build_tracked(node, path)
        self.count += 1
        if self.count > self.max_nodes:
            self._check(node)
        return self._value(node, path)

    def _build_tracked(self, node, path):
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
        self.seen[key] = None
        value = self._value(node, path, key)
        self.sizes[key] = self.count - start
        return value

    def _value(self, node, path, key=None):
        kind = node.id
        if kind == 'scalar':
            value = node.value if node.tag == _STR else self._scalar(node, path)
        elif kind == 'mapping':
            value = {}
            if key is not None:
                self.seen[key] = value
            for knode, vnode in node.value:
                if knode.id == 'scalar' and knode.tag == _STR:
                    k = knode.value
                else:
                    k = self._key(knode, path)
                value[k] = self.build(vnode, path + (k,))
        else:
            value = []
            if key is not None:
                self.seen[key] = value
            for i, item in enumerate(node.value):
                value.append(self.build(item, path + (i,)))
        if key is not None:
            self.seen[key] = value
        return value

    def _key(self, knode, path):
        line = knode.start_mark.line + 1
        if knode.tag == _MERGE:
            raise TemplateError('YAML merge keys ("<<") are not supported',
                                path=path, filename=self.filename, line=line)
        if knode.id != 'scalar':
            raise TemplateError('A mapping key must be a scalar', path=path,
                                filename=self.filename, line=line)
        return self._scalar(knode, path)

    def _check(self, node):
        if self.count > self.max_nodes:
            raise TemplateError(
                'The document expands to more than %d nodes (YAML aliases?); refused'
                % self.max_nodes, filename=self.filename, line=node.start_mark.line + 1)

    def _scalar(self, node, path):
        try:
            return _scalar_value(node)
        except yaml.YAMLError as exc:
            raise TemplateError('Invalid YAML value: %s' % (getattr(exc, 'problem', None) or exc),
                                path=path, filename=self.filename,
                                line=node.start_mark.line + 1)


def _scalar_value(node):
    if node.tag in (_STR, _TIMESTAMP):
        return node.value
    key = (node.tag, node.value)
    value = _VALUES.get(key, _VALUES)
    if value is not _VALUES:
        return value
    try:
        value = _scalar_constructor.construct_object(node, deep=True)
    finally:
        # The constructor remembers every node it built (and, after an error,
        # the node it was building): kept, they would pile up load after load.
        _scalar_constructor.constructed_objects.clear()
        _scalar_constructor.recursive_objects.clear()
        _scalar_constructor.deep_construct = False
    if type(value) in _IMMUTABLE and len(_VALUES) < 65536 and len(node.value) < 256:
        _VALUES[key] = value
    return value


def _build_plain(root):
    """Plain data of an anchor-free node tree, and the node count the
    :class:`_Builder` would reach; ``None`` for anything unusual.

    Most documents are made of string keys and scalars only: this walk skips
    the paths and the per-node bookkeeping that only errors and aliases
    need.  It gives up on the first thing it does not expect, and the
    builder does the document again to say exactly what is wrong where."""
    count = [1]

    def value_of(node):
        items = node.value
        count[0] += len(items)
        if node.id == 'mapping':
            out = {}
            for knode, vnode in items:
                if knode.id != 'scalar' or knode.tag == _MERGE:
                    raise _GiveUp()
                k = knode.value if knode.tag == _STR else _scalar_value(knode)
                if vnode.id == 'scalar':
                    out[k] = vnode.value if vnode.tag == _STR else _scalar_value(vnode)
                else:
                    out[k] = value_of(vnode)
            return out
        out = []
        for item in items:
            if item.id == 'scalar':
                out.append(item.value if item.tag == _STR else _scalar_value(item))
            else:
                out.append(value_of(item))
        return out

    try:
        if root.id == 'scalar':
            return _scalar_value(root), 1
        return value_of(root), count[0]
    except Exception:  # pylint: disable=broad-except
        return None


class _GiveUp(Exception):
    pass


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
    with gc_paused():
        return _load(text, filename, max_nodes, error_cls)


def _build(node, filename, max_nodes, text):
    # Without an "&" the text holds no anchor, so no node can come twice.
    aliases = '&' in text
    if not aliases:
        built = _build_plain(node)
        if built is not None and built[1] <= max_nodes:
            return built[0], NodePositions(text)
    builder = _Builder(filename, max_nodes, aliases=aliases)
    return builder.build(node, ()), NodePositions(text)


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
        node = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        err = _yaml_error(exc, filename)
        raise error_cls(err.message, filename=filename, line=err.line)
    if node is None:
        return Document({}, {(): (1, 1)}, filename)
    try:
        data, positions = _build(node, filename, max_nodes, text)
    except TemplateError as exc:
        if isinstance(exc, error_cls):
            raise
        raise error_cls(exc.message, path=exc.path, filename=filename, line=exc.line)
    return Document(data, positions, filename)


def load_file(path, max_size=MAX_TEMPLATE_SIZE, error_cls=TemplateError):
    """Read and parse a file; its name goes into every error."""
    try:
        with open(path, 'rb') as handle:
            raw = handle.read(max_size + 1 if max_size else -1)
    except (IOError, OSError) as exc:
        raise error_cls('Could not read %s: %s' % (path, exc.strerror or exc), filename=path)
    return load_text(raw, filename=path, max_size=max_size, error_cls=error_cls)
