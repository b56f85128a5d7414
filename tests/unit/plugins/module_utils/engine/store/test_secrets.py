# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import stat

import pytest
from cryptography.fernet import Fernet

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store import secrets as sec
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.secrets import Vault
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StoreError


def test_round_trip_of_json_values():
    vault = Vault(Fernet.generate_key())
    for value in ({'a': [1, 2, {'b': None}]}, 'text', 3, [True, 'x']):
        token = vault.encrypt(value)
        assert isinstance(token, str) and 'text' not in token
        assert vault.decrypt(token) == value
    assert vault.encrypt(None) is None and vault.decrypt(None) is None


def test_wrong_key_is_a_store_error():
    token = Vault(Fernet.generate_key()).encrypt({'pw': 'x'})
    with pytest.raises(StoreError, match='cannot be decrypted'):
        Vault(Fernet.generate_key()).decrypt(token)
    with pytest.raises(StoreError):
        Vault(sec.fernet_key('one')).decrypt(Vault(sec.fernet_key('two')).encrypt(1))


def test_key_file_created_0600_and_reused(tmp_path, monkeypatch):
    monkeypatch.delenv('STACKERS_STORE_KEY', raising=False)
    store = str(tmp_path / 'stacks.sqlite')
    first = Vault.for_store(store)
    assert first.user_key is False
    keyfile = store + '.key'
    assert stat.S_IMODE(os.stat(keyfile).st_mode) == 0o600
    content = open(keyfile, 'rb').read()
    token = first.encrypt({'v': 1})
    second = Vault.for_store(store)
    assert open(keyfile, 'rb').read() == content        # not regenerated
    assert second.decrypt(token) == {'v': 1}


def test_user_passphrase_and_environment_key(tmp_path, monkeypatch):
    monkeypatch.delenv('STACKERS_STORE_KEY', raising=False)
    store = str(tmp_path / 'stacks.sqlite')
    vault = Vault.for_store(store, 'correct horse')
    assert vault.user_key is True
    assert not os.path.exists(store + '.key')              # no key file with a user key
    token = vault.encrypt('s')
    assert Vault.for_store(store, 'correct horse').decrypt(token) == 's'
    monkeypatch.setenv('STACKERS_STORE_KEY', 'correct horse')
    from_env = Vault.for_store(store)
    assert from_env.user_key is True and from_env.decrypt(token) == 's'
    with pytest.raises(StoreError):
        Vault.for_store(store, 'wrong horse').decrypt(token)


def test_fernet_key_used_as_is_and_passphrase_stretched():
    key = Fernet.generate_key()
    assert sec.fernet_key(key) == key
    assert sec.fernet_key(key.decode() + '\n') == key
    stretched = sec.fernet_key('passphrase')
    assert stretched != b'passphrase' and len(stretched) == 44
    assert sec.fernet_key('passphrase') == stretched      # stable between runs
    assert sec.fernet_key('other') != stretched
    Fernet(stretched)  # a valid key


def test_digest_stable_per_salt():
    d = sec.digest('secret', 'salt1')
    assert d.startswith(sec.MASK_PREFIX) and d.endswith('>') and 'secret' not in d
    assert sec.digest('secret', 'salt1') == d
    assert sec.digest('secret', 'salt2') != d
    assert sec.digest('secret2', 'salt1') != d


def test_mask_nested_values_and_substrings():
    secrets = {'hunter2'}
    value = {'a': 'hunter2', 'b': ['x', 'echo hunter2 > f', {'c': 'hunter2'}],
             'd': 'plain', 'e': 5, 'f': None, 't': ('hunter2',)}
    masked = sec.mask(value, secrets, 'salt')
    assert masked['a'] == sec.digest('hunter2', 'salt')
    assert masked['b'][0] == 'x'
    # A secret spliced into a script masks the whole script.
    assert masked['b'][1] == sec.digest('echo hunter2 > f', 'salt')
    assert masked['b'][2]['c'] == sec.digest('hunter2', 'salt')
    assert masked['t'] == [sec.digest('hunter2', 'salt')]
    assert masked['d'] == 'plain' and masked['e'] == 5 and masked['f'] is None
    assert 'hunter2' not in repr(masked)
    assert value['a'] == 'hunter2'                          # input untouched
    assert sec.mask(value, set(), 'salt') is value
    assert sec.mask('x', {''}, 's') == 'x'                   # empty secret matches nothing


def test_secret_strings():
    assert sec.secret_strings(['a', 3, None, '', {'k': 1}, [1]]) == {
        'a', '3', '{"k": 1}', '[1]'}


def test_masker_masks_values_with_the_salt_and_messages_with_stars():
    masker = sec.Masker(['hunter2', None, ''], 'salt')
    assert masker.mask({'a': ['x hunter2 y', 'plain']}) == {
        'a': [sec.digest('x hunter2 y', 'salt'), 'plain']}
    assert masker.mask('x hunter2 y') != sec.Masker(['hunter2'], 'other').mask('x hunter2 y')
    assert masker.text('bad value hunter2 here') == 'bad value ***** here'
    nothing = sec.Masker()
    assert nothing.mask('hunter2') == 'hunter2' and nothing.text('hunter2') == 'hunter2'


def test_finder_answers_as_looking_for_each_secret_would():
    """Many secrets (the walk over the string) and few (a search per secret),
    short and long, at the start, middle and end of strings, and strings
    that share a secret's first characters without holding it."""
    import random
    rng = random.Random(7)
    alphabet = 'abcdefgh0123'

    def word(n):
        return ''.join(rng.choice(alphabet) for _i in range(n))
    for count in (1, 3, 40, 400):
        secrets = set(word(rng.choice((1, 4, 7, 8, 9, 32))) for _i in range(count)) | {''}
        finder = sec.Finder(secrets)
        some = sorted(s for s in secrets if s)
        texts = ['', 'x', word(5), word(300)] + [
            rng.choice(('', word(3))) + s + rng.choice(('', word(50))) for s in rng.sample(some, min(20, len(some)))]
        texts += [s[:-1] + 'Z' for s in some[:20] if len(s) >= 8]      # a near miss
        texts += [word(rng.choice((8, 12, 40, 2000))) for _i in range(100)]
        for text in texts:
            assert finder.found(text) == any(s in text for s in secrets if s), (count, text)
    # at the very start and end of a string, among enough secrets that the string is walked
    finder = sec.Finder(['k%07d' % i for i in range(300)])
    for text in ('k0000299', 'k0000299' + 'z' * 40, 'z' * 40 + 'k0000299', 'z' * 40 + 'k000029'):
        assert finder.found(text) == ('k0000299' in text), text


def test_masker_follows_what_the_run_learns_and_its_nested_runs_share_it():
    masker = sec.Masker(['hunter2'], 'salt')
    value = {'k': 'token=abcdefghijkl', 'n': 'plain'}
    assert masker.mask(value) == value
    masker.learned.update(['abcdefghijkl'])
    assert masker.mask(value) == {'k': sec.digest('token=abcdefghijkl', 'salt'), 'n': 'plain'}
    assert masker.text('got token=abcdefghijkl') == 'got token=*****'
    child = sec.Masker(list(masker.secrets), 'salt')
    child.learned = masker.learned                     # as nesting.child_run shares it
    masker.learned.update(['s%030d' % i for i in range(200)])
    assert child.mask('x s%030d y' % 150) == sec.digest('x s%030d y' % 150, 'salt')
    assert child.mask('x hunter2') == sec.digest('x hunter2', 'salt')
    assert child.mask('x abcdefghijkl') != 'x abcdefghijkl'
    assert masker.mask('x s%030d' % 199) != 'x s%030d' % 199
    plain = sec.Masker(['hunter2'], 'salt')
    plain.learned = {'qwertyuiop'}                      # a plain set: copied into a Learned
    assert plain.text('a qwertyuiop b') == 'a ***** b'
    plain.learned.add('asdfghjkl')
    assert plain.text('asdfghjkl') == '*****'
