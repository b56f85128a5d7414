# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Files a template names by URL, fetched only from the URL prefixes the
user allowed (``files_allowed_urls``), before anything is parsed further.

python-heatclient does this for Heat: it walks the template and its
environments for ``get_file`` URLs and for template resources given by URL
(a resource's ``type``, a ``resource_registry`` entry), reads each once and
sends the contents in the request's ``files`` map.  Here the contents join
the run's ``files`` the same way (a name given in ``files`` wins), so the
template language (hot/template.py) never touches the network: a URL it
meets that is not in ``files`` is refused with its file and line, as every
URL is without an allow-list.  The record keeps the contents, so a rerun of
the stored definition fetches nothing.

Bounds: each file ``max_template_size`` (read no further than one byte past
it), a redirect only to an allowed URL, templates fetched by URL walked for
their own URLs no deeper than ``max_nested_stack_depth``.

The engine never imports Ansible, and does not open URLs on its own: the
caller gives ``opener(url, timeout)`` (the modules: Ansible's ``open_url``
with the task's TLS options, url_opener.py), answering a response with
``geturl()`` and ``read(n)`` or raising OSError.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import base64
from urllib import parse as urlparse

from ...errors import StackersError, TemplateError
from ...hot import loader

FETCH_TIMEOUT = 30
_SCHEMES = ('http', 'https')


def allowed(url, prefixes):
    """True when ``url`` is one of ``prefixes`` or beneath one: the same
    scheme and host, and a path that continues the prefix at a ``/`` (so
    ``https://h/t`` allows ``https://h/t/a.yaml``, never ``https://h/tx`` nor
    ``https://h.evil``)."""
    if urlparse.urlsplit(url).scheme not in _SCHEMES:
        return False
    for prefix in prefixes or ():
        prefix = str(prefix)
        if url == prefix or url.startswith(prefix if prefix.endswith('/') else prefix + '/'):
            return True
    return False


def urls_in(data):
    """(url, is_template) of every URL ``data`` (a template's or an
    environment's) names: ``get_file`` values, and resource types and
    ``resource_registry`` entries that are URLs (templates)."""
    found = []

    def walk(node, key=None):
        if isinstance(node, dict):
            if len(node) == 1 and isinstance(node.get('get_file'), str):
                found.append((node['get_file'], False))
            for k, v in node.items():
                if k in ('type', 'Type') and isinstance(v, str):
                    found.append((v, True))
                walk(v, k)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(data)
    registry = data.get('resource_registry') if isinstance(data, dict) else None
    if isinstance(registry, dict):
        stack = [registry]
        while stack:
            for value in stack.pop().values():
                if isinstance(value, str):
                    found.append((value, True))
                elif isinstance(value, dict):
                    stack.append(value)
    return [(u, t) for u, t in found if urlparse.urlsplit(u).scheme in _SCHEMES]


def fetch_allowed(docs, prefixes, files, limits, *, opener=None):
    """name -> content of every allowed URL that ``docs`` (template and
    environment data) name and ``files`` lacks, and of those the templates
    fetched name in turn.  A URL that is not allowed is left out: the
    template's get_file refuses it, naming where it is written."""
    if not prefixes:
        return {}
    if opener is None:
        raise StackersError('files_allowed_urls is given but this caller has no way to fetch URLs')
    fetched = {}
    todo = [(url, is_tmpl, 0) for doc in docs for url, is_tmpl in urls_in(doc)]
    while todo:
        url, is_template, depth = todo.pop(0)
        if url in files or url in fetched or not allowed(url, prefixes):
            continue
        content = _fetch(url, prefixes, limits.max_template_size, opener)
        fetched[url] = content
        if is_template and depth < limits.max_nested_stack_depth:
            doc = loader.load_text(content, filename=url, max_size=limits.max_template_size)
            todo.extend((u, t, depth + 1) for u, t in urls_in(doc.data))
    return fetched


def _fetch(url, prefixes, size, opener):
    try:
        with opener(url, FETCH_TIMEOUT) as resp:
            final = resp.geturl()
            if final != url and not allowed(final, prefixes):
                raise TemplateError('get_file: %s redirects to %s, which files_allowed_urls does '
                                    'not allow' % (url, final))
            raw = resp.read(size + 1)
    except (OSError, ValueError) as exc:      # urllib's URLError and HTTPError are OSErrors
        raise TemplateError('Could not fetch %s: %s' % (url, getattr(exc, 'reason', None) or exc))
    if len(raw) > size:
        raise TemplateError('%s is larger than %d bytes (max_template_size)' % (url, size))
    try:
        return raw.decode('utf-8')
    except UnicodeDecodeError:
        # binary content travels base64-encoded, as the heat client sends it
        return base64.b64encode(raw).decode('ascii')


def fetch_for_paths(template, environment, prefixes, files, limits, *, opener=None):
    """``fetch_allowed`` for a template and environment files given by path
    (heat_template_validate, which reads them itself)."""
    if not prefixes:
        return {}
    docs = [loader.load_file(path, max_size=limits.max_template_size)
            for path in [template] + list(environment or ())]
    return fetch_allowed([d.data for d in docs], prefixes, files, limits, opener=opener)
