# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's catalogue answers with Heat's prose taken out, as the collection
answers them (docs/differences.md): every description and support status
message that Heat has becomes ``''`` (a type's doc: Heat's own "No
description available"), every key stays.  Comparing the collection's answer
to this checks both that no key is missing and that no prose came back."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

NO_DESCRIPTION = 'No description available'


def _blank(mapping, key):
    if mapping.get(key) is not None:
        mapping[key] = ''


def _property(prop):
    _blank(prop, 'description')
    for con in prop.get('constraints') or ():
        _blank(con, 'description')
    for nested in (prop.get('schema') or {}).values():
        _property(nested)


def _status(status):
    while status:
        _blank(status, 'message')
        status = status.get('previous_status')


def show(answer):
    """``resource type show`` (``resource_schema``), changed in place and returned."""
    for prop in (answer.get('properties') or {}).values():
        _property(prop)
    for attr in (answer.get('attributes') or {}).values():
        _blank(attr, 'description')
    _status(answer.get('support_status'))
    if 'description' in answer:
        answer['description'] = NO_DESCRIPTION
    return answer


def listed(entries):
    """``resource type list --long`` entries."""
    for entry in entries:
        if 'description' in entry:
            entry['description'] = NO_DESCRIPTION
    return entries


def template(generated):
    """A generated template (either kind)."""
    for section, key in (('parameters', 'description'), ('Parameters', 'Description'),
                         ('outputs', 'description'), ('Outputs', 'Description')):
        for item in (generated.get(section) or {}).values():
            _blank(item, key)
    return generated


def functions(entries):
    """``template function list`` entries (``description`` keys)."""
    for entry in entries:
        _blank(entry, 'description')
    return entries
