# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The glance resource plugins: each module imported by name (AnsiballZ ships
only what is imported), each class registered in PLUGINS."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .image import Image
from .web_image import WebImage

PLUGINS = dict((cls.type_name, cls) for cls in (WebImage, Image))
