# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::RandomString: a random string generated once, kept in the record.

No cloud call.  The value is generated at create as Heat's password_gen does
(each character sequence's and class's minimum first, the rest from the union
of all of them, then shuffled; SystemRandom throughout) and kept in
``ctx.data['value']``, which ``secret_data`` asks the engine to store
encrypted.  Every property change replaces the resource (none is
update_allowed), so a new ``salt`` gives a new string.  The reference id is
the value itself, as in Heat.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import random
import string

from ._record_only import RecordOnly

CHARACTER_CLASSES = {
    'lettersdigits': string.ascii_letters + string.digits,
    'letters': string.ascii_letters,
    'lowercase': string.ascii_lowercase,
    'uppercase': string.ascii_uppercase,
    'digits': string.digits,
    'hexdigits': string.digits + 'ABCDEF',
    'octdigits': string.octdigits,
}

_DEFAULT_CLASSES = [{'class': 'lettersdigits', 'min': 1}]


def generate(length, pools, rng=None):
    """A string of ``length`` characters from ``pools`` ((chars, min) pairs):
    at least ``min`` from each pool, the rest from their union, shuffled."""
    rng = rng or random.SystemRandom()
    chosen = []
    union = set()
    for chars, minimum in pools:
        allowed = tuple(sorted(set(chars)))
        union.update(allowed)
        chosen.extend(rng.choice(allowed) for _i in range(int(minimum or 0)))
    combined = tuple(sorted(union))
    chosen.extend(rng.choice(combined) for _i in range(max(0, length - len(chosen))))
    # Like Heat, sample ``length`` of them: a shuffle, and a cut when the
    # minimums alone exceed the length (validation refuses that case).
    return ''.join(rng.sample(chosen, length))


def char_pools(props):
    """(chars, min) pools from the properties, with Heat's translation of the
    hidden ``sequence`` property into one more character class."""
    classes = props.get('character_classes')
    sequence = props.get('sequence')
    if sequence:
        # Heat adds {class: sequence, min: 1} to what the user gave; an
        # unset character_classes then counts as empty, not as its default.
        given = [] if classes in (None, _DEFAULT_CLASSES) else list(classes)
        classes = given + [{'class': sequence, 'min': 1}]
    pools = []
    for seq in props.get('character_sequences') or ():
        pools.append((seq.get('sequence') or '', _min(seq)))
    for cls in classes or ():
        pools.append((CHARACTER_CLASSES[cls.get('class') or 'lettersdigits'], _min(cls)))
    return pools


def _min(item):
    value = item.get('min')
    return 1 if value is None else int(value)


def _minimums(given):
    """The sum of the character sequences' and classes' minimums, the
    classes as Heat's translation of ``sequence`` leaves them (one more
    class of min 1, added to those given, or alone)."""
    props = given.props
    classes = props.get('character_classes') or []
    if props.get('sequence'):
        given_classes = classes if given.data.get('character_classes') is not None else []
        classes = list(given_classes) + [{'class': props['sequence'], 'min': 1}]
    items = list(props.get('character_sequences') or []) + list(classes)
    return sum(item.get('min') or 0 for item in items if isinstance(item, dict))


class RandomString(RecordOnly):
    type_name = 'OS::Heat::RandomString'
    # Keys of ctx.data the engine stores encrypted.
    secret_data = ('value',)

    @classmethod
    def validate(cls, given):
        # Heat's RandomString.validate: a length given by an attribute not
        # made yet reads as the default (32).
        if _minimums(given) > given.props['length']:
            given.fail('Length property cannot be smaller than combined character class and '
                       'character sequence minimums', 'length')

    def create(self, ctx):
        props = ctx.properties or {}
        length = props.get('length')
        length = 32 if length is None else int(length)
        ctx.data['value'] = generate(length, char_pools(props))
        return ctx.physical_name

    def from_heat_resource_data(self, ctx, resource_data):
        # Heat keeps the generated string as ``value`` (random_string.py
        # data_set): the adopted string is that one, never a new one
        if resource_data.get('value') is not None:
            ctx.data['value'] = resource_data['value']

    def attributes(self, ctx, live, names=None):
        return {'value': ctx.data.get('value'), 'show': None}

    def heat_resource_data(self, ctx):
        # Heat keeps the generated value as data 'value' (redacted in its
        # database, in clear in its abandon data): adopted, it is the same string
        value = ctx.data.get('value')
        return {} if value is None else {'value': value}

    def reference_id(self, ctx):
        if ctx.physical_id is not None:
            return ctx.data.get('value')
        return ctx.name
