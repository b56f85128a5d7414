# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The calls a test's mock SDK proxy received, held against the installed
openstacksdk's real proxy.

The plugin tests fake ``conn.<service>`` with a MagicMock, which accepts any
method and any argument. openstacksdk renames arguments between releases
(4.0's ``add_interface_to_router(router, subnet_id=...)`` is ``subnet=`` later),
so a call that only one release takes would pass every unit test. After a test,
``check(mock_proxy, proxy_class)`` binds each direct call to the real method's
signature: run at both ends of the supported range (make compat), that fails
where the collection would fail against a cloud. A full autospec would check
the same but costs a second per test on proxies of several hundred methods."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import inspect

from importlib.metadata import version as _dist_version
from openstack.block_storage import block_storage_service
from openstack.compute import compute_service
from openstack.network import network_service

PROXIES = {
    'network': network_service.NetworkService.supported_versions['2'],
    'compute': compute_service.ComputeService.supported_versions['2'],
    'block_storage': block_storage_service.BlockStorageService.supported_versions['3'],
}


def mismatches(proxy_mock, proxy_class):
    """Messages for the calls ``proxy_class`` would refuse."""
    found = []
    for name, args, kwargs in proxy_mock.mock_calls:
        # 'get_port' is a call on the proxy; 'get_port().to_dict' one on its
        # answer, which is the test's own business.
        if not name or '.' in name or '(' in name:
            continue
        method = getattr(proxy_class, name, None)
        if method is not None and not callable(method):
            continue
        if method is None:
            found.append('openstacksdk %s has no %s.%s' % (_dist_version('openstacksdk'), proxy_class.__module__, name))
            continue
        try:
            inspect.signature(method).bind(proxy_class, *args, **kwargs)
        except TypeError as err:
            found.append('openstacksdk %s: %s(*%r, **%r): %s'
                         % (_dist_version('openstacksdk'), name, args, kwargs, err))
    return found


def check(conn):
    """Fails the test when a service proxy of ``conn`` got a call the
    installed openstacksdk would refuse."""
    found = []
    for service, proxy_class in PROXIES.items():
        found.extend(mismatches(getattr(conn, service), proxy_class))
    assert not found, '\n'.join(found)
