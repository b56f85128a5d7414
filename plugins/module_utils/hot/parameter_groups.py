# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ``parameter_groups`` section, checked as Heat checks it.

The section, when not empty, is a list of groups; each group has a
``parameters`` list (``label``, ``description`` and any other key are free);
a parameter may be in one group only and must exist.  Heat counts its
pseudo parameters ``OS::stack_id`` and ``OS::project_id`` as existing (not
``OS::stack_name``, which it only has once a stack is named).  Heat also
fails on any template whose parameter names are not all strings (it joins
them into a log line); that check lives here too, so call this function for
every template, with or without groups.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ..errors import TemplateError

SECTION = 'parameter_groups'
_ALWAYS_THERE = ('OS::stack_id', 'OS::project_id')


def _error(doc, message, path):
    message = 'Parameter Groups error: %s' % message
    if doc is not None:
        return doc.error(TemplateError, message, path)
    return TemplateError(message, path=path)


def validate_parameter_groups(raw, schemas, doc=None):
    """Check the template's ``parameter_groups`` value ``raw`` against the
    declared parameters ``schemas`` (names -> schema, or just names).
    Returns what ``template validate`` shows as ``ParameterGroups`` (the
    section as written) or None when there is nothing to show; raises
    TemplateError with the line when ``doc`` (the template Document) is
    given."""
    names = list(_ALWAYS_THERE) + [n for n in schemas if n not in _ALWAYS_THERE]
    for name in names:
        if not isinstance(name, str):
            where = ('parameters', name)
            message = 'parameter name %r is not a string' % (name,)
            if doc is not None:
                raise doc.error(TemplateError, message, where)
            raise TemplateError(message, path=where)
    if not raw:
        return None
    if not isinstance(raw, list):
        raise _error(doc, 'the parameter_groups section must be a list', (SECTION,))
    grouped = []
    for index, group in enumerate(raw):
        where = (SECTION, index)
        if not isinstance(group, dict):
            raise _error(doc, 'each parameter group must be a mapping', where)
        label = group.get('label', '')
        members = group.get('parameters')
        if members is None:
            raise _error(doc, "parameter group '%s' has no parameters list" % label, where)
        if not isinstance(members, list):
            raise _error(doc, "the parameters of group '%s' must be a list" % label,
                         where + ('parameters',))
        for position, name in enumerate(members):
            at = where + ('parameters', position)
            if name in grouped:
                raise _error(doc, "parameter %s is in more than one parameter group "
                             "(again in group '%s')" % (name, label), at)
            grouped.append(name)
            if name not in names:
                raise _error(doc, "parameter %s of group '%s' is not a declared parameter"
                             % (name, label), at)
    return raw
