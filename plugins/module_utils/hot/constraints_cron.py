# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which cron lines Heat's ``cron_expression`` constraint accepts.

Heat accepts a line when ``croniter`` (7.x) can build an iterator from it.
That takes 5, 6 (seconds) or 7 (seconds, year) fields or an ``@hourly``-style
alias; names for months and week days; ranges that may wrap; steps; ``?``
in the day fields; ``L``, ``15W``/``W15`` in the day of month; ``2#3`` and
``L5`` in the day of week; ``R``-style random fields (``H`` ones need a
hash id Heat never gives, so they are refused).  Values produced by a range
are checked again, which is how ``0-5`` is refused in the day of month.
We walk the fields the same way and only keep what validity depends on.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

_BOUNDS = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 6), (0, 59), (1970, 2099))
_FULL_COUNT = (60, 24, 31, 12, 7, 60, 130)
DAY, DOW = 2, 4
_MONTHS = ('jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep',
           'oct', 'nov', 'dec')
_WEEK = ('sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat')
_NAMES = ({}, {}, {'l': 'l'}, dict((m, i + 1) for i, m in enumerate(_MONTHS)),
          dict((d, i) for i, d in enumerate(_WEEK)), {}, {})
_ALIASES = frozenset(('@midnight', '@hourly', '@daily', '@weekly', '@monthly',
                      '@yearly', '@annually'))

_A = re.ASCII
_FIELD = re.compile(r'\S+', _A)
_RANDOM = re.compile(r'^([hr])(?:\((\d+)-(\d+)\))?(?:/(\d+))?$', _A)
_SPAN = re.compile(r'^([^-]+)-([^-/]+)(?:/(\d+))?$', _A)
_NUMBER = re.compile(r'^\d+$', _A)
_STAR_OR_NUMBER = re.compile(r'^(?:\d+|\*)$', _A)
_WEEKDAY_NEAR = re.compile(r'^(?:(\d+)w|w(\d+))$', _A)
_START_STEP = re.compile(r'^(.+)/(.+)$')


def _named_span(names):
    alt = '|'.join(names)
    return '(?:%s)(?:-(?:%s))?' % (alt, alt)


_NTH = re.compile(r'^(?:(?P<head>%s|%s|\w+)#|l)(?P<last>\d+)$'
                  % (_named_span(_WEEK), _named_span(_MONTHS)), _A)


class _Refuse(Exception):
    pass


def _alias(number, index):
    # Only the day of week maps a value (7 is Sunday, as 0).
    return 0 if index == DOW and number == 7 else number


def _by_name(index, text):
    try:
        return _NAMES[index][text]
    except KeyError:
        raise _Refuse("'%s' is not a name known in field %d" % (text, index + 1))


def _unhash(index, expr):
    """Turn an R field into an ordinary one, or refuse an H field."""
    found = _RANDOM.match(expr)
    if not found:
        return expr
    kind, begin, end, step = found.groups()
    if kind == 'h':
        raise _Refuse('H (hashed) fields need a hash id')
    low, high = _BOUNDS[index]
    if begin and end:
        if int(begin) >= int(end):
            raise _Refuse('random range end must be greater than its start')
        for bound in (int(begin), int(end)):
            if not low <= _alias(bound, index) <= high:
                raise _Refuse("'%s' is out of range" % expr)
        low, high = int(begin), int(end)
    if step is not None and int(step) == 0:
        raise _Refuse("'%s' has a zero step" % expr)
    # Any value the random draw may give is valid; take the first one.
    if step is not None:
        return '%d-%d/%s' % (low, high, step)
    return str(low)


def _span_values(index, found, with_step, nth):
    low, high, step = found.group(1), found.group(2), found.group(3) or '1'
    if index == DAY and high == 'l':
        high = '31'
    if not _NUMBER.search(low):
        low = str(_by_name(index, low))
    if not _NUMBER.search(high):
        high = str(_by_name(index, high))
    step = int(step)
    if step == 0:
        raise _Refuse('a step of 0')
    if not (_NUMBER.search(low) and _NUMBER.search(high)):
        raise _Refuse("bands '%s-%s' are not numbers" % (low, high))
    low, high = _alias(int(low), index), _alias(int(high), index)
    first, last = _BOUNDS[index]
    if max(low, high) > last:
        raise _Refuse('%d is out of range' % max(low, high))
    if low == high and not with_step:
        low, high = first, last
    if with_step and low == high:
        values = [low]
    elif low > high:
        values = list(range(low, last + 1, step))
        whole = list(range(first, last + 1))
        skip = 0
        if values[-1] not in whole:
            # croniter fails on this (a year before 1970 in a wrapping range)
            raise _Refuse('%d is out of range' % values[-1])
        from_end = len(whole) - 1 - whole.index(values[-1])
        if whole.index(values[-1]) + step > len(whole) and from_end < step:
            skip = step - from_end
        values += list(range(first + skip, high + 1, step))
    else:
        values = list(range(low, high + 1, step))
    if index == DOW and nth and nth != 'l':
        values = ['%s#%s' % (v, nth) for v in values]
    return values


def _field(index, expr, fields, nth_days):
    if '?' in expr:
        if expr != '?' or index not in (DAY, DOW):
            raise _Refuse("'?' may only stand alone in a day field")
        expr = '*'
    first, last = _BOUNDS[index]
    pending = expr.split(',')
    seen = set()
    values = []
    while pending:
        item = pending.pop()
        nth = None
        if index == DOW:
            special = _NTH.match(str(item))
            if special:
                if special.group('head'):
                    item, nth = special.group('head'), int(special.group('last'))
                    if not 1 <= nth <= 5:
                        raise _Refuse('nth day of week %d is not 1 to 5' % nth)
                else:
                    item, nth = special.group('last'), 'l'
        if index == DAY:
            near = _WEEKDAY_NEAR.match(str(item))
            if near:
                day = int(near.group(1) or near.group(2))
                if not 1 <= day <= 31:
                    raise _Refuse('nearest weekday day %d is out of range' % day)
                if pending or values:
                    raise _Refuse('W takes a single day, not a list or range')
                values.append(day)
                continue
        text = original = str(item)
        if text.startswith('*/') and len(text) > 2:
            text = '%d-%d%s' % (first, last, text[1:])
        found = _SPAN.search(text)
        with_step = False
        if not found:
            # "start/step" reads as "start-<field max>/step"
            text = _START_STEP.sub(r'\1-%d/\2' % last, original)
            found = _SPAN.search(text)
            with_step = bool(found)
        if found:
            more = _span_values(index, found, with_step, nth)
            pending += [v for v in more if v not in seen]
            seen.update(more)
            continue
        if text.startswith('-'):
            raise _Refuse('negative numbers are not allowed')
        value = text if _STAR_OR_NUMBER.search(text) else _by_name(index, text)
        if value not in ('*', 'l'):
            value = _alias(int(value), index)
            if not first <= value <= last:
                raise _Refuse('%s is out of range' % value)
        values.append(value)
        if index == DOW and nth:
            nth_days.setdefault(value, set()).add(nth)
    values = set(values)
    if len(values) == _FULL_COUNT[index]:
        other = fields[DOW] if index == DAY else fields[DAY] if index == DOW else '*'
        if '*' in other:
            values = set(['*'])
    return values


def problem(value):
    """None when croniter accepts ``value``, else why it does not."""
    try:
        line = value.lower()
    except AttributeError:
        return 'a value of type %s is not text' % type(value).__name__
    if line in _ALIASES:
        return None
    fields = _FIELD.findall(line)
    if len(fields) not in (5, 6, 7):
        return 'it must have 5, 6 or 7 fields'
    try:
        nth_days = {}
        week = None
        for index, expr in enumerate(fields):
            values = _field(index, _unhash(index, expr), fields, nth_days)
            if index == DOW:
                week = values
        if nth_days:
            plain = week.difference(nth_days).difference(['*'])
            if plain and len(week) != _FULL_COUNT[DOW]:
                raise _Refuse('day of week mixes plain days with nth days')
    except _Refuse as exc:
        return str(exc)
    return None
