# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The local OpenStack: the real services from PyPI, one process each, behind one front door.

Not part of the collection: it runs on its own interpreter (.venv-cloud) and is started with
``stackers-localcloud``.  See localcloud/README.md.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type
