#!/usr/bin/env python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Agreement between our engine and Heat, per case family (``make conformance-report``).

    report.py [--list] [--family F] [--match TEXT]

Prints one table row per family: cases, verdict agreement (differences
listed in differential.KNOWN_VERDICT_DIFFERENCES counted apart), agreement of
resolved values and dependency edges where both accept the case, message
gaps where both reject it, and crashes (exceptions that are not
StackersError).  --list prints every mismatch; all of them are also written
to tests/output/conformance/mismatches.txt."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import argparse
import collections
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, '.build'))
if not os.path.islink(os.path.join(ROOT, '.build', 'ansible_collections', 'stackers', 'orchestration')):
    import runpy
    runpy.run_path(os.path.join(ROOT, 'conftest.py'))

import differential  # noqa: E402
import oracle_runner  # noqa: E402
from suite import ALL, REPORT  # noqa: E402


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument('--list', action='store_true')
    parser.add_argument('--family')
    parser.add_argument('--match')
    args = parser.parse_args(argv)
    chosen = [c for c in ALL if (not args.family or c.family == args.family)
              and (not args.match or args.match in c.id)]
    answers = oracle_runner.ask([case.request() for case in chosen])
    stats = collections.defaultdict(collections.Counter)
    lines = []
    for case, heat in zip(chosen, answers):
        row = stats[case.family]
        row['cases'] += 1
        try:
            ours = differential.run_ours(case)
        except Exception:  # noqa: BLE001 - a crash is what we count here
            row['crash'] += 1
            lines.append('CRASH %s\n  %s' % (case.id, traceback.format_exc().strip().replace('\n', '\n  ')))
            continue
        if case.incomparable:
            row['incomparable'] += 1
            continue
        values = not case.family.startswith('corpus')
        diffs = differential.compare(case, heat, ours, values=values)
        known = differential.known_verdict_difference(case.id)
        if heat.get('valid') != ours.get('valid') and known:
            row['known-diff'] += 1
            lines.append('KNOWN %s (%s)' % (case.id, known))
            continue
        if heat.get('valid') != ours.get('valid'):
            row['verdict-differs'] += 1
        elif heat.get('valid'):
            row['both-valid'] += 1
            if diffs:
                row['values-differ'] += 1
        else:
            row['both-invalid'] += 1
            gaps = differential.message_gaps(case, heat, ours)
            if gaps and not differential.known_message_difference(case.id):
                row['message-gap'] += 1
                diffs = diffs + ['message does not name %s\n  heat: %s\n  ours: %s' % (
                    ', '.join(gaps), differential.message(heat), differential.message(ours))]
        for diff in diffs:
            lines.append('%s %s' % (case.id, diff))
    cols = ('cases', 'verdict-differs', 'known-diff', 'both-valid', 'values-differ',
            'both-invalid', 'message-gap', 'crash')
    print('%-15s' % 'family' + ''.join('%16s' % c for c in cols) + '%10s' % 'agree%')
    total = collections.Counter()
    for family in sorted(stats):
        total.update(stats[family])
        print(_row(family, stats[family], cols))
    print(_row('TOTAL', total, cols))
    os.makedirs(REPORT, exist_ok=True)
    with open(os.path.join(REPORT, 'mismatches.txt'), 'w') as handle:
        handle.write('\n'.join(lines) + '\n')
    if args.list:
        print('\n'.join(lines))
    return 0


def _row(name, row, cols):
    compared = row['cases'] - row['incomparable'] - row['known-diff']
    agree = compared - row['verdict-differs'] - row['values-differ'] - row['crash']
    pct = 100.0 * agree / compared if compared else 0
    return '%-15s' % name + ''.join('%16d' % row[c] for c in cols) + '%9.1f%%' % pct


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
