# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::MeteringLabel and OS::Neutron::MeteringRule (Heat's
metering.py): neither can change (every property replaces).  A label
carries no Neutron tags: ``find`` matches its generated name; Neutron
refuses a label's rules that overlap in one direction, so a rule is known by
its label, prefix, direction and exclusion."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .common import NeutronPlugin
from .raw import raw_list


class MeteringLabel(NeutronPlugin):
    type_name = 'OS::Neutron::MeteringLabel'
    entity = 'metering_label'
    collection = 'metering_labels'
    taggable = False
    drift_keys = {'name': 'name', 'description': 'description', 'shared': 'shared'}


class MeteringRule(NeutronPlugin):
    type_name = 'OS::Neutron::MeteringRule'
    entity = 'metering_label_rule'
    taggable = False
    drift_keys = {'remote_ip_prefix': 'remote_ip_prefix', 'direction': 'direction',
                  'excluded': 'excluded'}

    def find(self, ctx):
        props = ctx.properties
        found = raw_list(ctx.conn, '/metering/metering-label-rules', 'metering_label_rules',
                         metering_label_id=props.get('metering_label_id'),
                         remote_ip_prefix=props.get('remote_ip_prefix'),
                         direction=props.get('direction'))
        found = [r for r in found if r.get('excluded') == bool(props.get('excluded'))]
        return found[0]['id'] if len(found) == 1 else None

    def found_is_whole(self, ctx):
        return True
