# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The secrets audit (issue 16, item 7): canaries planted in every kind of
secret the collection meets, the modules run through their real main() at
-vvvv (verbosity 4), in check and diff mode too, and every channel searched:
the module's result (its echoed invocation, events, messages, tracebacks)
and the state store's bytes (the database, its WAL, its key file's
neighbours).  A canary may appear only where the user asked to see it: an
output they declared.

The canaries: a hidden parameter, an OS::Heat::RandomString value (made by
the engine, read back from the store; copied by an OS::Heat::Value, and one
made in a nested stack given back by its output and copied in the parent), a
key pair's private key and the Swift TempURL key (the engine notes both on
the connection: their plugins' unit tests show the noting, here the module's
side), a password and a token in ``auth``."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import json
import os
import stat

import pytest

from ansible_collections.stackers.orchestration.tests.unit.module_args import patch_module_args
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.secrets import Vault
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk
from ansible_collections.stackers.orchestration.plugins.modules import heat_stack
from ansible_collections.stackers.orchestration.plugins.modules import heat_stack_info

HIDDEN = 'CANARY-hidden-7f3a'
PASSWORD = 'CANARY-auth-password-91c2'
TOKEN = 'CANARY-auth-token-5d0e'
PRIVATE_KEY = '-----BEGIN CANARY PRIVATE KEY-----\nMIIEcanary\n-----END CANARY PRIVATE KEY-----'
TEMP_URL_KEY = 'CANARYtempurlkey0123456789abcdef'

TEMPLATE = '''heat_template_version: 2021-04-16
parameters:
  password: {type: string, hidden: true}
  fail: {type: boolean, default: false}
resources:
  pw: {type: OS::Heat::RandomString, properties: {length: 24}}
  uses_hidden:
    type: OS::Heat::TestResource
    properties:
      value: {str_replace: {template: "db password is $p", params: {$p: {get_param: password}}}}
      fail: {get_param: fail}
  copy:
    type: OS::Heat::Value
    properties: {value: {get_attr: [pw, value]}}
  inner: {type: inner.yaml}
  inner_copy:
    type: OS::Heat::Value
    properties: {value: {get_attr: [inner, made]}}
outputs:
  shown: {value: visible}
'''
INNER = '''heat_template_version: 2021-04-16
resources:
  secret: {type: OS::Heat::RandomString, properties: {length: 20}}
outputs:
  made: {value: {get_attr: [secret, value]}}
'''

# The same stack, declaring the random string as an output: the user asked.
ASKED = TEMPLATE.replace('  shown: {value: visible}\n', '''  shown: {value: {get_attr: [pw, value]}}
  copied: {value: {get_attr: [copy, value]}}
  inner_copied: {value: {get_attr: [inner_copy, value]}}
''')


class _Conn(object):
    """What the engine and the module read of a connection for Heat's own
    types (they make no request)."""
    current_project_id = 'p1'


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.delenv('STACKERS_STORE_KEY', raising=False)
    template = tmp_path / 'stack.yaml'
    template.write_text(TEMPLATE)
    (tmp_path / 'inner.yaml').write_text(INNER)
    asked = tmp_path / 'asked.yaml'
    asked.write_text(ASKED)
    return {'tmp': tmp_path, 'template': str(template), 'asked': str(asked),
            'store': str(tmp_path / 'state' / 'stacks.sqlite')}


def run_module(module, capsys, monkeypatch, args, conn=None, engine_notes=()):
    """``module``'s main() at -vvvv with ``args``; (rc, the JSON Ansible reads)."""
    conn = conn or _Conn()
    cls = module.HeatStack if module is heat_stack else module.HeatStackInfo
    monkeypatch.setattr(cls, 'conn', conn)
    for value in engine_notes:
        sdk.note_secret(conn, value)
    args = dict(args, _ansible_verbosity=4, auth={'password': PASSWORD, 'token': TOKEN,
                                                  'auth_url': 'http://127.0.0.1:5000/v3'})
    with patch_module_args(args):
        with pytest.raises(SystemExit) as exc:
            module.main()
    out = capsys.readouterr()
    return exc.value.code, out.out + out.err


def random_value(store_path, name='web', resource='pw'):
    """A RandomString's value, from the store (key file beside it)."""
    store = Store(store_path)
    try:
        stack = store.get_stack(name)
        rows = [r for r in store.resources(stack['id']) if r.name == resource and r.secret_data]
        return store.vault().decrypt(rows[0].secret_data)['value']
    finally:
        store.close()


def inner_value(store_path, name='web'):
    """The nested stack's RandomString value."""
    store = Store(store_path)
    try:
        child = store.children(store.get_stack(name)['id'])[0]
        return random_value(store_path, child['name'], 'secret')
    finally:
        store.close()


def store_bytes(store_path):
    out = b''
    for path in glob.glob(store_path + '*'):
        if not path.endswith('.key'):
            with open(path, 'rb') as f:
                out += f.read()
    return out


def assert_absent(text, *canaries):
    for canary in canaries:
        assert canary not in text, canary
        # a private key's lines, one by one, as JSON escapes them
        for line in canary.splitlines():
            if len(line) > 8:
                assert line not in text, line


def test_audit_create_rerun_check_diff_fail_info(capsys, monkeypatch, env):
    base = dict(name='web', template=env['template'], store_path=env['store'],
                parameters={'password': HIDDEN})
    secret_notes = (PRIVATE_KEY, TEMP_URL_KEY)
    outputs = []

    rc, text = run_module(heat_stack, capsys, monkeypatch, base, engine_notes=secret_notes)
    assert rc == 0, text
    outputs.append(text)
    made, inner = random_value(env['store']), inner_value(env['store'])
    assert len(made) == 24 and len(inner) == 20

    # a rerun reads the random string back from the store (and learns it again)
    rc, text = run_module(heat_stack, capsys, monkeypatch, base, engine_notes=secret_notes)
    assert rc == 0 and json.loads(text)['changed'] is False, text
    outputs.append(text)

    # check mode and diff mode, with a change planned
    rc, text = run_module(heat_stack, capsys, monkeypatch,
                          dict(base, parameters={'password': HIDDEN + '-2'}, _ansible_check_mode=True,
                               _ansible_diff=True), engine_notes=secret_notes)
    assert rc == 0, text
    assert json.loads(text)['plan']
    outputs.append(text)

    # a failure quoting a resource's reason, with events
    rc, text = run_module(heat_stack, capsys, monkeypatch,
                          dict(base, name='bad', parameters={'password': HIDDEN, 'fail': True}),
                          engine_notes=secret_notes)
    assert rc == 1 and json.loads(text)['failed'] is True
    assert json.loads(text)['events']
    outputs.append(text)

    # an error raised inside the engine: its message and error details
    rc, text = run_module(heat_stack, capsys, monkeypatch,
                          dict(base, name='web', parameters={'password': HIDDEN, 'fail': 'not-a-bool'}),
                          engine_notes=secret_notes)
    assert rc == 1, text
    outputs.append(text)

    # the read-only module, every view of the stack
    for more in ({}, {'resource': 'pw'}, {'resource': 'uses_hidden'}, {'failures': True}, {'template': True},
                 {'environment': True}, {'output': 'shown'}, {'event_resource': 'pw'}):
        rc, text = run_module(heat_stack_info, capsys, monkeypatch,
                              dict(name='web', store_path=env['store'], **more))
        assert rc == 0, text
        outputs.append(text)

    everything = '\n'.join(outputs)
    assert_absent(everything, HIDDEN, PASSWORD, TOKEN, PRIVATE_KEY, TEMP_URL_KEY, made, inner)
    # the store: no canary in clear anywhere in its files
    raw = store_bytes(env['store']).decode('latin-1')
    assert_absent(raw, HIDDEN, PASSWORD, TOKEN, PRIVATE_KEY, TEMP_URL_KEY, made, inner)


def test_an_output_the_user_declared_stays_visible(capsys, monkeypatch, env):
    args = dict(name='web', template=env['asked'], store_path=env['store'], parameters={'password': HIDDEN})
    rc, text = run_module(heat_stack, capsys, monkeypatch, args, engine_notes=(PRIVATE_KEY,))
    assert rc == 0, text
    made, inner = random_value(env['store']), inner_value(env['store'])
    result = json.loads(text)
    shown = dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])
    # the value itself, as Heat gives it, through a Value's copy and a nested stack's output too
    assert shown['shown'] == shown['copied'] == made and shown['inner_copied'] == inner
    # and so again on a rerun, from the record alone
    rc, text = run_module(heat_stack, capsys, monkeypatch, args, engine_notes=(PRIVATE_KEY,))
    assert rc == 0 and json.loads(text)['changed'] is False, text
    again = dict((o['output_key'], o['output_value']) for o in json.loads(text)['stack']['outputs'])
    assert again == shown
    # what the user did not ask for is still hidden
    assert_absent(text, HIDDEN, PASSWORD, TOKEN, PRIVATE_KEY)


def test_the_store_and_its_directory_are_private(capsys, monkeypatch, env):
    rc, _text = run_module(heat_stack, capsys, monkeypatch,
                           dict(name='web', template=env['template'], store_path=env['store'],
                                parameters={'password': HIDDEN}))
    assert rc == 0

    def mode(path):
        return stat.S_IMODE(os.stat(path).st_mode)
    assert mode(os.path.dirname(env['store'])) == 0o700
    for path in glob.glob(env['store'] + '*'):
        assert mode(path) == 0o600, path


def test_secrets_are_fernet_encrypted_with_the_store_key_file(capsys, monkeypatch, env):
    rc, _text = run_module(heat_stack, capsys, monkeypatch,
                           dict(name='web', template=env['template'], store_path=env['store'],
                                parameters={'password': HIDDEN}))
    assert rc == 0
    store = Store(env['store'])
    try:
        stack = store.get_stack('web')
        secret = [r for r in store.resources(stack['id']) if r.secret_data][0].secret_data
        assert secret.startswith('gAAAAA')   # a Fernet token (version byte 0x80)
        assert isinstance(store.vault(), Vault)
        # without a user key, hidden values are not kept at all
        assert stack.get('secrets') is None
    finally:
        store.close()
