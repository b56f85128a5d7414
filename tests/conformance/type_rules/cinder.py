# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cinder's types: the rules of Heat 27's CinderVolume.validate()."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from type_rules import rule

VOLUME = 'OS::Cinder::Volume'

CASES = (
    rule(VOLUME, 'neither-size-nor-source', '''
        res:
          type: OS::Cinder::Volume
          properties: {name: data}
        ''', '''
        res:
          type: OS::Cinder::Volume
          properties: {name: data, size: 1}
        ''', 'If neither "backup_id" nor "size" is provided')
    + rule(VOLUME, 'size-and-two-sources', '''
        res:
          type: OS::Cinder::Volume
          properties: {size: 1, image: cirros, snapshot_id: snap}
        ''', '''
        res:
          type: OS::Cinder::Volume
          properties: {size: 1, image: cirros}
        ''', 'If "size" is provided, only one of')
    + rule(VOLUME, 'source-from-a-volume-alone', '''
        res:
          type: OS::Cinder::Volume
          properties: {source_volid: vol, image: cirros}
        ''', '''
        res:
          type: OS::Cinder::Volume
          properties: {source_volid: vol}
        ''', 'one and only one of "source_volid", "snapshot_id"')
    + rule(VOLUME, 'size-waiting-on-an-attribute', '''
        res:
          type: OS::Cinder::Volume
          properties: {description: {get_attr: [other, size]}}
        other:
          type: OS::Cinder::Volume
          properties: {size: 1}
        ''', '''
        res:
          type: OS::Cinder::Volume
          properties: {size: {get_attr: [other, size]}}
        other:
          type: OS::Cinder::Volume
          properties: {size: 1}
        ''', 'If neither "backup_id" nor "size" is provided')
    + rule(VOLUME, 'backup-alone', '''
        res:
          type: OS::Cinder::Volume
          properties: {image: cirros, imageRef: cirros, backup_id: b}
        ''', '''
        res:
          type: OS::Cinder::Volume
          properties: {backup_id: b}
        ''', 'Cannot define the following properties at the same time: image, imageRef')
)
