# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cinder's types: the rules of Heat 27's CinderVolume.validate() and
CinderVolumeType.validate().  OS::Cinder::VolumeAttachment has no rule of
its own (Heat's CinderVolumeAttachment keeps the base validate)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from type_rules import rule

VOLUME = 'OS::Cinder::Volume'
VOLUME_TYPE = 'OS::Cinder::VolumeType'

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
    # imageRef is Heat's deprecated name of image: its translation makes it
    # the image, so the message names "image"
    + rule(VOLUME, 'imageRef-is-the-image', '''
        res:
          type: OS::Cinder::Volume
          properties: {size: 1, imageRef: cirros, snapshot_id: snap}
        ''', '''
        res:
          type: OS::Cinder::Volume
          properties: {size: 1, imageRef: cirros}
        ''', "currently specified options: ['snapshot_id', 'image'].")
    # a given imageRef replaces the image even when it waits on an attribute
    # (then empty): the image named beside it is no source any more
    + rule(VOLUME, 'imageRef-waiting-replaces-the-image', '''
        res:
          type: OS::Cinder::Volume
          properties: {size: 1, image: cirros, snapshot_id: snap}
        ''', '''
        res:
          type: OS::Cinder::Volume
          properties: {size: 1, image: cirros, imageRef: {get_attr: [other, size]}, snapshot_id: snap}
        other:
          type: OS::Cinder::Volume
          properties: {size: 1}
        ''', "currently specified options: ['snapshot_id', 'image'].")
    + rule(VOLUME_TYPE, 'projects-of-a-public-type', '''
        res:
          type: OS::Cinder::VolumeType
          properties: {name: gold, projects: [demo], is_public: true}
        ''', '''
        res:
          type: OS::Cinder::VolumeType
          properties: {name: gold, projects: [demo], is_public: false}
        ''', 'Can not specify property "projects" if the volume type is public.')
    # is_public defaults to true, and reads so while it waits on an attribute
    + rule(VOLUME_TYPE, 'projects-of-a-type-public-by-default', '''
        res:
          type: OS::Cinder::VolumeType
          properties: {name: gold, projects: [demo]}
        ''', '''
        res:
          type: OS::Cinder::VolumeType
          properties: {name: gold, projects: []}
        ''', 'Can not specify property "projects" if the volume type is public.')
    + rule(VOLUME_TYPE, 'is-public-waiting-reads-its-default', '''
        res:
          type: OS::Cinder::VolumeType
          properties: {name: gold, projects: [demo], is_public: {get_attr: [other, bootable]}}
        other:
          type: OS::Cinder::Volume
          properties: {size: 1}
        ''', '''
        res:
          type: OS::Cinder::VolumeType
          properties: {name: gold, projects: {get_attr: [other, size]}}
        other:
          type: OS::Cinder::Volume
          properties: {size: 1}
        ''', 'Can not specify property "projects" if the volume type is public.')
)
