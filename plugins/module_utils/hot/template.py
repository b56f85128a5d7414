# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A parsed HOT template: its version, its sections, and the parser that
turns ``{function: args}`` maps into Function objects.

``Template.load`` checks what can be checked without parameters: the
version (CFN formats are recognised and refused), the top-level sections,
and the shape of every resource (allowed keys, ``type`` present) and output
(a map with a ``value``; other keys are ignored as Heat ignores them).  Everything that needs parameter values or conditions
(resource fields, references, functions) is checked by stack.py.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import base64
import os
from urllib import parse as urlparse

from ..errors import StackersError, TemplateError
from . import functions as fns
from . import limits as limits_mod
from . import loader, versions

_SCALARS = frozenset([str, int, float, bool, type(None)])


def _load_document(source, filename, max_size=loader.MAX_TEMPLATE_SIZE):
    if isinstance(source, loader.Document):
        return source
    if isinstance(source, dict):
        return loader.Document(source, {}, filename)
    if isinstance(source, bytes):
        return loader.load_text(source, filename=filename, max_size=max_size)
    if isinstance(source, str):
        if '\n' not in source and not source.lstrip().startswith('{') and os.path.isfile(source):
            doc = loader.load_file(source, max_size=max_size)
            if filename:
                doc.filename = filename
            return doc
        return loader.load_text(source, filename=filename, max_size=max_size)
    raise TemplateError('A template must be a file name, text, a map or a Document, not %s'
                        % type(source).__name__, filename=filename)


def _trees(root):
    """``root`` (None, a directory, or several) as a tuple of real paths, or None."""
    if not root:
        return None
    roots = (root,) if isinstance(root, (str, bytes, os.PathLike)) else tuple(root)
    return tuple(os.path.realpath(r) for r in roots if r) or None


def detect_version(doc):
    """The canonical HOT version of a loaded document (Heat's rules: exactly
    one version key with a string value; CFN formats are refused)."""
    data = doc.data
    if not isinstance(data, dict):
        raise doc.error(TemplateError, 'The template is not a JSON object or a YAML mapping')
    keys = (versions.HOT_KEY,) + versions.CFN_KEYS
    if not any(k in data for k in keys):
        raise doc.error(TemplateError, 'Template format version not found: a HOT template '
                        'starts with "%s: <date>"' % versions.HOT_KEY)
    present = [k for k in keys if isinstance(data.get(k), str)]
    if len(present) > 1:
        raise doc.error(TemplateError, 'Ambiguous template versions (%s)' % ', '.join(present),
                        (present[1],))
    if not present:
        key = next(k for k in keys if k in data)
        raise doc.error(TemplateError, 'The template version was not provided: "%s" must be '
                        'a string such as 2018-08-31' % key, (key,))
    key = present[0]
    if key in versions.CFN_KEYS:
        raise doc.error(TemplateError, 'CloudFormation-format templates (%s: %s) are not '
                        'supported; only HOT templates (%s) are'
                        % (key, data[key], versions.HOT_KEY), (key,))
    try:
        return versions.canonical_version(data[key], path=(key,))
    except TemplateError as err:
        # Lines are looked up only for errors: finding one composes the text again.
        raise err.locate(doc.filename, doc.positions)


class Template(object):
    """A HOT template of a known version, checked for shape."""

    def __init__(self, doc, files=None, root=None, limits=None):
        self.doc = doc
        self.filename = doc.filename
        self.version = detect_version(doc)
        self.info = versions.VERSIONS[self.version]
        self.functions = fns.table(self.info.functions)
        self.condition_functions = fns.table(self.info.condition_functions)
        self.files = files if files is not None else {}
        self.base_dir = (os.path.dirname(os.path.abspath(doc.filename))
                         if doc.filename else None)
        # the trees get_file may read (a path or several: allow_root,
        # files_allowed_paths); None: the template's own directory
        self.root = _trees(root)
        self.limits = limits if limits is not None else limits_mod.DEFAULT
        self._file_cache = {}
        with loader.gc_paused():
            self._check_shape()

    @classmethod
    def load(cls, source, filename=None, files=None, root=None, limits=None):
        """Load from a path, text, dict or Document and check its shape."""
        if isinstance(source, Template):
            return source
        size = (limits or limits_mod.DEFAULT).max_template_size
        return cls(_load_document(source, filename, size), files=files, root=root, limits=limits)

    # -- sections ----------------------------------------------------------
    @property
    def data(self):
        return self.doc.data

    def section(self, name, default=None):
        """A section's raw data; an empty (null) section gives ``default``."""
        value = self.doc.data.get(name)
        return default if value is None else value

    @property
    def description(self):
        return self.section('description', 'No description')

    @property
    def resources(self):
        return self.section('resources', {})

    @property
    def outputs(self):
        return self.section('outputs', {})

    @property
    def parameters(self):
        return self.section('parameters', {})

    @property
    def has_conditions(self):
        return self.info.has_conditions

    def error(self, message, path=(), cls=TemplateError, **kw):
        return self.doc.error(cls, message, tuple(path), **kw)

    def locate(self, err):
        """Fill file and line into a located error raised about this template."""
        if isinstance(err, StackersError) and hasattr(err, 'locate'):
            if err.filename is None or err.filename == self.filename:
                err.locate(self.filename, self.doc.positions)
        return err

    def _check_shape(self):
        data = self.doc.data
        for key in data:
            if key not in self.info.sections:
                raise self.error('"%s" is not a valid top-level section in HOT %s (valid: %s)'
                                 % (key, self.version, ', '.join(sorted(self.info.sections))),
                                 (key,))
        resources = self.resources
        if not isinstance(resources, dict):
            raise self.error('"resources" must be a map of resource definitions, not %s'
                             % type(resources).__name__, ('resources',))
        allowed = self.info.resource_keys
        for name, defn in resources.items():
            path = ('resources', name)
            if not isinstance(defn, dict):
                if not defn:
                    raise self.error('Resource "%s" must contain a "type" key' % name, path)
                raise self.error('"resources" must be a map of resource maps; "%s" is a %s'
                                 % (name, type(defn).__name__), path)
            for key in defn:
                if key not in allowed:
                    raise self.error('"%s" is not a valid keyword inside a resource definition '
                                     'in HOT %s (valid: %s)'
                                     % (key, self.version, ', '.join(allowed)), path + (key,))
            if not defn.get('type'):
                raise self.error('Resource "%s" must contain a non-empty "type" key' % name, path)
        outputs = self.outputs
        if not isinstance(outputs, dict):
            raise self.error('"outputs" must be a map of output definitions, not %s'
                             % type(outputs).__name__, ('outputs',))
        # Keys an output does not know (``condition`` before 2016-10-14
        # included) are ignored, as Heat ignores them in a stack's own
        # template; check_output_keys() is the stricter rule of provider
        # templates.
        for name, defn in outputs.items():
            path = ('outputs', name)
            if not isinstance(defn, dict):
                raise self.error('Output definitions must be maps; "%s" is a %s'
                                 % (name, type(defn).__name__), path)
            if 'value' not in defn:
                raise self.error('Output "%s" must contain a "value" key' % name, path)

    def check_output_keys(self):
        """Refuse output keys this version does not know.  Heat applies this
        only where a template stands for a resource type (a provider
        template: its outputs become the type's attributes)."""
        allowed = self.info.output_keys
        for name, defn in sorted(self.outputs.items(), key=lambda item: str(item[0])):
            for key in defn:
                if key not in allowed:
                    raise self.error('"%s" is not a valid keyword inside an output definition '
                                     'in HOT %s (valid: %s)'
                                     % (key, self.version, ', '.join(allowed)),
                                     ('outputs', name, key))

    # -- parsing -------------------------------------------------------------
    def parse(self, snippet, path=(), stack=None, record=None):
        """Replace every function call this version knows by a Function.
        ``record``, a list, receives every Function created (inner ones
        first), so callers can check or scan them without another walk."""
        return self._parse(snippet, tuple(path), self.functions, stack, record)

    def parse_condition(self, snippet, path=(), stack=None, record=None):
        """The same with the table of condition functions."""
        return self._parse(snippet, tuple(path), self.condition_functions, stack, record)

    def _parse(self, snippet, path, table, stack, record):
        cls = type(snippet)
        if cls is dict:
            if len(snippet) == 1:
                for name, args in snippet.items():
                    fn = table.get(name)
                    if fn is not None:
                        return self._call(fn, name, args, path + (name,), table,
                                          stack=stack, record=record)
            out = {}
            for key, value in snippet.items():
                if type(value) not in _SCALARS:
                    value = self._parse(value, path + (key,), table, stack, record)
                out[key] = value
            return out
        if cls is list or cls is tuple:
            out = []
            for index, value in enumerate(snippet):
                if type(value) not in _SCALARS:
                    value = self._parse(value, path + (index,), table, stack, record)
                out.append(value)
            return out
        return snippet

    def _call(self, fn, name, args, path, table, *, stack, record):
        if fn.macro:
            def parse(snippet, at):
                return self._parse(snippet, at, table, stack, record)
            result = fn(stack, name, args, path, parse=parse)
        else:
            if type(args) not in _SCALARS:
                args = self._parse(args, path, table, stack, record)
            result = fn(stack, name, args, path)
        if record is not None:
            record.append(result)
        return result

    # -- files ---------------------------------------------------------------
    def files_read(self):
        """name -> content of every file this template has read so far
        (get_file, provider templates): what a files map must hold for Heat
        to run it (abandon data)."""
        return dict(self._file_cache)

    def get_file(self, name, path=()):
        """Content for ``get_file`` (and provider templates): from ``files``,
        else read from disk relative to the template, inside the allowed
        tree (``root``, by default the template's own directory)."""
        if name in self._file_cache:
            return self._file_cache[name]
        content = self.files.get(name)
        if content is None:
            content = self._read_file(name, path)
        self._file_cache[name] = content
        return content

    def _read_file(self, name, path):
        # No URL is fetched: a template may not make the host it runs on ask
        # the network for anything (Heat's engine would fetch it).
        if '://' in name and not name.startswith('file://'):
            raise self.error('get_file: cannot fetch "%s"; no URL is fetched, only local files '
                             'beneath the template\'s directory (or files_allowed_paths) and the '
                             '"files" map' % name, path)
        if name.startswith('file://'):
            target = urlparse.unquote(urlparse.urlsplit(name).path)
        else:
            base = self.base_dir or (self.root[0] if self.root else None)
            if base is None:
                raise self.error('get_file: "%s" is not in the "files" map (and the template '
                                 'has no directory to read it from)' % name, path)
            target = os.path.join(base, name)
        # realpath resolves symlinks and "..": what is checked is what is read
        target = os.path.realpath(target)
        trees = self.root or ((os.path.realpath(self.base_dir),) if self.base_dir else ())
        if not any(target == tree or target.startswith(tree.rstrip(os.sep) + os.sep)
                   for tree in trees):
            raise self.error('get_file: "%s" is outside the directory tree templates may read '
                             '(%s); add its directory to files_allowed_paths (allow_root) or give '
                             'its content in "files"' % (name, os.pathsep.join(trees) or 'none'),
                             path)
        key = 'file://' + target
        if key in self.files:
            return self.files[key]
        size = self.limits.max_template_size
        try:
            with open(target, 'rb') as handle:
                raw = handle.read(size + 1)
        except (IOError, OSError) as exc:
            raise self.error('get_file: "%s" was not found in the "files" map, and reading %s '
                             'failed: %s' % (name, target, exc.strerror or exc), path)
        if len(raw) > size:
            raise self.error('get_file: %s is larger than %d bytes (max_template_size)'
                             % (target, size), path)
        try:
            return raw.decode('utf-8')
        except UnicodeDecodeError:
            # Binary content travels base64-encoded, as the heat client sends it.
            return base64.b64encode(raw).decode('ascii')

    def __repr__(self):
        return '<Template %s %s>' % (self.version, self.filename or '')
