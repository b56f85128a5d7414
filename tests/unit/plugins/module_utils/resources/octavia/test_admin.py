# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""octavia/admin.py: Flavor, FlavorProfile and Quota."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type


from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.octavia import octavia_fakes as fakes  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402

FLAVOR = 'OS::Octavia::Flavor'
PROFILE = 'OS::Octavia::FlavorProfile'
QUOTA = 'OS::Octavia::Quota'
Flavor, Profile, Quota = PLUGINS[FLAVOR], PLUGINS[PROFILE], PLUGINS[QUOTA]
PROJECT = '3724523d3d1e449f80c51eb5c89af615'


class Project(object):
    id = PROJECT


def test_profile_and_flavor_are_done_at_the_answer():
    c = fakes.conn()
    pctx = fakes.ctx(PROFILE, {'flavor_data': '{"loadbalancer_topology": "SINGLE"}',
                               'provider_name': 'noop_driver'}, conn=c, name='prof')
    pctx.physical_id = Profile().create(pctx)
    assert Profile().check_create_complete(pctx) is True
    fctx = fakes.ctx(FLAVOR, {'flavor_profile': 's-prof-abc'}, conn=c, name='fl')
    fctx.physical_id = Flavor().create(fctx)
    assert Flavor().check_create_complete(fctx) is True
    posts = fakes.sent(c, 'POST')
    assert posts[0] == ('/lbaas/flavorprofiles', {'flavorprofile': {
        'name': 's-prof-abc', 'flavor_data': '{"loadbalancer_topology": "SINGLE"}',
        'provider_name': 'noop_driver'}})
    assert posts[1] == ('/lbaas/flavors', {'flavor': {
        'name': 's-fl-abc', 'flavor_profile_id': pctx.physical_id, 'description': '',
        'enabled': True}})
    assert Flavor().attributes(fctx, Flavor().show(fctx))['flavor_profile_id'] == pctx.physical_id
    assert Flavor().find(fctx) == fctx.physical_id
    # a name set back to nothing is the physical name again
    fctx.properties = dict(fctx.properties, name=None, enabled=False)
    fctx.changed = frozenset(['name', 'enabled'])
    Flavor().update(fctx)
    assert Flavor().check_update_complete(fctx) is True
    assert fakes.sent(c, 'PUT')[0][1] == {'flavor': {'enabled': False, 'name': 's-fl-abc'}}
    Flavor().delete(fctx)
    Flavor().delete(fctx)       # gone already: success
    assert Flavor().check_delete_complete(fctx) is True
    assert Flavor().show(fctx) is None


def test_quota_is_one_put_and_delete_resets():
    ctx = fakes.ctx(QUOTA, {'project': 'demo', 'loadbalancer': 5, 'member': -1})
    ctx.conn.identity.find_project.return_value = Project()
    ctx.physical_id = Quota().create(ctx)
    assert ctx.physical_id == 's-res-abc'
    assert fakes.sent(ctx.conn, 'PUT') == [
        ('/lbaas/quotas/%s' % PROJECT, {'quota': {'loadbalancer': 5, 'member': -1}})]
    ctx.conn.identity.find_project.assert_called_once_with('demo', ignore_missing=True)
    assert Quota().show(ctx) == {'id': PROJECT, 'loadbalancer': 5, 'member': -1}
    assert Quota().drift(ctx, {'loadbalancer': 4, 'member': -1}) == ['loadbalancer']
    assert Quota().reference_id(ctx) == 's-res-abc'
    Quota().delete(ctx)
    assert fakes.sent(ctx.conn, 'DELETE') == [('/lbaas/quotas/%s' % PROJECT, None)]


def test_quota_validate_is_heats():
    # the project counts; a limit given as null (an attribute not made yet)
    # reads as 0, which is a value
    assert fakes.refusal(Quota, {'project': 'demo'}) == (
        (), 'At least one of the following properties must be specified: healthmonitor, '
            'listener, loadbalancer, member, pool.')
    assert fakes.refusal(Quota, {'project': 'demo', 'pool': 1}) is None
    assert fakes.refusal(Quota, {'project': 'demo', 'pool': None}, waiting=['pool']) is None
