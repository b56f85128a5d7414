# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Octavia plugins (load balancers and what hangs off them; admin types)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from . import admin, l7, loadbalancer, pool

PLUGINS = dict((cls.type_name, cls) for cls in (
    loadbalancer.LoadBalancer, loadbalancer.Listener, pool.Pool, pool.PoolMember,
    pool.HealthMonitor, l7.L7Policy, l7.L7Rule, admin.Flavor, admin.FlavorProfile, admin.Quota))
