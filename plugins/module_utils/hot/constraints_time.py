# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Time custom constraints: iso_8601, expiration, timezone, cron_expression.

Heat parses dates with the ``iso8601`` library (through oslo.utils), time
zones with ``zoneinfo`` and cron lines with ``croniter``.  The grammar below
accepts exactly the strings that library accepts (including its quirks:
``YYYY`` alone, ``YYYY-M``, ``T123`` read as hour 12 second 3, a trailing
newline) and then builds the datetime, so impossible dates and offsets of a
day or more are refused the same way.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import re

from .constraints_net import Refused
from . import constraints_cron

# year [month [day [time]]]; a bare YYYYMM is refused by the look-ahead.
_ISO_DATE = re.compile(
    r'(?P<year>[0-9]{4})'
    r'(?:(?:-(?P<month_d>[0-9]{1,2})|(?P<month>[0-9]{2})(?!$))'
    r'(?:(?:-(?P<day_d>[0-9]{1,2})|(?P<day>[0-9]{2}))'
    r'(?:[ T](?P<hour>[0-9]{2})'
    r'(?::?(?P<minute>[0-9]{2}))?'
    r'(?::?(?P<second>[0-9]{1,2})(?:[.,](?P<fraction>[0-9]+))?)?'
    r'(?P<tz>Z|(?P<tz_sign>[-+])(?P<tz_hour>[0-9]{2}):?(?P<tz_minute>[0-9]{2})?)?'
    r')?)?)?$')

_UTC = datetime.timezone.utc


def parse_iso8601(text):
    """An aware datetime for ``text``, or raise ValueError/TypeError.

    Without a zone designator the time is taken as UTC, as Heat does."""
    found = _ISO_DATE.match(text)
    if not found:
        raise ValueError('not an ISO 8601 date and time')
    g = found.groupdict()
    zone = _UTC
    if g['tz'] and g['tz'] != 'Z':
        hours = int(g['tz_hour'])
        minutes = int(g['tz_minute'] or 0)
        if g['tz_sign'] == '-':
            hours, minutes = -hours, -minutes
        zone = datetime.timezone(datetime.timedelta(hours=hours, minutes=minutes))
    fraction = (g['fraction'] or '')[:6]
    return datetime.datetime(
        year=int(g['year']),
        month=int(g['month'] or g['month_d'] or 1),
        day=int(g['day'] or g['day_d'] or 1),
        hour=int(g['hour'] or 0), minute=int(g['minute'] or 0), second=int(g['second'] or 0),
        microsecond=int(fraction.ljust(6, '0')), tzinfo=zone)


def iso_8601(value):
    try:
        parse_iso8601(value)
    except (ValueError, TypeError, OverflowError):
        raise Refused('not an ISO 8601 date and time')


def _utcnow():
    return datetime.datetime.now(_UTC).replace(tzinfo=None)


def expiration(value):
    if not value:
        return
    try:
        moment = parse_iso8601(value.strip())
        moment = moment.replace(tzinfo=None) - moment.utcoffset()
    except (ValueError, TypeError, AttributeError, OverflowError):
        raise Refused('not an ISO 8601 date and time')
    if not moment > _utcnow():
        raise Refused('the expiration time is in the past')


_ZONES = {}


def _zone_database_present():
    if 'present' not in _ZONES:
        try:
            import zoneinfo
            zoneinfo.ZoneInfo('UTC')
            _ZONES['present'] = True
        except Exception:
            _ZONES['present'] = False
    return _ZONES['present']


def timezone(value):
    if not value:
        return None
    try:
        import zoneinfo
        zoneinfo.ZoneInfo(value)
        return None
    except Exception as exc:
        if not _zone_database_present():
            # No tz database on this machine: we cannot tell, Heat could.
            return False
        raise Refused('unknown time zone (%s)' % (exc,))


def cron_expression(value):
    if not value:
        return
    problem = constraints_cron.problem(value)
    if problem:
        raise Refused('not a valid cron expression: %s' % problem)
