# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The inputs of a stack as the record keeps them, and the stack
definition built from them.

The record keeps the template text, the environments as data and the
parameters the user gave, so ``existing`` (Heat's PATCH update) and
rollback can rebuild the stack without the original files.  Hidden
parameter values are cut out of all of them: kept encrypted only when the
user supplied a store key (secrets.py), else asked for again.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import json
import os
import posixpath
import urllib.parse

from ...errors import ParameterError, StackersError
from ...hot import loader
from ...hot.limits import DEFAULT as DEFAULT_LIMITS, check_body
from ...hot.validate import _definition
from . import remote_files

ENV_SECTIONS = ('parameters', 'parameter_defaults')
# heat.conf's environment_dir, when no module option names one
GLOBAL_ENVIRONMENT_DIR_VAR = 'STACKERS_GLOBAL_ENVIRONMENT_DIR'


def global_environment_files(directory=None):
    """The environment files every stack gets first, as Heat's
    ``environment_dir`` (/etc/heat/environment.d) gives each stack its
    global environment: the ``*.yaml`` files of ``directory`` (else of
    ``$STACKERS_GLOBAL_ENVIRONMENT_DIR``), sorted by name so that their
    order is the same on every host (Heat's is the directory's).  Neither
    set: none.  A directory named but missing fails: an operator's global
    resource_registry silently missing would change every stack."""
    directory = directory or os.environ.get(GLOBAL_ENVIRONMENT_DIR_VAR)
    if not directory:
        return []
    if not os.path.isdir(directory):
        raise StackersError('The global environment directory %s does not exist (global_environment_dir, '
                            'or $%s)' % (directory, GLOBAL_ENVIRONMENT_DIR_VAR))
    return sorted(glob.glob(os.path.join(glob.escape(directory), '*.yaml')))


def with_global_environment(environment, directory=None):
    """The global environment files, then the stack's own ``environment``
    (later files win, so the stack's own override the global ones)."""
    return global_environment_files(directory) + list(environment or ())


def read_inputs(template, environment=(), parameters=None, files=None, *, limits=DEFAULT_LIMITS,
                urls=(), opener=None):
    """The user's inputs (paths) → the record's form of them, each file
    within ``limits.max_template_size`` (read no further than one byte past
    it: a 1 GB file costs no more than a small one) and the whole within
    ``limits.max_json_body_size``, as Heat's API would refuse them.  The
    files they name by URL beneath ``urls`` (files_allowed_urls) are fetched
    with ``opener`` into ``files``, as python-heatclient sends them
    (remote_files)."""
    size = limits.max_template_size
    if not isinstance(template, (str, bytes, os.PathLike)) or not os.path.isfile(template):
        raise StackersError('The template file %s cannot be read' % (template,))
    raw = loader.read_bounded(template, size)
    # One read: the text is what the record keeps, the document what this run uses.
    tdoc = loader.load_text(raw, filename=template, max_size=size)
    text = raw.decode('utf-8')
    envs, docs = [], []
    for path in environment or ():
        doc = loader.load_file(path, max_size=size)
        docs.append(doc)
        envs.append({'data': doc.data if doc.data is not None else {},
                     'filename': os.path.abspath(path)})
    # ``_docs`` (the loaded files, with their line numbers for errors) is
    # for this run only; ``stored()`` drops it.
    files = dict(files or {})
    files.update(remote_files.fetch_allowed([tdoc.data] + [e['data'] for e in envs], urls, files,
                                            limits, opener=opener))
    inputs = {'template': text, 'template_file': os.path.abspath(template), 'environment': envs,
              'parameters': dict(parameters or {}), 'files': files, '_docs': docs,
              '_template_doc': tdoc}
    check_body(stored(inputs), limits, filename=template)
    return inputs


def stored(inputs):
    return dict((k, v) for k, v in inputs.items() if not k.startswith('_'))


def same(kept, new):
    """Whether two stored definitions are the same stack's inputs: the same
    template and environments wherever they were read from, the same
    parameters, and the same ``files`` where both keep a file (a record
    made from Heat's data keeps the provider templates a run from files
    reads from disk: their digests, nested/steps.py, tell a change).  The
    record's went through JSON."""
    kept, new = _portable(_plain(kept)), _portable(_plain(new))
    if not kept or not new:
        return kept == new
    kept_files, new_files = kept.pop('files', None) or {}, new.pop('files', None) or {}
    shared = set(kept_files) & set(new_files)
    if any(kept_files[k] != new_files[k] for k in shared):
        return False
    kept_text, new_text = kept.pop('template', None), new.pop('template', None)
    # the template as data when the texts differ (parsed only then: a rerun
    # keeps the same text): an adopted stack keeps Heat's as JSON text, the
    # same template as the user's YAML file is the same stack
    if kept_text != new_text:
        kept_data, new_data = _template_data(kept_text), _template_data(new_text)
        if aligned(kept_data, new_data) != new_data:
            return False
    return aligned(kept, new) == new


def _plain(value):
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _template_data(text):
    try:
        return loader.load_text(text or '', max_size=None).data
    except StackersError:
        return text     # compared as text


def _portable(definition):
    """A stored definition without where its files were read from: the same
    template run from another checkout is the same stack."""
    if not definition:
        return definition
    out = dict(definition)
    out.pop('template_file', None)
    out['environment'] = [e.get('data') if isinstance(e, dict) else e
                          for e in out.get('environment') or ()]
    return out


def same_template_name(kept, new):
    """Whether ``kept`` (a template resource's type, a registry entry or a
    get_file name, as a record keeps it) names the file ``new`` names.
    ``openstack stack create`` sends each file the template names under
    its absolute ``file://`` URL and writes that URL in its place, so a
    stack it made keeps ``file:///home/me/t/nested.yaml`` where the user's
    template says ``nested.yaml``: the same file when the URL's path ends
    with the name (whatever directory the user runs from now).  Whether the
    file's content changed is for its nested stack's digest to tell."""
    if kept == new:
        return True
    if not (isinstance(kept, str) and isinstance(new, str) and kept.startswith('file:///')
            and '://' not in new and new):
        return False
    path = posixpath.normpath(urllib.parse.unquote(urllib.parse.urlsplit(kept).path)).split('/')
    name = [p for p in posixpath.normpath(new).split('/') if p not in ('', '.', '..')]
    return bool(name) and path[-len(name):] == name


def aligned(kept, new):
    """``kept`` (data of a record) with each ``file://`` URL that names the
    file ``new`` names at the same place (same_template_name) written as
    ``new`` writes it."""
    if isinstance(kept, dict) and isinstance(new, dict):
        return dict((k, aligned(v, new[k]) if k in new else v) for k, v in kept.items())
    if isinstance(kept, list) and isinstance(new, list) and len(kept) == len(new):
        return [aligned(k, n) for k, n in zip(kept, new)]
    if isinstance(kept, str) and same_template_name(kept, new):
        return new
    return kept


def merge_existing(stored, given, clear_parameters=()):
    """Heat's PATCH update: the stored inputs, with what is given merged over
    them (a new template or environments replace; parameters merge;
    ``clear_parameters`` drop back to their defaults)."""
    merged = dict(stored)
    if given.get('template') is not None:
        merged['template'] = given['template']
        merged['template_file'] = given['template_file']
        merged['_template_doc'] = given.get('_template_doc')
    if given.get('environment'):
        merged['environment'] = given['environment']
        merged['_docs'] = given.get('_docs')
    params = dict(stored.get('parameters') or {})
    params.update(given.get('parameters') or {})
    for name in clear_parameters or ():
        params.pop(name, None)
    merged['parameters'] = params
    files = dict(stored.get('files') or {})
    files.update(given.get('files') or {})
    merged['files'] = files
    return merged


def build(inputs, stack_name, stack_id=None, project_id=None, checker=None, *, limits=None,
          allowed_paths=(), type_rules=None):
    """The StackDefinition of a record's inputs, under ``limits`` (Heat's
    request limits; the template's size is not checked again: the record
    holds what was accepted), get_file reading beneath the template's
    directory and ``allowed_paths``; ``type_rules`` as StackDefinition's (the
    registry's for a stack create: the readers need none, and load no plugin)."""
    tdoc = inputs.get('_template_doc') or loader.load_text(
        inputs['template'], filename=inputs.get('template_file'), max_size=None)
    envs = inputs.get('_docs')
    if envs is None or len(envs) != len(inputs.get('environment') or ()):
        envs = [loader.Document(e['data'], {}, e.get('filename'))
                for e in inputs.get('environment') or ()]
    root = None
    if allowed_paths:
        own = os.path.dirname(os.path.abspath(tdoc.filename)) if tdoc.filename else None
        root = ([own] if own else []) + list(allowed_paths)
    return _definition(tdoc, envs, inputs.get('parameters') or {}, inputs.get('files') or None,
                       root, checker=checker, stack_name=stack_name, stack_id=stack_id,
                       project_id=project_id, limits=limits, type_rules=type_rules)


def hidden_values(sd):
    """name -> value of every hidden parameter with a value."""
    params = sd.parameters
    out = {}
    for name in params.hidden_names():
        try:
            value = params[name]
        except (KeyError, StackersError):
            continue
        if value is not None:
            out[name] = value
    return out


def without_hidden(inputs, hidden):
    """The inputs with hidden parameter values removed everywhere."""
    clean = dict(inputs)
    clean['parameters'] = dict((k, v) for k, v in (inputs.get('parameters') or {}).items()
                               if k not in hidden)
    envs = []
    for env in inputs.get('environment') or ():
        data = dict(env['data'] or {})
        for section in ENV_SECTIONS:
            if isinstance(data.get(section), dict):
                data[section] = dict((k, v) for k, v in data[section].items() if k not in hidden)
        envs.append(dict(env, data=data))
    clean['environment'] = envs
    return clean


def missing_hidden(sd_error_names, hidden):
    """The error for hidden parameters a PATCH update needs again."""
    return ParameterError('The hidden parameter(s) %s are not kept in the state store (no '
                          'store_key was given): pass them again'
                          % ', '.join(sorted(set(sd_error_names) & set(hidden))))
