# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Rotating the key of an SQLite state store: every secret it holds
(hidden parameter values, encrypted outputs, resources' secret data,
snapshots' hidden values) is
decrypted with the old key and encrypted with the new one, in one
transaction, so a store is never half under one key and half under the
other.

Keys (secrets.py): the user's secret (``store_key`` / ``$STACKERS_STORE_KEY``)
or the key file beside the store.  Rotating to a new user secret needs the
old one (or the key file the secrets were made under); rotating with no new
secret writes a new key file, first as ``<store>.key.new`` and moved over
the old one once the transaction is committed (a run killed between the
two finds the new file and uses it on the next rotation).  Without a user
key, hidden parameter values are not kept (secrets.py), so they are dropped
when rotating from a user key to a key file.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import time

from ...errors import StoreError
from .secrets import Vault, fernet_key, key_file_key
from .sqlite import Store


def _old_vaults(path, old_key):
    vaults = [Vault(fernet_key(old_key), user_key=True)] if old_key else []
    for name in (path + '.key', path + '.key.new'):
        if os.path.exists(name):
            vaults.append(Vault(key_file_key(name)))
    return vaults


def _decrypt(vaults, token):
    for vault in vaults:
        try:
            return vault.decrypt(token)
        except StoreError:
            continue
    raise StoreError('A secret in the state store cannot be decrypted with the old key (give '
                     'store_key, the secret it was encrypted with)')


def rotate_key(store_path, old_key=None, new_key=None, check_mode=False):
    """Re-encrypt every secret in the SQLite store at ``store_path`` from
    ``old_key`` (None: its key file) to ``new_key`` (None: a new key file).
    Returns ``{'stacks': n, 'secrets': n}`` (how many stacks, and how many
    encrypted values were re-encrypted); ``check_mode`` decrypts all of them
    (so a wrong old key fails) and writes nothing."""
    if not os.path.exists(store_path):
        raise StoreError('There is no state store at %s' % store_path)
    before = _old_vaults(store_path, old_key)
    if not before:
        raise StoreError('The state store %s has no key file: give store_key, the secret its '
                         'secrets are encrypted with' % store_path)
    pending = store_path + '.key.new'
    if check_mode:
        after = None
    elif new_key:
        after = Vault(fernet_key(new_key), user_key=True)
    else:
        if os.path.exists(pending):
            os.remove(pending)
        after = Vault(key_file_key(pending))
    store = Store(store_path)
    try:
        counts = store._tx(lambda db: _recrypt(db, before, after), immediate=True)
    finally:
        store.close()
    if not new_key and not check_mode:
        os.replace(pending, store_path + '.key')
    return counts


def _again(before, after, token):
    if token is None:
        return None
    value = _decrypt(before, token)
    return None if after is None else after.encrypt(value)


def _recrypt(db, before, after):
    """Every encrypted column of the store, re-encrypted; the counts."""
    counts = {'stacks': 0, 'secrets': 0}
    held = db.execute('SELECT name, lock_owner FROM stacks WHERE lock_owner IS NOT NULL AND '
                      'lock_expiry > ?', (time.time(),)).fetchall()
    if held:
        # a run holding a stack would write under the old key afterwards
        raise StoreError('Stack %s is being run (lock held by %s): rotate the key when no run '
                         'holds a stack' % held[0])
    rows = db.execute('SELECT id, secrets, outputs FROM stacks').fetchall()
    for stack_id, secrets, outputs in rows:
        counts['stacks'] += 1
        # outputs is a JSON column holding the token (sqlite.py _JSON_STACK)
        token = json.loads(outputs) if outputs is not None else None
        new_outputs = _again(before, after, token)
        new_secrets = _again(before, after, secrets)
        if after is not None and not after.user_key:
            new_secrets = None       # kept only under a user key (secrets.py)
        counts['secrets'] += (secrets is not None) + (token is not None)
        if after is not None:
            db.execute('UPDATE stacks SET secrets=?, outputs=? WHERE id=?',
                       (new_secrets, None if new_outputs is None else json.dumps(new_outputs),
                        stack_id))
    for row_uuid, secret_data in db.execute(
            'SELECT uuid, secret_data FROM resources WHERE secret_data IS NOT NULL').fetchall():
        counts['secrets'] += 1
        new = _again(before, after, secret_data)
        if after is not None:
            db.execute('UPDATE resources SET secret_data=? WHERE uuid=?', (new, row_uuid))
    for snapshot_id, secrets in db.execute(
            'SELECT id, secrets FROM snapshots WHERE secrets IS NOT NULL').fetchall():
        counts['secrets'] += 1
        new = _again(before, after, secrets)
        if after is not None and not after.user_key:
            new = None       # a snapshot's hidden values, as the stack's: only under a user key
        if after is not None:
            db.execute('UPDATE snapshots SET secrets=? WHERE id=?', (new, snapshot_id))
    return counts
