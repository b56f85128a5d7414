# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Glance's types: the rules of Heat 27's GlanceWebImage.validate().
OS::Glance::Image is a NoneResource in Heat 27, whose validate() checks
nothing (not even its properties)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from type_rules import rule

WEB_IMAGE = 'OS::Glance::WebImage'
OTHER = '''
        other:
          type: OS::Cinder::Volume
          properties: {size: 1}
'''

CASES = (
    rule(WEB_IMAGE, 'aki-ari-ami-formats-match', '''
        res:
          type: OS::Glance::WebImage
          properties: {location: 'http://example.com/k', container_format: aki, disk_format: raw}
        ''', '''
        res:
          type: OS::Glance::WebImage
          properties: {location: 'http://example.com/k', container_format: aki, disk_format: aki}
        ''', "Invalid mix of disk and container formats. When setting a disk or container format "
             "to one of 'aki', 'ari', or 'ami', the container and disk formats must match.")
    # a format waiting on an attribute reads as empty: a container format
    # that waits is no aki/ari/ami, a disk format that waits matches none
    + rule(WEB_IMAGE, 'formats-waiting-on-an-attribute', '''
        res:
          type: OS::Glance::WebImage
          properties: {location: 'http://example.com/k', container_format: ami,
                       disk_format: {get_attr: [other, size]}}
        ''' + OTHER, '''
        res:
          type: OS::Glance::WebImage
          properties: {location: 'http://example.com/k', container_format: {get_attr: [other, size]},
                       disk_format: raw}
        ''' + OTHER, 'Invalid mix of disk and container formats.')
    + rule(WEB_IMAGE, 'members-of-a-shared-image', '''
        res:
          type: OS::Glance::WebImage
          properties: {location: 'http://example.com/i', container_format: bare, disk_format: qcow2,
                       members: [demo], visibility: public}
        ''', '''
        res:
          type: OS::Glance::WebImage
          properties: {location: 'http://example.com/i', container_format: bare, disk_format: qcow2,
                       members: [demo], visibility: shared}
        ''', 'members property should only be specified for visibility with value shared.')
    # visibility defaults to private, and reads so while it waits on an
    # attribute; members waiting on one read as none
    + rule(WEB_IMAGE, 'members-visibility-by-default', '''
        res:
          type: OS::Glance::WebImage
          properties: {location: 'http://example.com/i', container_format: bare, disk_format: qcow2,
                       members: [demo], visibility: {get_attr: [other, size]}}
        ''' + OTHER, '''
        res:
          type: OS::Glance::WebImage
          properties: {location: 'http://example.com/i', container_format: bare, disk_format: qcow2,
                       members: {get_attr: [other, size]}}
        ''' + OTHER, 'members property should only be specified for visibility with value shared.')
)
