# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a run is asked and what its phases hand each other.

- ``StackRequest``: the options of heat_stack, engine side;
- ``Invocation``: what every phase of one call of the engine reaches (the
  request, the cloud, the store and its vault), passed as ``invocation``
  (``env`` in the engine is only ever Heat's environment);
- ``Goal``: the validate phase's answer, the validated definition to
  converge to (phases.validate);
- ``Converged``: how converging ended (phases.converge), which the runner
  finishes or rolls back (not the scheduler's per-step ``Outcome``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses
from typing import Any, Dict, List, Optional, Sequence

from ...hot.limits import Limits


@dataclasses.dataclass
class StackRequest:
    """The options of heat_stack (see the module's docs); ``checker`` asks
    the cloud about service constraints, ``project_id`` is the pseudo
    parameter OS::project_id.  Every option but ``name`` goes by keyword."""
    name: str
    _keywords: dataclasses.KW_ONLY
    state: str = 'present'
    template: Optional[str] = None
    environment: Sequence[str] = ()
    # heat.conf's environment_dir: its *.yaml files come before
    # ``environment`` (None: $STACKERS_GLOBAL_ENVIRONMENT_DIR, if set)
    global_environment_dir: Optional[str] = None
    parameters: Optional[Dict[str, Any]] = None
    files: Optional[Dict[str, Any]] = None
    timeout: Optional[float] = 3600
    rollback: bool = False
    existing: bool = False
    clear_parameters: Sequence[str] = ()
    tags: Optional[List[str]] = None
    max_concurrency: int = 10
    store_path: Optional[str] = None
    store_url: Optional[str] = None
    store_key: Optional[str] = None
    lock_timeout: float = 0
    converge: bool = False
    check_mode: bool = False
    diff: bool = False
    project_id: Optional[str] = None
    checker: Any = None
    # group name -> the size a signal's scaling asks of an autoscaling group
    resize: Optional[Dict[str, int]] = None
    # Heat's max_nested_stack_depth and max_resources_per_stack (over the
    # whole tree of nested stacks; -1: no limit)
    max_nested_depth: int = 5
    max_resources: int = 1000
    # how many levels of nested stacks' resources the result lists (Heat's
    # resource list --nested-depth)
    nested_depth: int = 0
    # the connection's region: an OS::Heat::Stack may name no other
    region_name: Optional[str] = None
    # Heat's request limits (hot/limits.py); None: Heat's defaults with the
    # two above.  Given, it wins over max_nested_depth and max_resources, so
    # the run reads every limit from one place.
    limits: Optional[Limits] = None
    # directories get_file and provider templates may read besides the
    # template's own (hot/template.py)
    files_allowed_paths: Sequence[str] = ()
    # URL prefixes beneath which the files a template names by URL are
    # fetched (engine/definition/remote_files.py); none: no URL is ever fetched
    files_allowed_urls: Sequence[str] = ()
    # opener(url, timeout) fetching them (the module's: Ansible's open_url)
    url_opener: Any = None
    # heat.conf's action_retry_limit (engine/walk/create_attempts.py)
    action_retry_limit: int = 5
    # Heat's abandon data of a stack to adopt (engine/run/adopt.py): the
    # record is made from it, the cloud only read
    adopt_data: Optional[Dict[str, Any]] = None
    # a cancel.CancelToken the caller keeps, to halt the run from a signal
    # handler (heat_stack's SIGTERM) or another thread; None: the run's own
    cancel: Any = None

    def __post_init__(self):
        if self.limits is None:
            self.limits = Limits(max_nested_stack_depth=self.max_nested_depth,
                                 max_resources_per_stack=self.max_resources)
        else:
            self.max_nested_depth = self.limits.max_nested_stack_depth
            self.max_resources = self.limits.max_resources_per_stack


@dataclasses.dataclass
class Invocation:
    """One call of the engine (runner.run, a signal, a mark-unhealthy): its
    request, cloud connection, store and vault, and the lock's owner once
    it holds the stack; ``cancel``: the run's cancel.CancelToken (None:
    nothing can cancel this call)."""
    request: StackRequest
    conn: Any
    store: Any
    vault: Any
    owner: Optional[str] = None
    cancel: Any = None


@dataclasses.dataclass
class Goal:
    """A validated definition to converge to: ``stack`` is the stored stack
    before the run (None for a new one), ``inputs`` the record's form of the
    user's inputs, ``sd`` the StackDefinition, ``graph`` its dependency
    graph, ``hidden`` the hidden parameters' values."""
    stack: Optional[Dict[str, Any]]
    stack_id: str
    inputs: Dict[str, Any]
    sd: Any
    graph: Any
    hidden: Dict[str, Any]
    # name -> nested/stacks.NestGoal of each nested resource (None: made
    # when the converge starts, from the record then)
    nests: Optional[Dict[str, Any]] = None


@dataclasses.dataclass
class Converged:
    """How converging the stack ended: the ``run`` (StackRun) that did it,
    the stack ``action`` it recorded, ``status`` (COMPLETE, FAILED or
    IN_PROGRESS at hooks) and ``reason``, and the stack row ``before`` it.
    ``start``: for an update of unchanged inputs, what records the stack's
    UPDATE as started, called by the first event of the run (or by finish
    when the outputs changed); until then nothing of the stack was written."""
    run: Any
    action: str
    status: str
    reason: str
    before: Dict[str, Any]
    start: Any = None
