# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The few small pieces of ours that the real services need to run here (see README.md)."""
from __future__ import absolute_import, division, print_function
__metaclass__ = type
