# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::SecurityGroup and OS::Neutron::SecurityGroupRule (Heat's
security_group.py and security_group_rule.py).

The group's rules follow Heat exactly: on create, when any wanted rule is an
egress rule, the egress rules Neutron put in the new group are deleted first,
then every wanted rule is created in one bulk POST; on update the wanted
rules (plus Neutron's two default egress rules when none is an egress rule)
are compared with the live ones by Heat's rule key, stale ones deleted and
missing ones created in one bulk POST.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ...errors import CloudConflict, CloudTransient, ResourceFailure
from ...hot.type_checks import conflict
from .common import (RAW, NeutronPlugin, as_dict, extensions, listed, lookup_id, prepare_body,
                     prepare_update, raw_delete)

DEFAULT_EGRESS = ({'direction': 'egress', 'ethertype': 'IPv4'},
                  {'direction': 'egress', 'ethertype': 'IPv6'})
_KEYS = ('direction', 'ethertype', 'protocol', 'port_range_min', 'port_range_max',
         'remote_group_id', 'remote_ip_prefix', 'security_group_id')
STATEFUL_EXT = 'stateful-security-group'


def rule_key(rule):
    """Heat's _rule_key: the comparable fields, as strings."""
    return tuple(str(rule.get(k)) if rule.get(k) is not None else None for k in _KEYS)


def format_rule(rule, group_id):
    """Heat's _format_rule: remote_mode resolved (a remote_group_id rule
    without a group refers to its own group), port ranges as strings, an unset
    description left out."""
    rule = dict(rule)
    rule['security_group_id'] = group_id
    if 'remote_mode' in rule:
        mode = rule.pop('remote_mode')
        if mode == 'remote_group_id':
            rule['remote_ip_prefix'] = None
            if not rule.get('remote_group_id'):
                rule['remote_group_id'] = group_id
        else:
            rule['remote_group_id'] = None
    for key in ('port_range_min', 'port_range_max'):
        if rule.get(key) is not None:
            rule[key] = str(rule[key])
    if rule.get('description') is None:
        rule.pop('description', None)
    return rule


def _ordered(low, high):
    """low <= high for numbers; None when they do not compare (the schema
    refuses those)."""
    try:
        return low <= high
    except TypeError:
        return None


# in a group's data once its rules are set (a group a create made in part has not)
RULES_SET = 'rules_set'


class SecurityGroup(NeutronPlugin):
    type_name = 'OS::Neutron::SecurityGroup'
    entity = 'security_group'
    collection = 'security_groups'
    drift_keys = {'name': 'name', 'description': 'description', 'stateful': 'stateful'}

    @classmethod
    def validate(cls, given):
        """Heat's SecurityGroup.validate, but for stateful false, which Heat
        refuses only when Neutron lacks an extension (create_body asks)."""
        if given.props.get('name') == 'default':
            given.fail('Security groups cannot be assigned the name "default".', 'name')

    def create_body(self, ctx):
        if ctx.properties.get('name') == 'default':
            ctx.fail('Security groups cannot be assigned the name "default".')
        body = prepare_body(self.props(ctx), ctx.physical_name)
        body.pop('rules', None)
        if 'stateful' in body and STATEFUL_EXT not in extensions(ctx.conn):
            if body['stateful'] is False:
                ctx.fail('Neutron does not support stateless security groups; remove the '
                         '"stateful" property or set it to true.')
            body.pop('stateful')
        return body

    def create(self, ctx):
        ident = super(SecurityGroup, self).create(ctx)
        rules = ctx.properties.get('rules') or []
        if rules:
            try:
                if any(r.get('direction') == 'egress' for r in rules):
                    # the POST answered the group's default rules: no GET needed
                    for rule in (ctx.live or {}).get('security_group_rules') or ():
                        if rule.get('direction') == 'egress':
                            raw_delete(ctx.conn, 'security_group_rule', rule['id'])
                self._bulk(ctx, [format_rule(r, ident) for r in rules])
            except (CloudTransient, CloudConflict):
                # the rules' requests failed or lost their answers: the group
                # is made, check_create_complete sets its rules from what it has
                ctx.live = None
                return ident
            ctx.live = None   # its rule list is stale now
        ctx.data[RULES_SET] = True
        return ident

    def found_is_whole(self, ctx):
        # the group a lost answer made: check_create_complete sets its rules
        return super(SecurityGroup, self).found_is_whole(ctx)

    def check_create_complete(self, ctx):
        """Done once the group has its rules: a group this create's requests
        made only in part (its rules' POST failed, or the group's answer was
        lost and find took it) gets them from what it holds (_update_rules)."""
        if not ctx.data.get(RULES_SET):
            self._update_rules(ctx, ctx.properties.get('rules'))
            ctx.data[RULES_SET] = True
        return super(SecurityGroup, self).check_create_complete(ctx)

    def _bulk(self, ctx, rules):
        """Every rule in one POST (Neutron's bulk create takes a list)."""
        sdk.request_json(ctx.conn.network, 'POST', RAW['security_group_rule'][0],
                         {'security_group_rules': rules}, retry_writes=False)

    def update(self, ctx):
        diff = self.prop_diff(ctx)
        rules = diff.pop('rules', None)
        if 'stateful' in diff:
            self._stateful_update_allowed(ctx, diff['stateful'])
        if 'tags' in diff:
            self.set_user_tags(ctx, diff.pop('tags'))
        if diff:
            prepare_update(ctx, diff)
            sdk.call(ctx.conn.network.update_security_group, ctx.physical_id, **diff)
        if rules is not None:
            self._update_rules(ctx, rules)

    def _stateful_update_allowed(self, ctx, new):
        if new == (ctx.old_properties or {}).get('stateful'):
            return
        ports = listed(ctx.conn.network.ports, security_group_ids=[ctx.physical_id])
        if ports:
            ctx.fail('Updating the "stateful" property while security group "%s" is attached '
                     'to ports. Detach all ports from the security group and retry. is not '
                     'supported.' % ctx.physical_id)

    def desired(self, ctx, rules):
        wanted = list(rules or [])
        if not any(r.get('direction') == 'egress' for r in wanted):
            wanted.extend(dict(r) for r in DEFAULT_EGRESS)
        return [(rule_key(r), r) for r in (format_rule(r, ctx.physical_id) for r in wanted)]

    def _update_rules(self, ctx, rules, again=True):
        desired = self.desired(ctx, rules)
        desired_keys = set(k for k, _r in desired)
        live = self.show(ctx) or {}
        current = [(rule_key(r), r) for r in live.get('security_group_rules') or ()]
        current_keys = set(k for k, _r in current)
        for key, rule in current:
            if key not in desired_keys:
                raw_delete(ctx.conn, 'security_group_rule', rule['id'])
        missing = desired_keys - current_keys
        ctx.live = None
        if missing:
            try:
                self._bulk(ctx, [r for k, r in desired if k in missing])
            except (CloudConflict, CloudTransient):
                # "rule already exists": another request made it after the
                # group was read (a dead run's, still in flight); or a 5xx or
                # a lost answer, after which the rules may or may not be made.
                # Neutron's bulk create is all or nothing and refuses a rule
                # twice: read again, post what is missing, once.
                if not again:
                    raise
                self._update_rules(ctx, rules, again=False)

    def delete(self, ctx):
        # Neutron deletes a group's rules with the group: Heat's rule-by-rule
        # deletion first would only cost requests.
        super(SecurityGroup, self).delete(ctx)

    def drift(self, ctx, live):
        out = super(SecurityGroup, self).drift(ctx, live)
        if isinstance(live, dict):
            rules = ctx.properties.get('rules')
            want = set(k for k, _r in self.desired(ctx, rules))
            have = set(rule_key(r) for r in live.get('security_group_rules') or ())
            if not any(r.get('direction') == 'egress' for r in rules or ()):
                # The allow-all egress pair is the cloud's default, not the
                # template's: a Neutron configured without it is no drift.
                defaults = set(k for k, _r in self.desired(ctx, []))
                want -= defaults
                have -= defaults
            if want != have:
                out.append('rules')
        return out


class SecurityGroupRule(NeutronPlugin):
    type_name = 'OS::Neutron::SecurityGroupRule'
    entity = 'security_group_rule'
    collection = 'security_group_rules'
    taggable = False   # Neutron rules carry no tags

    @classmethod
    def validate(cls, given):
        """Heat's SecurityGroupRule.validate: ICMP's ports are its type and
        code, which may be in any order."""
        props = given.props
        if props.get('remote_group') is not None and props.get('remote_ip_prefix') is not None:
            given.fail(conflict('remote_group', 'remote_ip_prefix'), 'remote_group')
        low, high = props.get('port_range_min'), props.get('port_range_max')
        if (low is not None and high is not None and _ordered(low, high) is False
                and props.get('protocol') not in ('icmp', 'icmpv6', 'ipv6-icmp')):
            given.fail('The minimum port number must be less than or equal to the maximum '
                       'port number.', 'port_range_min')

    def create_body(self, ctx):
        body = prepare_body(self.props(ctx))
        body['security_group_id'] = lookup_id(ctx, 'security_group', body.pop('security_group'))
        if 'remote_group' in body:
            body['remote_group_id'] = lookup_id(ctx, 'security_group', body.pop('remote_group'))
        for key in ('port_range_min', 'port_range_max'):
            if body.get(key) is not None:
                body[key] = str(body[key])
        return body

    def find(self, ctx):
        """The rule of the group matching ours (a rule is unique per group
        in Neutron, so the match is this resource's)."""
        try:
            body = self.create_body(ctx)
        except ResourceFailure:   # the group is gone: so is the rule
            return None
        key = rule_key(body)
        for rule in listed(ctx.conn.network.security_group_rules,
                           security_group_id=body['security_group_id']):
            if rule_key(as_dict(rule)) == key:
                return rule.id
        return None
