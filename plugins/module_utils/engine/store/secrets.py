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
import threading

from ...errors import StoreError

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
    user_data script makes the script secret).  ``secrets``: strings, or a
    ``Finder`` of them."""
    finder = secrets if isinstance(secrets, Finder) else Finder(secrets)
    if not finder:
        return value
    return _mask(value, finder, salt)


def _mask(value, finder, salt):
    if isinstance(value, str):
        return digest(value, salt) if finder.found(value) else value
    if isinstance(value, dict):
        return dict((k, _mask(v, finder, salt)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return [_mask(v, finder, salt) for v in value]
    return value


class Finder(object):
    """Whether a string holds any of a growing set of secrets, at a cost that
    does not grow with their number.  Looking for each secret in turn would
    make masking quadratic: every RandomString of a stack is a secret, and
    every value the run stores is masked.

    Secrets of ``HEAD`` characters or more are indexed by their first
    ``HEAD``: a string is walked once, each position looked up.  Shorter ones
    (a hidden parameter such as a PIN) are few, and each is looked for.  A
    short string among few long secrets is searched for each of them, which
    is quicker than the walk then."""

    HEAD = 8

    def __init__(self, secrets=()):
        self.seen = set()
        self.short = []
        self.heads = {}      # first HEAD characters -> the secrets starting so
        self.longs = 0
        for secret in secrets:
            self.add(secret)

    def __bool__(self):
        return bool(self.seen)

    def add(self, secret):
        if not secret or secret in self.seen:
            return
        self.seen.add(secret)
        if len(secret) < self.HEAD:
            self.short.append(secret)
        else:
            self.heads.setdefault(secret[:self.HEAD], []).append(secret)
            self.longs += 1

    def found(self, text):
        if text in self.seen:
            return True
        for secret in self.short:
            if secret in text:
                return True
        if not self.longs or len(text) < self.HEAD:
            return False
        # one search per secret costs about (50 + len) ns, the walk 150 ns a character
        if self.longs * (50 + len(text)) < 150 * len(text):
            return any(secret in text for group in self.heads.values() for secret in group)
        heads, size = self.heads, self.HEAD
        for i in range(len(text) - size + 1):
            group = heads.get(text[i:i + size])
            if group and any(text.startswith(secret, i) for secret in group):
                return True
        return False


class Learned(set):
    """The secrets a run learns as it goes: a set that only grows and keeps
    the order they came in, so a ``Finder`` catches up on the new ones alone."""

    def __init__(self, values=()):
        super(Learned, self).__init__()
        self.order = []
        self.update(values)

    def add(self, value):
        if value not in self:
            super(Learned, self).add(value)
            self.order.append(value)

    def update(self, *iterables):
        for values in iterables:
            for value in values:
                self.add(value)


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
        # (nested/stacks.py child_run): masked in messages (reasons, events) and, as
        # hidden parameters are, in what the record keeps of properties and
        # attributes; a value a dependent must give back (OS::Heat::Value's)
        # is kept in its plugin data, which holds secrets encrypted.
        self._learned = Learned()
        self._finder = None      # (the learned set it follows, how far, Finder)
        self._lock = threading.Lock()

    @property
    def learned(self):
        return self._learned

    @learned.setter
    def learned(self, values):
        """A Learned is shared as it is (a nested run's, nested/stacks.py child_run);
        other values are copied into one, whose order the Finder follows."""
        self._learned = values if isinstance(values, Learned) else Learned(values)

    def finder(self):
        """A Finder of every secret known now (hidden values and learned)."""
        learned = self.learned
        with self._lock:
            follows, done, finder = self._finder or (None, 0, None)
            if follows is not learned:
                # the first call, or a nested run given its parent's set
                finder, done = Finder(self.secrets), 0
            for value in learned.order[done:]:
                finder.add(value)
            done = len(learned.order)
            self._finder = (learned, done, finder)
            return finder

    def mask(self, value):
        """``value`` as the record keeps it (see ``mask``)."""
        return mask(value, self.finder(), self.salt)

    def text(self, text):
        """A message with every secret in it replaced by ``*****``."""
        if not self.finder().found(text):
            return text
        for secret in self.secrets | self.learned:
            if secret and secret in text:
                text = text.replace(secret, '*****')
        return text
