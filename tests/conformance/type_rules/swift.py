# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Swift's types: Heat 27's SwiftContainer keeps the base validate() (the
property schema and the deletion policy, which the template-level checks
already cover), so it has no rule of its own and no case here."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

CASES = ()
