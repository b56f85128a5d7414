# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Custom constraints (``custom_constraint: <name>``) as Heat registers them.

Heat knows two kinds of custom constraint.  *Generic* ones only look at the
value (``ip_addr``, ``cron_expression``, ``dns_name`` ...): they are checked
here, with the same acceptance rules as Heat's implementations.  *Service*
ones (``nova.flavor``, ``glance.image`` ...) ask the cloud whether a thing
exists; they are handed to a ``checker(name, value)`` callable when one is
given and are otherwise reported as not checked.  A name Heat does not
register fails validation of any value, as it does in Heat.

The checker contract: ``checker(name, value)`` returns ``True`` or ``None``
when the value is fine, ``False`` or a reason string when it is not,
``NOT_CHECKED`` when it could not tell, or raises ``ConstraintViolation``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import re

from ..errors import StackersError
from . import constraints_net
from .constraints_net import Refused
from . import constraints_time


class ConstraintViolation(StackersError, ValueError):
    """A value does not satisfy a constraint.

    ``constraint`` is the custom constraint's name (when there is one) and
    ``reason`` the detail behind the refusal (may quote the value, so callers
    hiding the value drop it)."""

    def __init__(self, message, constraint=None, reason=None):
        super(ConstraintViolation, self).__init__(message)
        self.constraint = constraint
        self.reason = reason


class _NotChecked(object):
    __slots__ = ()

    def __repr__(self):
        return 'NOT_CHECKED'

    def __bool__(self):
        return False

    __nonzero__ = __bool__


# Returned (never raised) when a service constraint could not be checked.
NOT_CHECKED = _NotChecked()
CHECKED = True

# Heat's ``heat.constraints`` entry points that need a cloud to answer
# (openstack-heat 27.0.1 setup.cfg).  ``nova.network`` and ``test_constr``
# are registered too (with a test class), so they are known names here.
SERVICE_CONSTRAINTS = frozenset((
    'barbican.container', 'barbican.secret', 'blazar.reservation',
    'cinder.backup', 'cinder.qos_specs', 'cinder.snapshot', 'cinder.volume',
    'cinder.vtype', 'designate.zone', 'glance.image', 'ironic.node',
    'ironic.portgroup', 'keystone.domain', 'keystone.group',
    'keystone.project', 'keystone.region', 'keystone.role',
    'keystone.service', 'keystone.user', 'magnum.cluster_template',
    'manila.share_network', 'manila.share_snapshot', 'manila.share_type',
    'mistral.workflow', 'neutron.address_scope', 'neutron.flow_classifier',
    'neutron.lbaas.listener', 'neutron.lbaas.loadbalancer',
    'neutron.lbaas.pool', 'neutron.lbaas.provider', 'neutron.network',
    'neutron.port', 'neutron.port_pair', 'neutron.port_pair_group',
    'neutron.qos_policy', 'neutron.router', 'neutron.security_group',
    'neutron.segment', 'neutron.subnet', 'neutron.subnetpool',
    'neutron.taas.tap_flow', 'neutron.taas.tap_service', 'nova.flavor',
    'nova.host', 'nova.keypair', 'nova.network', 'nova.server',
    'octavia.availabilityzone', 'octavia.availabilityzoneprofile',
    'octavia.flavor', 'octavia.flavorprofile', 'octavia.l7policy',
    'octavia.listener', 'octavia.loadbalancer', 'octavia.pool',
    'test_constr', 'trove.flavor', 'zaqar.queue',
))


# --- DNS names (heat.common.netutils rules) -------------------------------

_FQDN_MAX = 255
# Heat's label rule is lower case only and, being a ``re.match`` ending in
# ``$``, tolerates one trailing newline: both kept on purpose.
_LABEL = re.compile(r'[a-z0-9-]{1,63}$')
_DIGITS = re.compile(r'^[0-9]+$')


def _dns_format_problem(data):
    """Why ``data`` is not a DNS name, or None.  Raises AttributeError for
    values that are not strings, as Heat's check does."""
    if not data:
        return None
    trimmed = data[:-1] if data.endswith('.') else data
    if len(trimmed) > _FQDN_MAX:
        return 'longer than the %d characters a FQDN may have' % _FQDN_MAX
    labels = trimmed.split('.')
    for label in labels:
        if not label:
            return 'it has an empty label'
        if label.startswith('-') or label.endswith('-'):
            return "label '%s' starts or ends with a hyphen" % label
        if not _LABEL.match(label):
            return ("label '%s' must have 1 to 63 characters, each a lower "
                    "case letter, a digit or a hyphen" % label)
    if data.endswith('.') and len(labels) > 1 and _DIGITS.match(labels[-1]):
        return "top level domain '%s' is all digits" % labels[-1]
    return None


def _not_text(value):
    return "a value of type %s is not text" % type(value).__name__


def _dns_name(value):
    try:
        problem = _dns_format_problem(value)
    except AttributeError:
        raise Refused(_not_text(value))
    if problem:
        raise Refused('not a valid DNS name: %s' % problem)


def _rel_dns_name(value):
    if not value:
        return
    if not isinstance(value, str):
        raise Refused(_not_text(value))
    if value.endswith('.'):
        raise Refused('a fully qualified name (ends with a dot); a relative '
                      'name is expected')
    if len(value) > _FQDN_MAX - 3:
        raise Refused('%d characters: with a domain appended it would be longer '
                      'than the %d characters a FQDN may have'
                      % (len(value), _FQDN_MAX))
    _dns_name(value)


def _dns_domain(value):
    if not value:
        return
    _dns_name(value)
    if not value.endswith('.'):
        raise Refused('a domain name must end with a dot')


def _json_string(value):
    if not value:
        return
    try:
        json.loads(value)
    except ValueError as exc:
        raise Refused('not valid JSON: %s' % exc)
    except TypeError:
        raise Refused(_not_text(value))


# name -> callable(value) raising Refused (with a reason); returning False
# means the check cannot be made on this machine (reported as not checked).
GENERIC_CONSTRAINTS = {
    'ip_addr': constraints_net.ip_addr,
    'net_cidr': constraints_net.net_cidr,
    'ip_or_cidr': constraints_net.ip_or_cidr,
    'mac_addr': constraints_net.mac_addr,
    'iso_8601': constraints_time.iso_8601,
    'expiration': constraints_time.expiration,
    'timezone': constraints_time.timezone,
    'cron_expression': constraints_time.cron_expression,
    'dns_name': _dns_name,
    'rel_dns_name': _rel_dns_name,
    'dns_domain': _dns_domain,
    'json_string': _json_string,
}


def is_known(name):
    """Whether Heat registers a custom constraint called ``name``."""
    try:
        return name in GENERIC_CONSTRAINTS or name in SERVICE_CONSTRAINTS
    except TypeError:
        return False


def is_service(name):
    try:
        return name in SERVICE_CONSTRAINTS
    except TypeError:
        return False


def _violation(name, value, reason):
    msg = "%s is not a valid %s" % (_quote(value), name)
    if reason:
        msg += ': %s' % reason
    return ConstraintViolation(msg, constraint=name, reason=reason)


def _quote(value):
    return "'%s'" % (value,)


def check_custom_constraint(name, value, checker=None):
    """Check ``value`` against the custom constraint ``name``.

    Returns ``CHECKED`` when the value is known good and ``NOT_CHECKED``
    when a service constraint could not be asked; raises
    ``ConstraintViolation`` when the value is refused or ``name`` is not a
    constraint Heat knows.
    """
    local = None
    try:
        local = GENERIC_CONSTRAINTS.get(name)
    except TypeError:
        pass
    if local is not None:
        try:
            result = local(value)
        except Refused as exc:
            raise _violation(name, value, str(exc))
        return NOT_CHECKED if result is False else CHECKED
    if not is_service(name):
        raise ConstraintViolation(
            '%s cannot be validated: there is no custom constraint called %s'
            % (_quote(value), name), constraint=name)
    if checker is None:
        return NOT_CHECKED
    result = checker(name, value)
    if result is NOT_CHECKED:
        return NOT_CHECKED
    if result is None or result is True:
        return CHECKED
    if result is False:
        raise _violation(name, value, None)
    raise _violation(name, value, str(result))
