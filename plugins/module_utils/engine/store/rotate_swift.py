# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Rotating the key of a Swift state store (``store_url``): every secret of
every stack (its nested stacks', its resources', and those of each kept
version) decrypted with the old user key and encrypted with the new one.

Swift has no transaction over many objects, so the rotation is made safe to
run again instead: each top-level stack is rotated under its own lock (a run
holding it is named and the rotation stops before touching that stack), and
every value is read with the new key first and the old one second.  A
rotation killed half-way, or stopped by a held lock, leaves each value
readable by one of the two keys; running the same command again finishes
it.  Kept versions are rotated too: a leaked old key must not open the
history either.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses

from ...errors import StoreError
from .migrate import recrypt_record
from .owner import lock_ttl, new_owner, owner_alive
from .secrets import Vault, fernet_key


def rotate_swift_key(store, old_key, new_key, check_mode=False):
    """Re-encrypt every secret of the SwiftStore ``store`` from ``old_key``
    to ``new_key`` (both user secrets: a Swift store has no key file).
    Returns ``{'stacks': n, 'secrets': n}`` (stacks: nested ones included,
    as rotate.py counts them); ``check_mode`` decrypts every
    value (a wrong old key fails) and writes nothing."""
    if not old_key:
        raise StoreError('%s keeps its secrets under the user\'s key: give store_key (or set '
                         '$STACKERS_STORE_KEY), the secret they are encrypted with' % store.url)
    if not new_key and not check_mode:
        raise StoreError('%s keeps its secrets under the user\'s key (a key file would die with '
                         'the job): give new_store_key' % store.url)
    old = Vault(fernet_key(old_key), user_key=True)
    new = Vault(fernet_key(new_key), user_key=True) if new_key else None
    # a value already under the new key (a rotation run again) is read with it
    before = [new, old] if new is not None else [old]
    after = None if check_mode else new
    counts = {'stacks': 0, 'secrets': 0}
    for top in [s for s in store.stacks() if not s.get('parent_id')]:
        if check_mode:
            _tree(store, top['name'], before, None, counts)
            continue
        owner = new_owner()
        locked = store.lock(top['name'], owner, lock_ttl(), alive=owner_alive)
        try:
            _tree(store, top['name'], before, after, counts)
            for obj in store.versions(top['name']):
                record = store.read_version(obj)
                if record is not None and recrypt_record(record, before, after):
                    store.write_version(obj, record)
        finally:
            store.unlock(locked['id'], owner)
    return counts


def _tree(store, name, before, after, counts):
    """The live record of stack ``name`` and its nested stacks rotated (or,
    without ``after``, only decrypted), counted in ``counts``."""
    pending = [store.get_stack(name)]
    while pending:
        stack = pending.pop(0)
        counts['stacks'] += 1
        pending.extend(store.children(stack['id']))
        rows = [r for r in store.resources(stack['id']) if r.secret_data is not None]
        record = {'stacks': [{'secrets': stack.get('secrets'), 'outputs': stack.get('outputs')}],
                  'resources': [{'secret_data': r.secret_data} for r in rows]}
        counts['secrets'] += recrypt_record(record, before, after)
        if after is None:
            continue
        if stack.get('secrets') is not None or stack.get('outputs') is not None:
            store.update_stack(stack['id'], **record['stacks'][0])
        for row, new in zip(rows, record['resources']):
            store.save_resource(dataclasses.replace(row, secret_data=new['secret_data']), touch=False)
        snapshots = [snap for snap in store.snapshots(stack['id']) if snap.get('secrets') is not None]
        record = {'stacks': [], 'resources': [], 'snapshots': snapshots}
        counts['secrets'] += recrypt_record(record, before, after)
        if after is not None:
            for snapshot in snapshots:
                store.save_snapshot(snapshot)
