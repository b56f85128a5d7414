# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The peers stack_bench compares the engine with (issue 5, part 3), one module each.

Every peer offers the same small interface, so the benchmark can alternate them in one run:

    peer = Peer(cloud, workdir)        # prepares (downloads, writes files); no cloud change
    peer.name                          # what is measured, for the tables
    peer.create(stack_name) -> dict    # {'wall_s': float, 'ok': bool, 'detail': str, ...}
    peer.delete(stack_name) -> dict    # same shape
    peer.cleanup(stack_name)           # best effort: nothing of stack_name left (after a failure)

The caller counts the cloud's API calls around each call (cloud.reset_stats() / cloud.stats()).
"""
