# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Secrets in the stack record: never in plain text.

- Hidden parameter values are stored only when the user supplies a key
  (``store_key`` / ``$STACKERS_STORE_KEY``), encrypted with it; without one
  they are not stored and an update that reuses the stored parameters asks
  for them again.
- A plugin's secret data (a generated password, a key pair's private key)
  must survive between runs, so it is always encrypted: with the user's key,
  or with a key file created beside the store (mode 0600), the way an SSH
  client keeps its own key.
- Where a secret would appear inside resolved properties (a hidden
  parameter passed to a server's admin_pass), the stored copy holds a salted
  digest instead, so a later run can still tell whether it changed.

Encryption is Fernet (AES-128-CBC + HMAC-SHA256) from ``cryptography``,
which openstacksdk already requires.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import base64
import hashlib
import hmac
import json
import os

from ..errors import StoreError

try:
    from cryptography.fernet import Fernet, InvalidToken
except ImportError:  # pragma: no cover - a dependency of openstacksdk
    Fernet = None
    InvalidToken = ValueError

MASK_PREFIX = '<hidden:'


def fernet_key(secret):
    """A Fernet key from any user secret: a Fernet key is used as is, any
    other text is stretched with PBKDF2 (fixed salt: the key must be the same
    on every run for the same secret)."""
    if isinstance(secret, bytes):
        secret = secret.decode('utf-8')
    secret = secret.strip()
    try:
        raw = base64.urlsafe_b64decode(secret.encode('ascii'))
        if len(raw) == 32 and len(secret) == 44:
            return secret.encode('ascii')
    except (ValueError, UnicodeEncodeError):
        pass
    derived = hashlib.pbkdf2_hmac('sha256', secret.encode('utf-8'), b'stackers.orchestration',
                                  200000)
    return base64.urlsafe_b64encode(derived)


def key_file_key(path):
    """The key kept in ``path`` (created, 0600, when missing)."""
    if Fernet is None:
        raise StoreError('The "cryptography" library is needed to keep secrets in the state store')
    if not os.path.exists(path):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, 'wb') as f:
            f.write(Fernet.generate_key())
    with open(path, 'rb') as f:
        return f.read().strip()


class Vault(object):
    """Encrypts and decrypts JSON values with one key; ``user_key`` tells
    whether the user supplied it (hidden parameters are kept only then)."""

    def __init__(self, key, user_key=False):
        if Fernet is None:
            raise StoreError('The "cryptography" library is needed to keep secrets in the state store')
        self._fernet = Fernet(key)
        self.user_key = user_key

    @classmethod
    def for_store(cls, store_path, user_secret=None):
        secret = user_secret or os.environ.get('STACKERS_STORE_KEY')
        if secret:
            return cls(fernet_key(secret), user_key=True)
        return cls(key_file_key(store_path + '.key'))

    def encrypt(self, value):
        if value is None:
            return None
        return self._fernet.encrypt(json.dumps(value, sort_keys=True).encode('utf-8')).decode('ascii')

    def decrypt(self, token):
        if token is None:
            return None
        try:
            return json.loads(self._fernet.decrypt(token.encode('ascii')).decode('utf-8'))
        except InvalidToken:
            raise StoreError('The secrets in the state store cannot be decrypted with this key '
                             '(store_key differs from the one the stack was created with)')


def digest(value, salt):
    """A salted digest standing for a secret in stored properties."""
    mac = hmac.new(salt.encode('utf-8'), str(value).encode('utf-8'), hashlib.sha256)
    return '%s%s>' % (MASK_PREFIX, mac.hexdigest()[:24])


def mask(value, secrets, salt):
    """``value`` with every string that is, or contains, one of ``secrets``
    replaced by its digest (the whole string: a secret spliced into a
    user_data script makes the script secret)."""
    if not secrets:
        return value
    if isinstance(value, str):
        for secret in secrets:
            if secret and secret in value:
                return digest(value, salt)
        return value
    if isinstance(value, dict):
        return dict((k, mask(v, secrets, salt)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return [mask(v, secrets, salt) for v in value]
    return value


def secret_strings(values):
    """The non-empty string forms of secret values (what ``mask`` looks for)."""
    out = set()
    for value in values:
        if value is None or value == '':
            continue
        if isinstance(value, (dict, list)):
            out.add(json.dumps(value, sort_keys=True))
        else:
            out.add(str(value))
    return out


class Masker(object):
    """A run's secrets (the string forms of its hidden parameter values) and
    the stack's salt: what the run masks before anything is stored or shown."""

    def __init__(self, secret_values=(), salt=''):
        self.secrets = secret_strings(secret_values)
        self.salt = salt or ''
        # secrets the run learns as it goes (a random string made, a private
        # key), one set shared by a stack and its nested stacks' runs
        # (nesting.child_run): masked in messages (reasons, events) and, as
        # hidden parameters are, in what the record keeps of properties and
        # attributes; a value a dependent must give back (OS::Heat::Value's)
        # is kept in its plugin data, which holds secrets encrypted.
        self.learned = set()

    def mask(self, value):
        """``value`` as the record keeps it (see ``mask``)."""
        return mask(value, self.secrets | self.learned, self.salt)

    def text(self, text):
        """A message with every secret in it replaced by ``*****``."""
        for secret in self.secrets | self.learned:
            if secret and secret in text:
                text = text.replace(secret, '*****')
        return text
