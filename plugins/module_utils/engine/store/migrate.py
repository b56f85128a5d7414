# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Move a stack's record from one state store to another (heat_stack_migrate).

A stack run with the SQLite store on one machine goes to Swift for AWX (or
back): the stack, its nested stacks, their resources and events are copied
as stored, under the locks of both stores, and the source is deleted only
once the target holds everything, so a failure at any point leaves the
source whole.  Secrets are decrypted with the source's vault and encrypted
again with the target's: a key file beside an SQLite store does not travel,
the user's key does.  The cloud is not touched.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses
import os
from typing import Optional

from ...errors import StackersError, StackNotFound, StoreError
from .owner import lock_ttl, new_owner, owner_alive
from .records import ResourceRow
from .secrets import Vault, key_file_key
from .swift import export
from .backends import open_store


@dataclasses.dataclass
class MigrateRequest:
    name: str
    _keywords: dataclasses.KW_ONLY
    store_path: Optional[str] = None
    store_url: Optional[str] = None
    to_store_path: Optional[str] = None
    to_store_url: Optional[str] = None
    store_key: Optional[str] = None
    keep_source: bool = False
    check_mode: bool = False


def _where(path, url):
    return url or path or 'the default SQLite store'


def migrate(request, conn=None):
    if (request.store_path or None, request.store_url or None) == (
            request.to_store_path or None, request.to_store_url or None):
        raise StackersError('The source and target stores are the same (%s): give to_store_path or '
                            'to_store_url' % _where(request.store_path, request.store_url))
    source = open_store(request.store_path, request.store_url, conn, writable=False)
    try:
        stack = source.get_stack(request.name)
        if stack is None or stack.get('parent_id'):
            raise StackNotFound('Stack "%s" not found in %s: nothing to migrate' % (
                request.name, _where(request.store_path, request.store_url)))
        target = open_store(request.to_store_path, request.to_store_url, conn)
        try:
            return _move(request, source, target, stack)
        finally:
            target.close()
    finally:
        source.close()


def _move(request, source, target, stack):
    result = {'changed': True, 'stack_name': request.name,
              'source': _where(request.store_path, request.store_url),
              'target': _where(request.to_store_path, request.to_store_url)}
    if target.get_stack(request.name) is not None:
        raise StoreError('Stack "%s" is already in %s: delete it there, or migrate another name'
                         % (request.name, result['target']))
    if request.check_mode:
        return result
    owner = new_owner()
    source.lock(request.name, owner, lock_ttl(), alive=owner_alive)
    try:
        record = export(source, source.get_stack(request.name))
        recrypt_record(record, _source_vaults(source, request.store_key), target.vault(request.store_key))
        _import(target, record, owner)
        result['resources'] = len(record['resources'])
        result['events'] = len(record['events'])
        if not request.keep_source:
            for one in reversed(record['stacks']):
                source.delete_stack(one['id'], trace=False)   # moved, not deleted
    finally:
        if source.get_stack(request.name) is not None:
            source.unlock(stack['id'], owner)
    return result


def _source_vaults(source, store_key):
    """The user's key, and the key file beside an SQLite source: a stack
    run without a user key has its generated secrets under the file's key,
    and the target (Swift) needs them under the user's."""
    vaults = [source.vault(store_key)] if store_key or os.environ.get('STACKERS_STORE_KEY') else []
    if not getattr(source, 'url', None) and os.path.exists(source.path + '.key'):
        vaults.append(Vault(key_file_key(source.path + '.key')))
    return vaults


def _decrypt(vaults, token):
    for vault in vaults[:-1]:
        try:
            return vault.decrypt(token)
        except StoreError:
            continue    # encrypted with the next one
    if not vaults:
        raise StoreError('The stack\'s secrets are encrypted: give store_key')
    return vaults[-1].decrypt(token)


def recrypt_record(record, before, after):
    """Every encrypted value of an exported ``record`` (swift.export)
    decrypted with the first of the vaults ``before`` that can, and encrypted
    with ``after`` (None: decrypted only, to prove the keys, and left as it
    was).  Returns how many values it holds."""
    count = [0]

    def again(token):
        if token is None:
            return None
        count[0] += 1
        value = _decrypt(before, token)
        return token if after is None else after.encrypt(value)
    for one in record['stacks']:
        one['secrets'] = again(one.get('secrets'))
        one['outputs'] = again(one.get('outputs'))
    for row in record['resources']:
        row['secret_data'] = again(row.get('secret_data'))
    for snapshot in record.get('snapshots') or ():
        snapshot['secrets'] = again(snapshot.get('secrets'))
    return count[0]


def _import(target, record, owner):
    top, nested = record['stacks'][0], record['stacks'][1:]
    made = target.lock(top['name'], owner, lock_ttl(), create=dict(top))
    try:
        for one in nested:
            target.create_stack(dict(one))
        for row in record['resources']:
            target.save_resource(ResourceRow(**row), touch=False)
        for event in sorted(record['events'], key=lambda e: (e['stack_id'], e['seq'])):
            target.add_event(event['stack_id'], dict((k, v) for k, v in event.items()
                                                     if k not in ('stack_id', 'seq')))
        for snapshot in record.get('snapshots') or ():
            target.save_snapshot(dict(snapshot))
        target.keep_version(made['id'])
    finally:
        target.unlock(made['id'], owner)
