# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # The state store in the cloud (engine/store/swift.py): an AWX job's
    # container dies with the job, a Swift container does not.
    DOCUMENTATION = r'''
options:
  store_url:
    description:
      - Keep the stack records in Swift instead of the SQLite file of O(store_path), as C(swift://container/prefix)
        (the prefix is optional). The container is read and written with the same cloud connection as the stack
        (the auth options), and is created when a run finds it missing.
      - Every change is written to Swift as it happens; reads ask for the newest copy (C(X-Newest)), so a job on
        another execution node finds the stack. Each completed action also keeps a version of the whole record in
        C(<prefix>/versions/<stack>/).
      - The stack's lock is the object C(<prefix>/<stack>.lock), written with the header C(If-None-Match) set to
        C(*), and holding a lease the run renews; a crashed run's lock frees itself when its lease ends (60
        seconds).
      - Secrets need O(store_key) (or C($STACKERS_STORE_KEY)), since a key file would die with the job.
      - Mutually exclusive with O(store_path). Move a stack between stores with C(playbooks/migrate_store.yml).
    type: str
'''
