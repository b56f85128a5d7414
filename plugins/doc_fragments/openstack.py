# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # The connection options, named as in openstack.cloud so playbooks and
    # module_defaults written for that collection carry over; alone, for
    # plugins that ask the cloud but wait for nothing (the inventory).
    DOCUMENTATION = r'''
requirements:
  - python >= 3.11
  - openstacksdk >= 4.0.0
notes:
  - Connection details can come from C(clouds.yaml) (looked up in the current directory, C(~/.config/openstack) and
    C(/etc/openstack)), from the E(OS_CLOUD) and E(OS_*) environment variables, or from O(cloud) and O(auth).
options:
  cloud:
    description:
      - Named cloud from C(clouds.yaml), or a dict with a cloud's whole configuration.
      - When neither O(cloud) nor O(auth) is given, openstacksdk falls back to the E(OS_CLOUD) variable and the other
        E(OS_*) environment variables, as the C(openstack) client does.
    type: raw
  auth:
    description:
      - Authentication data for the cloud, as the C(auth) section of C(clouds.yaml) holds it (C(auth_url),
        C(username), C(password), C(project_name), C(user_domain_name), C(project_domain_name), ...).
      - Overrides the same keys of O(cloud).
    type: dict
  auth_type:
    description:
      - Name of the keystoneauth plugin to use, for example C(password), C(v3applicationcredential) or C(token).
    type: str
  region_name:
    description:
      - Region of the cloud to use.
    type: str
  interface:
    description:
      - Which endpoint of the service catalog to use.
    type: str
    choices: [admin, internal, public]
    default: public
    aliases: [endpoint_type]
  validate_certs:
    description:
      - Whether to verify the TLS certificates of the cloud's endpoints.
      - When not set, the C(verify) setting of C(clouds.yaml) applies (default V(true)).
    type: bool
    aliases: [verify]
  ca_cert:
    description:
      - Path to a CA bundle to verify the endpoints' certificates with.
    type: str
    aliases: [cacert]
  client_cert:
    description:
      - Path to a client certificate for TLS client authentication.
    type: str
    aliases: [cert]
  client_key:
    description:
      - Path to the private key of O(client_cert).
    type: str
    aliases: [key]
  api_timeout:
    description:
      - Seconds to wait for one API request to answer.
    type: int
'''

    # openstack.cloud's wait and timeout, which the modules add (each
    # fragment a literal: ansible-test reads them without running Python).
    WAIT = r'''
options:
  wait:
    description:
      - Whether the module waits for the cloud to finish what it asked (modules that change nothing ignore it).
    type: bool
    default: true
  timeout:
    description:
      - Seconds the module waits for the cloud to finish, when O(wait) is set.
    type: int
    default: 180
'''
