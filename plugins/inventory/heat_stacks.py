# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
name: heat_stacks
short_description: The servers of Heat stacks run by stackers.orchestration, as an inventory
description:
  - Every C(OS::Nova::Server) of the stacks in a stackers.orchestration state store is a host, those of nested
    stacks, ResourceGroups and AutoScalingGroups included. The store is only read (no lock), so it works while a
    M(stackers.orchestration.heat_stack) run writes.
  - C(ansible_host) is the server's floating address where it has one, else its first fixed address, as the cloud
    answers for the server (one GET per server). Without a cloud, hosts have no address.
  - "Groups: C(heat_<stack>) for each stack, C(heat_<stack>_<resource>) for the group or template resource holding
    a server, and C(heat_meta_<key>_<value>) for each metadata item of the server. Host variables: C(heat_stack),
    C(heat_stack_id), C(heat_stack_outputs), C(heat_resource), C(heat_resource_path) (see O(hostnames)),
    C(heat_nested_stack), C(heat_server_id), C(heat_server_name), C(heat_server_status), C(heat_addresses),
    C(heat_metadata), and C(heat_deployments_url) (the GET TempURL of the deployments document of a server taking
    software deployments, which the role M(stackers.orchestration.software_deployment) reads; only with a cloud to
    sign it)."
  - The inventory file's name must end in C(.heat_stacks.yml) or C(.heat_stacks.yaml).
extends_documentation_fragment:
  - constructed
  - inventory_cache
  - stackers.orchestration.openstack
  - stackers.orchestration.store
options:
  plugin:
    description: The name of this plugin; it marks the file as this plugin's.
    required: true
    type: str
    choices: [stackers.orchestration.heat_stacks]
  store_path:
    description: The state store file the stacks were run with (M(stackers.orchestration.heat_stack)'s O(store_path)).
    type: path
  store_key:
    description: The secret the stacks' secrets were stored with, to read outputs encrypted with it.
    type: str
  stacks:
    description: The names of the stacks whose servers are hosts; all the store's stacks by default.
    type: list
    elements: str
  hostnames:
    description:
      - What names each host, in order of preference, like the C(hostnames) option of the C(amazon.aws.aws_ec2)
        inventory; the first choice that gives the host a name no other host of this inventory has names it.
      - V(name) is the server's name in Nova (C(web-server_a-5zwlqxgxnntz)); without a cloud there is none.
      - V(resource) is the server's resource in its stack, after the resources holding its nested stacks
        (C(server_a); C(pool.0) for member C(0) of the group C(pool)).
      - V(stack_resource) is that path after the stack's name (C(web.server_a)), unique across stacks.
      - V(id) is the server's id.
      - When no choice gives a free name, the host is named by V(stack_resource), else by V(id).
    type: list
    elements: str
    choices: [name, resource, stack_resource, id]
    default: [name]
'''

EXAMPLES = r'''
# demo.heat_stacks.yml
plugin: stackers.orchestration.heat_stacks
cloud: mycloud
store_path: /srv/stacks/stacks.sqlite
stacks: [web]
# hosts named server_a, pool.0... (the resources), not by their Nova names
hostnames: [resource, stack_resource]
keyed_groups:
  - key: heat_metadata.tier | default('none')
    prefix: tier
compose:
  ansible_user: "'cirros'"
'''

from ansible.errors import AnsibleError
from ansible.plugins.inventory import BaseInventoryPlugin, Cacheable, Constructable

from ansible_collections.stackers.orchestration.plugins.module_utils.connection import openstack_connection
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read.inventory import hosts
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError

AUTH_OPTIONS = ('cloud', 'auth', 'auth_type', 'region_name', 'interface', 'validate_certs', 'ca_cert',
                'client_cert', 'client_key', 'api_timeout')


class InventoryModule(BaseInventoryPlugin, Constructable, Cacheable):

    NAME = 'stackers.orchestration.heat_stacks'

    def verify_file(self, path):
        return super(InventoryModule, self).verify_file(path) and \
            path.endswith(('.heat_stacks.yml', '.heat_stacks.yaml'))

    def parse(self, inventory, loader, path, cache=True):
        super(InventoryModule, self).parse(inventory, loader, path)
        self._read_config_data(path)
        key = self.get_cache_key(path)
        use_cache = self.get_option('cache') and cache
        found = None
        if use_cache:
            try:
                found = self._cache[key]
            except KeyError:
                found = None
        if found is None:
            found = self._read()
            if self.get_option('cache'):
                self._cache[key] = found
        self._populate(found)

    def _read(self):
        params = dict((name, self.get_option(name)) for name in AUTH_OPTIONS)
        conn = None
        try:
            if params.get('cloud') or params.get('auth') or self.get_option('store_url'):
                conn = openstack_connection(params)
            return hosts(self.get_option('store_path'), self.get_option('stacks') or None, conn,
                         store_key=self.get_option('store_key'), store_url=self.get_option('store_url'),
                         hostnames=self.get_option('hostnames') or ['name'])
        except StackersError as exc:
            raise AnsibleError('heat_stacks: %s' % exc)
        finally:
            if conn is not None:
                conn.close()

    def _populate(self, found):
        strict = self.get_option('strict')
        for host in found:
            name = host['name']
            self.inventory.add_host(name)
            for group in host['groups']:
                self.inventory.add_group(group)
                self.inventory.add_child(group, name)
            for var, value in host['vars'].items():
                self.inventory.set_variable(name, var, value)
            self._set_composite_vars(self.get_option('compose'), host['vars'], name, strict=strict)
            self._add_host_to_composed_groups(self.get_option('groups'), host['vars'], name, strict=strict)
            self._add_host_to_keyed_groups(self.get_option('keyed_groups'), host['vars'], name,
                                           strict=strict)
