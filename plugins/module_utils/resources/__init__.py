# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The resource plugins, by service (one package each), and what every plugin shares.

The registry of plugins is ``registry.py``; this file stays empty, so that
importing one module of the package does not load every plugin."""
