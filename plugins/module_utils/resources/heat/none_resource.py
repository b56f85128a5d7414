# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::None: a placeholder that accepts any properties and does nothing.

As in Heat: the physical id is a fresh UUID (not the physical name), every
attribute is None, and the resource never needs an update, whatever changes
in its properties (``never_update`` tells the planner so, since the type has
no property schema for update_allowed to be read from).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

from ._record_only import RecordOnly


class NoneResource(RecordOnly):
    type_name = 'OS::Heat::None'
    # Heat's NoneResource._needs_update is always False.
    never_update = True

    def create(self, ctx):
        return str(uuid.uuid4())

    def needs_replace(self, ctx):
        return False

    def attributes(self, ctx, live, names=None):
        # get_attribute answers None for any name, ``show`` included.
        return {'show': None}
