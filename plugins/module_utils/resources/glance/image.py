# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Glance::Image: what Heat 27 keeps of it.

Heat 22 hid the type and made it a NoneResource (its Glance v1 API is gone):
a template that still uses it gets a placeholder that takes any property,
makes nothing in Glance, answers None for every attribute and never updates.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ..heat.none_resource import NoneResource


class Image(NoneResource):
    type_name = 'OS::Glance::Image'
