# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Network custom constraints: ip_addr, net_cidr, ip_or_cidr, mac_addr.

Heat checks these with netaddr and neutron-lib.  We reproduce what those
accept without either library: IPv4 must be written exactly as its
canonical dotted quad (no leading zeros, no short forms), IPv6 is whatever
the platform's ``inet_pton`` accepts (netaddr defers to it too), a subnet
needs a ``/`` and, for IPv4, the canonical ``address/prefix`` spelling,
while an IPv6 prefix may be anything Python's ``int()`` reads or a netmask
or hostmask.  Each check raises ``_Bad`` (from constraints.py, via the
``bad`` hook) with a reason.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
import socket


class Refused(Exception):
    """The value is refused; the message is the reason."""


_SPACE = re.compile(r'\s')


def _v6_packed(text):
    try:
        return socket.inet_pton(socket.AF_INET6, text)
    except (OSError, ValueError, UnicodeError):
        return None


def _v4_canonical(text):
    """The 32-bit value of ``text`` if it is a canonical dotted quad."""
    parts = text.split('.')
    if len(parts) != 4:
        return None
    value = 0
    for part in parts:
        # isascii() and isdigit(): exactly 0-9 (isdigit alone takes other scripts' digits).
        if not part or len(part) > 3 or not (part.isascii() and part.isdigit()):
            return None
        if len(part) > 1 and part[0] == '0':
            return None
        octet = int(part)
        if octet > 255:
            return None
        value = value * 256 + octet
    return value


def _is_ip(text):
    if not isinstance(text, str) or _SPACE.search(text):
        return False
    if ':' in text:
        return _v6_packed(text) is not None
    return _v4_canonical(text) is not None


def _is_mask(number, width):
    """netaddr's netmask-or-hostmask test on an integer of ``width`` bits."""
    full = (1 << width) - 1
    inv = (number ^ full) + 1
    host = number + 1
    return inv & (inv - 1) == 0 or host & (host - 1) == 0


def _v6_prefix_ok(text):
    try:
        prefix = int(text)
    except ValueError:
        if '/' in text:
            return False
        packed = _v6_packed(text)
        if packed is None:
            return False
        return _is_mask(int.from_bytes(packed, 'big'), 128)
    return 0 <= prefix <= 128


def _is_subnet(text):
    if not isinstance(text, str) or _SPACE.search(text) or '/' not in text:
        return False
    address, prefix = text.split('/', 1)
    if _v4_canonical(address) is not None:
        # Only the canonical spelling round-trips in Heat's check.
        return (prefix.isascii() and prefix.isdigit()
                and str(int(prefix)) == prefix and int(prefix) <= 32)
    if ':' in address and _v6_packed(address) is not None:
        return _v6_prefix_ok(prefix)
    return False


def ip_addr(value):
    if not _is_ip(value):
        raise Refused('not a valid IP address')


def net_cidr(value):
    if not _is_subnet(value):
        raise Refused('not a valid network CIDR (address/prefix)')


def ip_or_cidr(value):
    try:
        has_slash = '/' in value
    except TypeError:
        raise Refused('neither an IP address nor a CIDR')
    if has_slash:
        if not _is_subnet(value):
            raise Refused('not a valid network CIDR (address/prefix)')
    elif not _is_ip(value):
        raise Refused('not a valid IP address')


def _mac_formats():
    hexd = '[0-9A-F]'
    shapes = (
        (6, ':', '{1,2}'), (6, '-', '{1,2}'),
        (3, ':', '{1,4}'), (3, '-', '{1,4}'), (3, r'\.', '{1,4}'),
        (2, '-', '{5,6}'), (2, ':', '{5,6}'),
        (1, '', '{12}'), (1, '', '{11}'),
    )
    # '$' (not \Z) as netaddr has it: one trailing newline is tolerated.
    return [re.compile('^' + sep.join([hexd + count] * groups) + '$',
                       re.IGNORECASE)
            for groups, sep, count in shapes]


_MAC_FORMATS = _mac_formats()


def mac_addr(value):
    if not isinstance(value, str) or not any(f.search(value) for f in _MAC_FORMATS):
        raise Refused('not a valid MAC address')
