# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's environment hooks in words: the stack action each holds a
resource in, and the event reasons Heat records when a resource reaches
one and when it is cleared (the walk writes them, walk/hooks.py;
heatclient's ``hook poll`` reads them back, read/events.py).  Here, below
both, because a reader of the store needs the words without the template
language (the hooks' names are hot/registry_entries.py's HOOK_TYPES)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

# the stack action in which each hook holds a resource
ACTION_OF = {'pre-create': 'CREATE', 'pre-update': 'UPDATE', 'pre-delete': 'DELETE',
             'post-create': 'CREATE', 'post-update': 'UPDATE'}


def paused_reason(hook):
    """Heat's event reason when a resource reaches ``hook``."""
    return '%s paused until Hook %s is cleared' % (ACTION_OF[hook], hook)


def cleared_reason(hook):
    return 'Hook %s is cleared' % hook
