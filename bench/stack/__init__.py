# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""bench/stack_bench.py's parts: the minimum costs and bounds (costs), observing and running the
engine (runs), scenario 1 (critical), scenario 2 and the 10,000-resource stack (scale, big).

The importer puts the repository on sys.path and makes the collection importable (conftest) before
importing these: bench/stack_bench.py as ``stack.*`` (it also puts tests/localcloud there, whose
test modules the composition scenario takes its templates from), the unit tests as
``bench.stack.*`` (pytest.ini's pythonpath)."""
