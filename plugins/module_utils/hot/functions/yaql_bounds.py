# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""yaql's endless and huge generators, bounded.

Heat's ``[yaql]`` limits stop a collection that is *materialised* past
``limit_iterators`` and a value past ``memory_quota``, but a stream that is
only counted or scanned escapes both: ``range(0, 100000000).len()`` runs
for minutes, ``sequence().len()`` forever.  The yaql context a template's
expressions run in (a child of yaql's own, built through its public
``register_function``) replaces ``range``, ``sequence``, ``repeat`` and
``cycle`` with versions that stop with :class:`Exhausted` after ``budget``
items, the most any value may hold (hot/limits.py ``max_items``).
``generate``/``generateMany`` are left as yaql has them: their producer is
the template's own lambda, evaluated per item, and the same limits apply to
what they build.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import itertools


class Exhausted(Exception):
    """A bounded generator went past its budget."""

    def __init__(self, function, budget):
        super(Exhausted, self).__init__(function, budget)
        self.function = function
        self.budget = budget


def _bounded(iterator, function, budget):
    for count, item in enumerate(iterator):
        if count >= budget:
            raise Exhausted(function, budget)
        yield item


def bounded_context(root, budget):
    """A child of ``root`` in which the generators above are bounded."""
    from yaql.language import specs, yaqltypes

    @specs.name('range')
    @specs.parameter('stop', int)
    def range_stop(stop):
        return _bounded(iter(range(stop)), 'range', budget)

    @specs.name('range')
    @specs.parameter('start', int)
    @specs.parameter('stop', int)
    @specs.parameter('step', int)
    def range_start_stop(start, stop, step=1):
        return _bounded(iter(range(start, stop, step)), 'range', budget)

    @specs.name('sequence')
    @specs.parameter('start', int)
    @specs.parameter('step', int)
    def sequence(start=0, step=1):
        return _bounded(itertools.count(start, step), 'sequence', budget)

    @specs.name('repeat')
    @specs.method
    @specs.parameter('value', nullable=True)
    @specs.parameter('times', int)
    def repeat(value, times=-1):
        made = itertools.repeat(value) if times < 0 else itertools.repeat(value, times)
        return _bounded(made, 'repeat', budget)

    @specs.name('cycle')
    @specs.method
    @specs.parameter('collection', yaqltypes.Iterable())
    def cycle(collection):
        return _bounded(itertools.cycle(collection), 'cycle', budget)

    context = root.create_child_context()
    for fn in (range_stop, range_start_stop):
        context.register_function(fn, exclusive=True)
    for fn in (sequence, repeat, cycle):
        context.register_function(fn, exclusive=True)
    return context
