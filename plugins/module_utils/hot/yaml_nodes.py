# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""YAML nodes to plain Python data, for loader.py.

The composer's node tree is walked once into dicts, lists and scalars, as
Heat's loader would give them (timestamps stay strings).  Most documents
take a fast walk with no per-node bookkeeping; one with anchors (or
anything unusual) takes the builder, which counts the expanded size of
aliases, refuses recursive ones and merge keys, and names the path and
line of what is wrong.  The loader class is also what NodePositions
composes the text with again when a line is asked for.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

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


_STR = 'tag:yaml.org,2002:str'
_TIMESTAMP = 'tag:yaml.org,2002:timestamp'
_MERGE = 'tag:yaml.org,2002:merge'
# Scalars' values by (tag, text), for the types that cannot be changed in place
# (not floats: every NaN read must stay a distinct object).
_VALUES = {}
_IMMUTABLE = frozenset([int, bool, type(None)])

_scalar_constructor = yaml.constructor.SafeConstructor() if yaml is not None else None


class _Builder(object):
    """Turns a composed YAML node tree into plain Python data, naming the
    path and line of what it refuses.

    Alias bookkeeping (which node was built already, how big it expands) is
    only kept when the text can hold an anchor at all: it would otherwise
    be a good part of the walk's cost, for nothing."""

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


def build_data(node, filename, max_nodes, text):
    """The plain data of the composed ``node`` of ``text``; a TemplateError
    (path and line) for what Heat's loader would not give, or when aliases
    expand past ``max_nodes``."""
    # Without an "&" the text holds no anchor, so no node can come twice.
    aliases = '&' in text
    if not aliases:
        built = _build_plain(node)
        if built is not None and built[1] <= max_nodes:
            return built[0]
    try:
        return _Builder(filename, max_nodes, aliases=aliases).build(node, ())
    except RecursionError:
        # libyaml refuses nesting past 1,000 levels itself, with this message;
        # an older one (PyYAML 6.0's wheels) composes it, and the walk runs out
        # of Python's stack first: the same error, at the first line too deep
        raise TemplateError('Error parsing YAML: exceeded maximum nesting depth',
                            filename=filename, line=_too_deep(node))


def _too_deep(root, limit=200):
    """The line of the first node nested deeper than ``limit`` (a walk with
    a stack of its own, visiting each node once: aliases may loop)."""
    stack, seen = [(root, 0)], set()
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return node.start_mark.line + 1
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.id == 'mapping':
            stack.extend((value, depth + 1) for _key, value in node.value)
        elif node.id == 'sequence':
            stack.extend((item, depth + 1) for item in node.value)
    return root.start_mark.line + 1


def compose(text):
    """The node tree of ``text`` (None for an empty document)."""
    return yaml.compose(text, Loader=_Loader)
