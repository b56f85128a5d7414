# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""``patch_module_args(args)``: an AnsibleModule built inside it gets ``args``.

ansible-core 2.19 ships this helper (ansible.module_utils.testing).  Older
releases, which the collection supports from 2.16 on, have none: their own
unit-testing guide (dev_guide/testing_units_modules, ``set_module_args``)
sets ``basic._ANSIBLE_ARGS``, which the fallback below does for the length of
the ``with`` block, as 2.19's helper does.  Only the tests do this; the
collection itself never touches Ansible's internals."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import json

__all__ = ['patch_module_args', 'run_main']

try:
    from ansible.module_utils.testing import patch_module_args
except ImportError:  # ansible-core < 2.19
    from unittest import mock

    from ansible.module_utils import basic

    @contextlib.contextmanager
    def patch_module_args(args=None):
        data = json.dumps({'ANSIBLE_MODULE_ARGS': args or {}}).encode('utf-8')
        with mock.patch.object(basic, '_ANSIBLE_ARGS', data):
            yield


def run_main(module, capsys, args, check=False):
    """``module``'s main() with ``args`` (in check mode when asked): (exit code, the JSON Ansible
    reads from it)."""
    import pytest
    if check:
        args = dict(args, _ansible_check_mode=True)
    with patch_module_args(args):
        with pytest.raises(SystemExit) as exc:
            module.main()
    return exc.value.code, json.loads(capsys.readouterr().out)
