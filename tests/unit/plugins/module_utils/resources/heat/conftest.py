# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The group kinds and OS::Heat::Stack are tested by running whole stacks through
the engine, with the engine tests' harness (its fixtures are registered here by
name, as pytest finds fixtures in a conftest's namespace)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...engine.conftest import fast_polls, make_run, stacks  # noqa: F401  pylint: disable=unused-import
