# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Keystone resource plugins, one module per type family (``registry.py`` lists
their classes; this file stays empty: importing one module of the package
loads only that one)."""
