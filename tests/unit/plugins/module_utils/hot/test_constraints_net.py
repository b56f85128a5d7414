# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""ip_addr, net_cidr, ip_or_cidr and mac_addr accept what Heat (netaddr +
neutron-lib) accepts; every row was checked against Heat 27.0.1."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.hot import constraints_net as net

IP_GOOD = ['1.1.1.1', '1.0.1.1', '255.255.255.255', '0.0.0.0', '::1', '::',
           '2002:2002::20c:29ff:fe7d:811a', '2002::', '2002::1',
           '::ffff:1.2.3.4', '2001:0db8:0000:0000:0000:0000:0000:0001',
           '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:1.2.3.4', '0001::']
IP_BAD = [None, 123, 1.5, True, [], ['1.2.3.4'], '', ' ', '1.1', '1.1.', '1.1.1',
          '1.1.1.', '1.1.1.256', 'invalidate format', '1.a.1.1',
          '01.2.3.4',            # leading zero: ambiguous (octal?), refused
          '1.2.3.04', '+1.2.3.4', '1.2.3.4 ', ' 1.2.3.4', '1.2.3.4\n',
          '\u0661.2.3.4',        # a non-ASCII digit
          '0x1.2.3.4', '1.2.3.4.5', '2002::2001::1', '2002::g', '2001::0::',
          '20c:29ff:fe7d:811a', '2001:db8::1%eth0', ':::', '00001::',
          '1.2.3.4/32']


@pytest.mark.parametrize('value', IP_GOOD)
def test_ip_addr_accepts(value):
    net.ip_addr(value)


@pytest.mark.parametrize('value', IP_BAD)
def test_ip_addr_refuses(value):
    with pytest.raises(net.Refused):
        net.ip_addr(value)


CIDR_GOOD = ['10.0.0.0/24', '6000::/64', '10.0.0.1/8', '10.0.0.0/0', '10.0.0.0/32',
             '::/0', '::/128', '0.0.0.0/0', '::ffff:1.2.3.4/96',
             # IPv6 prefixes go through int(): these are read as 64 / 0
             '2001:db8::/+64', '2001:db8::/064', '2001:db8::/6_4', '::/-0',
             # ... or as a netmask / hostmask
             '2001:db8::/ffff:ffff::', '2001:db8::/::ffff']
CIDR_BAD = [None, 5, ['10.0.0.0/8'], '::/129', 'Invalid cidr', '300.0.0.0/24',
            '10.0.0.0/33', '10.0.0/24', '10.0/24', '10/8', '10.0.a.10/24',
            '8.8.8.0/ 24', '8.8.8.8', '10.0.0.0/08', '10.0.0.0/+8',
            '10.0.0.0/255.0.0.0',  # only the canonical spelling round-trips
            '10.0.0.0/-1', '2001:db8::/', '/24', '::/-1', '2001:db8::/ffff::1',
            '1.2.3.4/24/1', '::/64/1', '10.0.0.0/24\n', '10.0.0.0/\u0668',
            '2001:db8::/1.2.3.4']


@pytest.mark.parametrize('value', CIDR_GOOD)
def test_net_cidr_accepts(value):
    net.net_cidr(value)


@pytest.mark.parametrize('value', CIDR_BAD)
def test_net_cidr_refuses(value):
    with pytest.raises(net.Refused):
        net.net_cidr(value)


@pytest.mark.parametrize('value', CIDR_GOOD + IP_GOOD)
def test_ip_or_cidr_accepts(value):
    net.ip_or_cidr(value)


@pytest.mark.parametrize('value', [v for v in CIDR_BAD + IP_BAD if v not in ('1.2.3.4/32', '8.8.8.8')])
def test_ip_or_cidr_refuses(value):
    with pytest.raises(net.Refused):
        net.ip_or_cidr(value)


def test_ip_or_cidr_takes_a_slash_as_a_cidr():
    net.ip_or_cidr('1.2.3.4/32')
    with pytest.raises(net.Refused):
        net.ip_addr('1.2.3.4/32')


MAC_GOOD = ['01:23:45:67:89:ab', '01-23-45-67-89-AB', '0123.4567.89ab',
            '1:2:3:4:5:6', '0123456789ab', '0123456789a', '012345-6789ab',
            '012345:6789ab', '01234:6789a', '0123:4567:89ab', '0123-4567-89ab',
            '01:23:45:67:89:ab\n']   # netaddr's '$' lets one newline through
MAC_BAD = [None, 0x0123456789ab, [], '', '8.8.8.8', '0a-1b-3c-4d-5e-6f-1f',
           '0a-1b-3c-4d-5e-xx', '01:23:45:67:89', '01:23:45:67:89:ab:cd',
           '01:23:45-67:89:ab', 'gg:23:45:67:89:ab', '0123.4567.89abc',
           ' 01:23:45:67:89:ab']


@pytest.mark.parametrize('value', MAC_GOOD)
def test_mac_addr_accepts(value):
    net.mac_addr(value)


@pytest.mark.parametrize('value', MAC_BAD)
def test_mac_addr_refuses(value):
    with pytest.raises(net.Refused):
        net.mac_addr(value)
