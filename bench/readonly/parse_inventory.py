# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run by bench/readonly_bench.py in a fresh process from the repository root
(ansible.cfg's collections path): the wall time of parsing one inventory
source, as ansible-inventory parses it (the plugin imported and run), Ansible's
own start left out.  Prints {"seconds", "hosts"} as JSON.

    .venv/bin/python bench/readonly/parse_inventory.py SOURCE
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import sys
import time

from ansible import constants as C
from ansible.inventory.manager import InventoryManager
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import init_plugin_loader


def main(source):
    init_plugin_loader(C.COLLECTIONS_PATHS)
    loader = DataLoader()
    t0 = time.perf_counter()
    inventory = InventoryManager(loader=loader, sources=[source])
    seconds = time.perf_counter() - t0
    hosts = [h.name for h in inventory.get_hosts() if h.name != 'localhost']
    print(json.dumps({'seconds': seconds, 'hosts': len(hosts)}))


if __name__ == '__main__':
    main(sys.argv[1])
