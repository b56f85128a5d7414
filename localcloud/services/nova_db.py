# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Nova's and Placement's databases as SQLite files in the state dir, kept across restarts.

Nova's functional-test base keeps its API, cell0/cell1 and Placement databases in memory
(eventlet mode).  These replacements of its fixtures point each at a file under
``<state_dir>/nova``: the first start creates the schema (Nova's own migrations, Placement's
models, as the fixtures do), a restart reuses it (the migrations are then a no-op).  The cell
and host mappings already in the API database are reused instead of created again, and the
fake virt driver is told, at start, about the instances the cell database places on its host,
with a node uuid stable across restarts (the stock one is random per process), so the restarted
compute keeps its compute node, resource provider and servers.

Imported by services/nova.py after Nova's functional package (its eventlet patching comes first).
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import uuid

import fixtures
from oslo_db.sqlalchemy import enginefacade
from oslo_db.sqlalchemy import test_fixtures as db_fixtures
import sqlalchemy

from nova import context as nova_context
from nova.compute import power_state
from nova.db.api import api as api_db_api
from nova.db.main import api as main_db_api
from nova.db import migration
from nova import objects
from nova.tests import fixtures as nova_fixtures
from nova.virt import fake as nova_fake_virt

from localcloud.drivers import nova_fake

STATE = {'dir': None}
CELLS = ('cell0', 'cell1')   # nova's base: cell0 and one cell (NUMBER_OF_CELLS = 1)


def _url(name):
    state = STATE['dir']
    os.makedirs(state, exist_ok=True)
    return 'sqlite:///' + os.path.join(state, name + '.sqlite')


def _has_table(engine, table):
    return sqlalchemy.inspect(engine).has_table(table)


class ApiDatabase(nova_fixtures.Database):
    """The API database (flavors, keypairs, server groups, mappings, request specs) in a file."""

    def setUp(self):
        fixtures.Fixture.setUp(self)    # not the parent's: it would build an in-memory database
        assert self.database == 'api', self.database
        facade = enginefacade.transaction_context()
        self.useFixture(db_fixtures.ReplaceEngineFacadeFixture(api_db_api.context_manager, facade))
        from oslo_config import cfg
        api_db_api.configure(cfg.CONF)   # pool and timeouts from the config, then our file
        facade.configure(connection=_url('nova_api'))
        self.get_engine = api_db_api.get_engine
        # fresh file: the whole chain; kept file: a no-op (or the upgrade a newer Nova needs)
        migration.db_sync(database='api')


class CellDatabases(nova_fixtures.CellDatabases):
    """cell0 and cell1 in files; a cell whose file already holds the schema keeps its data."""

    def __init__(self):
        super(CellDatabases, self).__init__()
        self.names = {}    # the mapping's database_connection (its id for the fixture) -> name

    def add_cell_database(self, connection_str, default=False):
        # the parent's steps, with a file instead of an in-memory database
        ctxt_mgr = main_db_api.create_context_manager(
            connection=_url('nova_' + self.names[connection_str]))
        self._ctxt_mgrs[connection_str] = ctxt_mgr
        self._last_ctxt_mgr = ctxt_mgr
        if self._default_ctxt_mgr is None or default:
            self._default_ctxt_mgr = ctxt_mgr

        def get_context_manager(context):
            return ctxt_mgr

        with fixtures.MonkeyPatch('nova.db.main.api.get_context_manager', get_context_manager):
            engine = ctxt_mgr.writer.get_engine()
            engine.dispose()
            if _has_table(engine, 'instances'):
                migration.db_sync(database='main')
            else:
                # migrates the first cell, replays its dump into the next (the parent's cache)
                self._cache_schema(connection_str)


def setup_cells(test):
    """TestCase._setup_cells, reusing the mappings a kept API database already has."""
    from oslo_utils import uuidutils
    ctxt = nova_context.get_context()
    have = {c.name: c for c in objects.CellMappingList.get_all(ctxt)}
    celldbs = CellDatabases()
    for name in CELLS:
        cell = have.get(name)
        if cell is None:
            cell_uuid = (objects.CellMapping.CELL0_UUID if name == 'cell0'
                         else uuidutils.generate_uuid())
            cell = objects.CellMapping(context=ctxt, uuid=cell_uuid, name=name,
                                       transport_url='fake://nowhere/',
                                       database_connection=cell_uuid)
            cell.create()
        test.cell_mappings[name] = cell
        celldbs.names[cell.database_connection] = name
        celldbs.add_cell_database(cell.database_connection, default=(name == 'cell1'))
    test.useFixture(celldbs)
    # start_service creates a host's mapping only when it is not known yet
    for hm in objects.HostMappingList.get_all(ctxt):
        test.host_mappings[hm.host] = hm


class NoDefaultFlavors(fixtures.Fixture):
    """The base's six test flavors are not made: the seed makes m1.tiny..m1.large itself, and a
    kept API database already has its flavors."""


class PlacementDatabase(fixtures.Fixture):
    """Placement's database in a file; schema from its models (as its fixture does), traits and
    resource classes synced at each start (as placement-api does)."""

    def __init__(self, conf_fixture, set_config=False):
        super(PlacementDatabase, self).__init__()
        self.conf_fixture = conf_fixture

    def _setUp(self):
        from placement import db_api as placement_db
        from placement import deploy
        from placement.db.sqlalchemy import migration as placement_migration
        from placement.objects import resource_class, trait
        conf = self.conf_fixture.conf
        self.conf_fixture.config(connection=_url('placement'), group='placement_database')
        placement_db.configure(conf)
        self.get_engine = placement_db.get_placement_engine
        placement_migration.create_schema(self.get_engine())   # create_all: existing tables kept
        trait._TRAITS_SYNCED = False
        resource_class._RESOURCE_CLASSES_SYNCED = False
        deploy.update_database(conf)


def _node_uuid(nodename):
    return str(uuid.uuid5(uuid.NAMESPACE_URL, 'localcloud-nova-node:' + nodename))


class PersistentFakeDriver(nova_fake.TimedFakeDriver):
    """TimedFakeDriver whose 'hypervisor' outlives a restart: a stable node uuid, and the
    instances the database places on this host are running on it again (nova's fake driver
    starts empty, and the compute would then find every server gone)."""

    def init_host(self, host):
        super(PersistentFakeDriver, self).init_host(host)
        ctxt = nova_context.get_admin_context()
        kept = (power_state.RUNNING, power_state.SHUTDOWN, power_state.PAUSED,
                power_state.SUSPENDED)
        for inst in objects.InstanceList.get_by_host(ctxt, host, expected_attrs=['flavor']):
            if inst.power_state not in kept or inst.uuid in self.instances:
                continue
            self.instances[inst.uuid] = nova_fake_virt.FakeInstance(
                inst.name, inst.power_state, inst.uuid)
            flavor = inst.flavor
            self.resources.claim(vcpus=flavor.vcpus, mem=flavor.memory_mb, disk=flavor.root_gb)

    def get_available_resource(self, nodename):
        resources = super(PersistentFakeDriver, self).get_available_resource(nodename)
        if resources:
            resources['uuid'] = _node_uuid(nodename)
        return resources

    def get_nodenames_by_uuid(self, refresh=False):
        return {_node_uuid(n): n for n in self.get_available_nodes()}


def install(state_dir):
    """Point Nova's fixtures at files under state_dir (before the test base's setUp)."""
    STATE['dir'] = state_dir
    nova_fixtures.Database = ApiDatabase
    nova_fixtures.DefaultFlavorsFixture = NoDefaultFlavors
    from placement.tests import fixtures as placement_db_fixtures
    placement_db_fixtures.Database = PlacementDatabase
