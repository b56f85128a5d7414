# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""How long the template language takes on big generated templates.

For N resources (a network, then chains of subnet -> port -> server, each
server reading the previous port's address with get_attr) it prints the time
to parse the template (shape checks, functions), validate it and build the
dependency graph, for N = 1k, 5k and 10k: validated as ``template validate``
does (structure, references, functions, property names) and as stack create
does (also every property value resolved and checked against its schema).  The
template is handed over as data: a YAML text of 10k resources is larger
than Heat's 512 KiB template limit.  Times are the CPU time of this process
(the machine is shared; wall time would measure the neighbours too).

    .venv/bin/python bench/hot_bench.py [N ...]
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import gc
import os
import sys
import time

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import conftest  # noqa: E402,F401  (makes ansible_collections.stackers.orchestration importable)

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.graph import dependencies as graph    # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import stack  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import template  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import loader  # noqa: E402


def generate(count):
    """A template of about ``count`` resources (as data)."""
    resources = {'net': {'type': 'OS::Neutron::Net', 'properties': {'name': 'bench'}}}
    for i in range((count - 1) // 3):
        resources['subnet%d' % i] = {
            'type': 'OS::Neutron::Subnet',
            'properties': {'network': {'get_resource': 'net'},
                           'cidr': '10.%d.%d.0/24' % (i // 256 % 256, i % 256)}}
        resources['port%d' % i] = {
            'type': 'OS::Neutron::Port',
            'properties': {'network': {'get_resource': 'net'},
                           'fixed_ips': [{'subnet': {'get_resource': 'subnet%d' % i}}]}}
        resources['server%d' % i] = {
            'type': 'OS::Nova::Server',
            'properties': {
                'image': {'get_param': 'image'},
                'flavor': {'get_param': 'flavor'},
                'networks': [{'port': {'get_resource': 'port%d' % i}}],
                'metadata': {'previous_ip': {'get_attr': ['port%d' % max(i - 1, 0),
                                                          'fixed_ips', 0, 'ip_address']}},
                'name': {'str_replace': {'template': 'srv-$i', 'params': {'$i': str(i)}}}}}
    return {
        'heat_template_version': '2018-08-31',
        'parameters': {'image': {'type': 'string', 'default': 'cirros'},
                       'flavor': {'type': 'string', 'default': 'm1.tiny'}},
        'resources': resources,
        'outputs': {'last_ip': {'value': {'get_attr': ['port0', 'fixed_ips']}}},
    }


def measure(count, strict, repeat=3):
    """Best of ``repeat``: seconds to load + validate + build the graph."""
    data = generate(count)
    # Parsing is part of the figure: the template goes in as YAML text (past
    # Heat's 512 KiB max_template_size at this scale, so the limit is lifted).
    text = yaml.dump(data, Dumper=getattr(yaml, 'CSafeDumper', yaml.SafeDumper))
    best = None
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        # As validate_template does: one collector pause for the whole run.
        with loader.gc_paused():
            doc = loader.load_text(text, 'bench.yaml', max_size=None)
            defn = stack.StackDefinition(template.Template.load(doc))
            # Implicit (hidden) dependencies only for stack create, as validate_template does.
            g = defn.validate(strict=strict,
                              graph_builder=lambda sd: graph.build_graph(sd, implicit=strict))
        took = time.process_time() - start
        best = took if best is None else min(best, took)
        edges = g.number_of_edges()
        # Dropped here, not by the next round's assignments: freeing them is
        # not part of a validation (the collection above reclaims the cycles).
        del doc, defn, g
    return len(data['resources']), edges, best


def main(argv):
    counts = [int(a) for a in argv] or [1000, 5000, 10000]
    print('Parse (YAML text) + validate + dependency graph, best of 3 (CPU seconds of this process)')
    print('%9s %7s %17s %15s %12s' % ('resources', 'edges', 'template validate',
                                       'stack create', 'us/resource'))
    for count in counts:
        resources, edges, loose = measure(count, strict=False)
        _, _, strict = measure(count, strict=True)
        print('%9d %7d %17.3f %15.3f %12.1f'
              % (resources, edges, loose, strict, strict / resources * 1e6))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
