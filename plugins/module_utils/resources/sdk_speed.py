# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Where openstacksdk, keystoneauth and requests spend this engine's CPU, made cheaper.

Measured on a stack create against the local cloud (issue 5), nearly all of
the engine process's CPU is spent below the engine, per API call and per SDK
object: requests scans the whole environment three times a request for
proxies, the SDK matches every key of an answer against every field of its
class with ``str.lower``, reads each field through two Python-level attribute
lookups when it makes a dict of an object (three times per object), and
keystoneauth parses the token's expiry date several times a request.

Each speedup here replaces one library function, and only when that function
is the one it was written against (the first, the SDK's field scan, predates
the digests and checks only that the classmethod is the SDK's own): its source text (the lines of its code,
read from the installed file) must hash to the digest kept beside the patch,
so an upgraded library whose function changed keeps its own.  Each produces
exactly what the function it replaces produces (the unit tests compare both on
real answers); what it keeps it keys on everything the result depends on.
``apply()`` is idempotent; ``sdk.py`` calls it at import.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import hashlib
import os

try:
    from openstack import fields as _fields
    from openstack import resource as _resource
    from openstack import utils as _sdk_utils
except ImportError:  # pragma: no cover - openstacksdk is a runtime requirement
    _resource = None
try:
    from keystoneauth1 import _utils as _ksa_utils
except ImportError:  # pragma: no cover
    _ksa_utils = None
try:
    import urllib.request as _urllib_request
    from urllib.parse import urlsplit as _urlsplit

    import requests.models as _requests_models
    import requests.sessions as _requests_sessions
    import requests.utils as _requests_utils
    from requests.structures import CaseInsensitiveDict as _CaseInsensitiveDict
except ImportError:  # pragma: no cover
    _requests_utils = None

# The digests of the functions the speedups were written against (sha256 of
# their source lines, first 16 hex digits): openstacksdk 4.22, keystoneauth1
# 5.18, requests 2.34.
DIGESTS = {
    'Resource._consume_attrs': '80f3c09b20cb0935',
    'Resource._get_mapping': '810fb389c5dbe8b5',
    'Resource._attr_to_dict': '959bf0c803f2d05b',
    'to_key_val_list': 'bcd3e2541135e62a',
    'get_environ_proxies': '82ec73259a8328d0',
    'should_bypass_proxies': '1113a55be201c306',
    'parse_isotime': '64f32d4261aa3f5a',
}
# Memos are bounded: they hold one entry per resource class or cloud host in
# practice; an unusual caller that makes many only costs them their memo.
MEMO_LIMIT = 1024

_MARK = '_stackers_speed'


def source_digest(fn):
    """The digest of ``fn``'s source lines (first line of its code to its
    last), or None when its source cannot be read."""
    code = getattr(fn, '__code__', None)
    if code is None or not hasattr(code, 'co_lines'):
        return None
    try:
        with open(code.co_filename, 'rb') as f:
            lines = f.read().split(b'\n')
    except (OSError, TypeError):
        return None
    last = max([line for _start, _end, line in code.co_lines() if line] or [code.co_firstlineno])
    text = b'\n'.join(lines[code.co_firstlineno - 1:last])
    return hashlib.sha256(text).hexdigest()[:16]


def _bare(raw):
    return raw.__func__ if isinstance(raw, (classmethod, staticmethod)) else raw


def install(owners, name, digest, build):
    """Replace ``name`` on each of ``owners`` (classes or modules holding the
    same function) with ``build(original)``, once, and only when the function
    there is the expected one.  Answers whether it is in place."""
    raws = [vars(owner).get(name) for owner in owners]
    current = [_bare(raw) for raw in raws]
    if any(getattr(fn, _MARK, False) for fn in current):
        return True
    original = current[0]
    if original is None or any(fn is not original for fn in current):
        return False
    if source_digest(original) != digest:
        return False
    replacement = build(original)
    setattr(replacement, _MARK, True)
    replacement.stackers_original = original
    for owner, raw in zip(owners, raws):
        setattr(owner, name, type(raw)(replacement) if raw is not original else replacement)
    return True


def _bounded(memo):
    if len(memo) >= MEMO_LIMIT:
        memo.clear()


# -- openstacksdk: matching an answer's keys to a class's fields ---------------------------------

def _consume_attrs(original):
    """The SDK compares each key of an answer with every field of the class,
    lower-casing both sides each time (Port: ~40 keys x ~40 fields).  The
    fields a key lands in depend only on the mapping's contents, so they are
    looked up in an index of the mapping, kept per mapping contents (the SDK
    makes a fresh but equal mapping per call)."""
    indexes = {}

    def index_of(mapping):
        if type(mapping) not in (dict, _CaseInsensitiveDict):
            return None
        try:
            key = (type(mapping), tuple(mapping.items()))
            found = indexes.get(key)
        except TypeError:        # an unhashable value: not a field mapping
            return None
        if found is None:
            by_lower = {}
            for map_key, map_value in mapping.items():
                if not (isinstance(map_key, str) and isinstance(map_value, str)):
                    return None
                lowered = (map_key.lower(), map_value.lower())
                for low in lowered[:1] if lowered[0] == lowered[1] else lowered:
                    by_lower.setdefault(low, []).append(map_key)
            _bounded(indexes)
            found = indexes[key] = (frozenset(mapping.values()), by_lower)
        return found

    def consume_attrs(self, mapping, attrs):
        if isinstance(attrs, dict) and not attrs:
            return {}       # what the SDK answers for nothing to match (4 of the 7 calls per object)
        index = index_of(mapping)
        if index is None:
            return original(self, mapping, attrs)
        values, by_lower = index
        relevant_attrs = {}
        consumed_keys = set()
        for key, value in attrs.items():
            if not isinstance(key, str):
                return original(self, mapping, attrs)    # nothing consumed yet
            if key in values or mapping.get(key):
                targets = by_lower.get(key.lower())
                if targets:
                    for map_key in targets:
                        relevant_attrs[map_key] = value
                    consumed_keys.add(key)
        for key in consumed_keys:
            attrs.pop(key)
        return relevant_attrs
    return consume_attrs


def _memoize_attribute_scan():
    """openstacksdk rescans a resource class for its fields (every attribute
    of every class in its MRO through isinstance) each time it builds an
    object from an answer and each time it makes a dict of one: measured,
    ~60% of this engine's CPU in a stack create (1.9 ms per port object; 0.7
    with the scan kept).  A class's fields do not change once it is defined,
    so the scan is kept per class and component kinds.  Applied once, only
    to the SDK's own classmethod (a later SDK that changes it is left as it
    is); the result is the same sequence the SDK computes.  The first
    speedup of this module, before the digests: it checks only that the
    classmethod is there."""
    cls = _resource.Resource
    scan = getattr(cls, '_attributes_iterator', None)
    original = getattr(scan, '__func__', None)
    if original is None or getattr(original, '_stackers_memo', False):
        return
    found = {}

    def attributes_iterator(klass, components=None):
        if components is None:
            components = (_fields.Body, _fields.Header)
        key = (klass, components)
        pairs = found.get(key)
        if pairs is None:
            pairs = found[key] = tuple(original(klass, components))
        return iter(pairs)
    attributes_iterator._stackers_memo = True
    cls._attributes_iterator = classmethod(attributes_iterator)


def _get_mapping(original):
    """A class's field mapping is rebuilt from its fields on each call (seven
    times per object made); fields do not change once a class is defined
    (as in _memoize_attribute_scan), so it is built once per class and
    component and each caller gets its own copy."""
    mappings = {}
    scan = getattr(_resource.Resource._attributes_iterator, '__func__', None)

    def get_mapping(cls, component):
        key = (cls, component)
        found = mappings.get(key)
        if found is None:
            found = original(cls, component)
            if (type(found) not in (dict, _CaseInsensitiveDict)
                    or getattr(cls._attributes_iterator, '__func__', None) is not scan
                    or not getattr(scan, '_stackers_memo', False)):
                return found
            _bounded(mappings)
            mappings[key] = found
        return found.copy()
    return get_mapping


# -- openstacksdk: an object's fields read for to_dict -------------------------------------------

_SLOW = object()


def _attr_to_dict(original):
    """``to_dict`` reads each field through ``Resource.__getattribute__``
    and the field's ``__get__``, which reads the component store through
    ``__getattribute__`` again: five Python-level calls a field.  Where that
    chain can only end in the plain read (the field is the class's own
    descriptor for that name, with no alias and not deprecated, on a class
    that keeps the SDK's ``__getattribute__``), the store is read directly;
    anything else, including any exception, takes the SDK's own path."""
    readers = {}
    base = _resource.Resource
    plain_get = _fields._BaseComponent.__get__
    manager = _resource._ComponentManager
    convert_type = _fields._convert_type

    def field_of(cls, attr):
        if attr == 'id' or cls.__getattribute__ is not base.__getattribute__:
            return None
        for klass in cls.__mro__:
            if attr in vars(klass):
                found = vars(klass)[attr]
                if isinstance(found, _fields._BaseComponent) and type(found).__get__ is plain_get:
                    return found
                return None
        return None

    def read(self, component):
        if component.alias or component.deprecated:
            return _SLOW
        store = object.__getattribute__(self, component.key)
        if not isinstance(store, manager) or type(store).__getitem__ is not manager.__getitem__:
            return _SLOW
        try:
            value = store.attributes[component.name]
        except KeyError:
            return component.default
        if value is None or component.data_type is None:
            return value
        return convert_type(value, component.data_type, component.list_type)

    def attr_to_dict(self, attr, to_munch):
        key = (type(self), attr)
        component = readers.get(key, _SLOW)
        if component is _SLOW:
            component = field_of(type(self), attr)
            _bounded(readers)
            readers[key] = component
        if component is None:
            return original(self, attr, to_munch)
        try:
            value = read(self, component)
        except Exception:  # noqa: B902 - the SDK's own path decides what it means
            value = _SLOW
        if value is _SLOW:
            return original(self, attr, to_munch)
        # From here on, the SDK's own conversion of the value it read.
        if isinstance(value, base):
            return value.to_dict(_to_munch=to_munch)
        if isinstance(value, dict) and to_munch:
            return _sdk_utils.Munch(value)
        if value and isinstance(value, list):
            converted = []
            for raw in value:
                if isinstance(raw, base):
                    converted.append(raw.to_dict(_to_munch=to_munch))
                elif isinstance(raw, dict) and to_munch:
                    converted.append(_sdk_utils.Munch(raw))
                else:
                    converted.append(raw)
            return converted
        return value
    return attr_to_dict


# -- requests: proxies from the environment ------------------------------------------------------

def _environ_data():
    data = getattr(os.environ, '_data', None)
    return data if isinstance(data, dict) else None


def _get_environ_proxies(original):
    """requests reads the proxies of the environment for every request:
    three scans of all of ``os.environ`` (decoding every name), ~12% of the
    engine's CPU.  The answer depends on the URL's host and port, the
    ``no_proxy`` argument and the environment, so it is kept per (URL
    network location, ``no_proxy``) for as long as the environment is equal
    to the one it was read from: any change of any variable (``no_proxy``,
    ``https_proxy``, ...) empties the memo and is seen by the next request.
    The comparison is of ``os.environ``'s own dict (a C-level comparison, no
    decoding); without one, or for anything unusual, requests reads it."""
    kept = {'environ': None, 'answers': {}}

    def get_environ_proxies(url, no_proxy=None):
        data = _environ_data()
        if data is None or not isinstance(url, str):
            return original(url, no_proxy=no_proxy)
        try:
            key = (_urlsplit(url).netloc, no_proxy)
            hash(key)
        except (TypeError, ValueError):
            return original(url, no_proxy=no_proxy)
        environ, answers = kept['environ'], kept['answers']
        if environ != data:
            environ, answers = dict(data), {}
            kept['environ'], kept['answers'] = environ, answers
        found = answers.get(key)
        if found is None:
            found = original(url, no_proxy=no_proxy)
            if data != environ:     # changed while it was read: not kept
                return found
            _bounded(answers)
            answers[key] = dict(found)
            return found
        return dict(found)
    return get_environ_proxies


def _to_key_val_list(original):
    """requests asks whether a value has ``items()`` through a runtime
    ``Protocol`` check (5 us in Python 3.11), seven times a request, most of
    them for plain dicts; for the mapping types requests itself passes, the
    answer is known: their items."""
    known = (dict, collections.OrderedDict, _CaseInsensitiveDict)

    def to_key_val_list(value):
        if type(value) in known:
            return list(value.items())
        return original(value)
    return to_key_val_list


# -- keystoneauth: the token's dates -------------------------------------------------------------

def _parse_isotime(original):
    """keystoneauth parses the token's expiry (an ISO 8601 string) each time
    it checks whether the token is still good: four times a request.  The
    answer is an immutable datetime that depends only on the string."""
    parsed = {}

    def parse_isotime(timestr):
        if not isinstance(timestr, str):
            return original(timestr)
        found = parsed.get(timestr)
        if found is None:
            found = original(timestr)
            _bounded(parsed)
            parsed[timestr] = found
        return found
    return parse_isotime


def apply():
    """Install every speedup whose library function is the expected one;
    answers {name: installed}."""
    done = {}
    if _resource is not None:
        _memoize_attribute_scan()      # first: _get_mapping relies on it
        cls = _resource.Resource
        done['Resource._consume_attrs'] = install(
            [cls], '_consume_attrs', DIGESTS['Resource._consume_attrs'], _consume_attrs)
        done['Resource._get_mapping'] = install(
            [cls], '_get_mapping', DIGESTS['Resource._get_mapping'], _get_mapping)
        done['Resource._attr_to_dict'] = install(
            [cls], '_attr_to_dict', DIGESTS['Resource._attr_to_dict'], _attr_to_dict)
    if _requests_utils is not None:
        stock = (_requests_utils.getproxies is _urllib_request.getproxies_environment
                 and _requests_utils.proxy_bypass is _urllib_request.proxy_bypass_environment)
        bypass = _requests_utils.should_bypass_proxies
        if stock and source_digest(bypass) == DIGESTS['should_bypass_proxies']:
            done['get_environ_proxies'] = install(
                [_requests_utils, _requests_sessions], 'get_environ_proxies',
                DIGESTS['get_environ_proxies'], _get_environ_proxies)
        done['to_key_val_list'] = install(
            [_requests_utils, _requests_sessions, _requests_models], 'to_key_val_list',
            DIGESTS['to_key_val_list'], _to_key_val_list)
    if _ksa_utils is not None:
        done['parse_isotime'] = install(
            [_ksa_utils], 'parse_isotime', DIGESTS['parse_isotime'], _parse_isotime)
    return done
