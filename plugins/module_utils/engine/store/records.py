# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The record of one resource, as the engine passes it around.

A ``ResourceRow`` is one row of the store's ``resources`` table (sqlite.py
turns it into columns and back; the JSON columns are already decoded here).
Rows are never changed in place: a step makes a changed copy with
``row.replace(...)`` and commits it (``StackRun.save``), so a reader holding
an older copy (an attribute being computed, a scheduler step) never sees a
half-made change.

``role`` says which object of a resource the row stands for: ``current``
(the one the stack uses), ``new`` (a replacement being made) or ``old`` (a
replaced object waiting for its cleanup).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses
from typing import Any, Dict, List, Optional

CURRENT, NEW, OLD = 'current', 'new', 'old'


@dataclasses.dataclass(frozen=True)
class ResourceRow:
    uuid: str
    name: str
    stack_id: Optional[str] = None
    role: str = CURRENT
    type: Optional[str] = None
    physical_name: Optional[str] = None
    physical_id: Optional[str] = None
    reference_id: Optional[str] = None
    action: Optional[str] = None
    status: Optional[str] = None
    status_reason: Optional[str] = None
    properties: Optional[Dict[str, Any]] = None
    metadata: Any = None
    attrs: Optional[Dict[str, Any]] = None      # the attribute cache (attributes.py)
    data: Optional[Dict[str, Any]] = None       # the handlers' data, secrets cut out
    secret_data: Optional[str] = None           # the handlers' secret data, encrypted
    requires: Optional[List[str]] = None        # names of what it required when written
    created_time: Optional[str] = None
    updated_time: Optional[str] = None
    seq: Optional[int] = None                   # creation order (the store's ORDER BY)

    def replace(self, **changes):
        # dataclasses.replace, without its per-call field introspection: a
        # row is copied several times per resource in a create.  The class
        # has no __post_init__ nor init-only fields, so a copy of its fields
        # is what replace makes.
        unknown = set(changes) - _FIELDS
        if unknown:
            raise TypeError('ResourceRow has no field %s' % ', '.join(sorted(unknown)))
        row = object.__new__(ResourceRow)
        fields = row.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        return row

    @property
    def facts(self):
        """``data``, or an empty dict when it has none (never None)."""
        return self.data or {}


COLUMNS = tuple(f.name for f in dataclasses.fields(ResourceRow))
_FIELDS = frozenset(COLUMNS)


class Rows(dict):
    """uuid -> ResourceRow, with an index by resource name: a run asks for a
    name's rows once per resource, and a scan each time made big stacks
    quadratic."""

    def __init__(self):
        super(Rows, self).__init__()
        self._by_name = {}

    def __setitem__(self, key, row):
        old = self.get(key)
        if old is not None and old.name != row.name:
            self._by_name.get(old.name, {}).pop(key, None)
        super(Rows, self).__setitem__(key, row)
        self._by_name.setdefault(row.name, {})[key] = None

    def __delitem__(self, key):
        row = self[key]
        super(Rows, self).__delitem__(key)
        self._by_name.get(row.name, {}).pop(key, None)

    def pop(self, key, *default):
        if key in self:
            row = self[key]
            del self[key]
            return row
        if default:
            return default[0]
        raise KeyError(key)

    def of(self, name, role=None):
        """The rows of resource ``name`` (of ``role`` when given)."""
        found = [self[u] for u in self._by_name.get(name, ())]
        return [r for r in found if role is None or r.role == role]
