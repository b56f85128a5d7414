# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""iso_8601, expiration, timezone and cron_expression (the wrapper; the cron
grammar has its own test file).  Tables checked against Heat 27.0.1."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.hot import constraints_time as ct
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.constraints_net import Refused

ISO_GOOD = ['2050-01-01', '2050-01-01T23:59:59', '2050-01-01T23:59:59+00:00',
            '2050-01-01T23:59:59+0000', '2012', '2012-1', '20120101', '2012-01-1',
            '2012-0101', '201201-01', '2012-01-01T12', '2012-01-01T1230',
            '2012-01-01T123',             # hour 12, second 3
            '2012-01-01 12:30', '2012-01-01T12:30:5', '2012-01-01T12:30:59.123456789',
            '2012-01-01T12:30:59,5', '2012-01-01T12:30:59Z', '2012-01-01T12:30:59-05',
            '2012-01-01T12:30:59+23:59', '2012-01-01T12:30:59+00:99', '2012-02-29',
            '0001-01-01', '2012-01-01\n', '2050-01-01T00:00:00-0130']
ISO_BAD = [None, 20500101, [], '', 'Fri 13th, 2050', '201201', '2012-13-01',
           '2012-02-30', '2011-02-29', '0000-01-01', '2012-01-01T24:00',
           '2012-01-01T23:60', '2012-01-01T23:59:60', '2012-01-01T12:30:59+24:00',
           '2012-01-01T', ' 2050-01-01', '2050-01-01 ', '2050-W01', '2050-001',
           '2012-1-1T1:00']


@pytest.mark.parametrize('value', ISO_GOOD)
def test_iso_8601_accepts(value):
    ct.iso_8601(value)


@pytest.mark.parametrize('value', ISO_BAD)
def test_iso_8601_refuses(value):
    with pytest.raises(Refused):
        ct.iso_8601(value)


@pytest.mark.parametrize('text, expected', [
    ('2012', datetime.datetime(2012, 1, 1, tzinfo=datetime.timezone.utc)),
    ('2012-01-01T123', datetime.datetime(2012, 1, 1, 12, 0, 3, tzinfo=datetime.timezone.utc)),
    ('2012-01-01T12:30:59.1234567-01:30',
     datetime.datetime(2012, 1, 1, 12, 30, 59, 123456,
                       tzinfo=datetime.timezone(-datetime.timedelta(hours=1, minutes=30)))),
])
def test_parse_iso8601_values(text, expected):
    assert ct.parse_iso8601(text) == expected


EXPIRATION_GOOD = [None, '', 0, [], '2099-01-01', ' 2099-01-01T00:00:00Z ',
                   '9999-12-31T23:59:59']
EXPIRATION_BAD = ['2001-01-01', '1999-12-31T23:59:59Z', 'tomorrow', 5, ['2099-01-01'],
                  '9999-12-31T23:59:59-01:00',   # overflows once made UTC
                  '2099-02-30']


@pytest.mark.parametrize('value', EXPIRATION_GOOD)
def test_expiration_accepts(value):
    ct.expiration(value)


@pytest.mark.parametrize('value', EXPIRATION_BAD)
def test_expiration_refuses(value):
    with pytest.raises(Refused):
        ct.expiration(value)


TZ_GOOD = [None, '', 'Asia/Taipei', 'UTC', 'Europe/Paris', 'EST5EDT', 'Etc/GMT+5', 'US/Pacific']
TZ_BAD = ['wrong_timezone', 'europe/paris', '../etc/passwd', '/UTC', 'Europe/', 5, ['UTC']]


@pytest.mark.parametrize('value', TZ_GOOD)
def test_timezone_accepts(value):
    assert ct.timezone(value) is None


@pytest.mark.parametrize('value', TZ_BAD)
def test_timezone_refuses(value):
    with pytest.raises(Refused):
        ct.timezone(value)


def test_timezone_without_a_tz_database_is_not_checked(monkeypatch):
    import zoneinfo

    def missing(key):
        raise zoneinfo.ZoneInfoNotFoundError(key)
    monkeypatch.setattr(zoneinfo, 'ZoneInfo', missing)
    monkeypatch.setattr(ct, '_ZONES', {})
    assert ct.timezone('Europe/Paris') is False


@pytest.mark.parametrize('value, ok', [
    (None, True), ('', True), ('0 23 * * *', True), ('@daily', True),
    ('* * * * * 100', False), ('* *', False), (5, False), (['* * * * *'], False),
])
def test_cron_expression(value, ok):
    if ok:
        ct.cron_expression(value)
    else:
        with pytest.raises(Refused, match='cron'):
            ct.cron_expression(value)
