# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The base of the Heat types that exist only in the stack record: there is
no cloud object to read, so ``show`` is empty once created and ``check``
always passes (types with their own rule override it)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ..base import ResourcePlugin


class RecordOnly(ResourcePlugin):

    record_only = True

    def show(self, ctx):
        return None if ctx.physical_id is None else {}

    def check(self, ctx):
        return None
