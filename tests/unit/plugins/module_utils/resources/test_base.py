# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The physical names resources get: Heat's ``<stack>-<resource>-<random>``."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import re
import string

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import base


def test_short_ids_are_twelve_lowercase_letters_or_digits_and_do_not_repeat():
    ids = [base.short_id() for _i in range(2000)]
    assert all(re.match(r'^[a-z0-9]{12}$', i) for i in ids)
    assert len(set(ids)) == len(ids)
    # every character appears, none far more often than its share
    counts = collections.Counter(''.join(ids))
    assert set(counts) == set(string.ascii_lowercase + string.digits)
    share = 2000 * 12 / 36.0
    assert max(counts.values()) < 1.3 * share and min(counts.values()) > 0.7 * share


def test_other_lengths_are_served():
    assert len(base.short_id(4)) == 4
    assert re.match(r'^[a-z0-9]{40}$', base.short_id(40))


def test_physical_name_keeps_the_suffix_and_the_resource_under_a_limit():
    name = base.physical_name('stack', 'port', suffix='abcdefabcdef')
    assert name == 'stack-port-abcdefabcdef'
    cut = base.physical_name('a-very-long-stack-name', 'port', limit=24, suffix='abcdefabcdef')
    assert len(cut) <= 24 and cut.endswith('-port-abcdefabcdef')
