# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""HOT versions: names, aliases and what each version of the language holds.

Every ``heat_template_version`` Heat accepts is listed here with exactly the
intrinsic functions, condition functions, top-level sections, resource keys,
output keys and deletion policies that version has.  Function tables map a
function name to an *implementation key*; ``functions/__init__.py`` maps keys
to classes, so this module stays plain data and imports nothing else.

Two special keys: ``removed`` marks a function a version dropped (using it
is an error there), ``invalid`` (only in condition tables) marks a function
that exists but may not be used in the ``conditions`` section.  A name that
is in no table is plain data in that version.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ..errors import TemplateError

HOT_KEY = 'heat_template_version'
CFN_KEYS = ('AWSTemplateFormatVersion', 'HeatTemplateFormatVersion')
# The CFN formats Heat registers, refused here with a clear message.
CFN_VERSIONS = {'AWSTemplateFormatVersion': ('2010-09-09',),
                'HeatTemplateFormatVersion': ('2012-12-12',)}

DATES = (
    '2013-05-23', '2014-10-16', '2015-04-30', '2015-10-15', '2016-04-08',
    '2016-10-14', '2017-02-24', '2017-09-01', '2018-03-02', '2018-08-31',
    '2021-04-16',
)

ALIASES = {
    'newton': '2016-10-14',
    'ocata': '2017-02-24',
    'pike': '2017-09-01',
    'queens': '2018-03-02',
    'rocky': '2018-08-31',
    'wallaby': '2021-04-16',
}

# CFN-style functions HOT 2013-05-23 still understood; 2014-10-16 dropped all
# of them but Fn::Select, which 2015-10-15 dropped too.
_CFN_2013 = {
    'Fn::GetAZs': 'cfn_get_azs',
    'Ref': 'cfn_ref',
    'Fn::Select': 'cfn_select',
    'Fn::Join': 'cfn_join',
    'Fn::Split': 'cfn_split',
    'Fn::Replace': 'cfn_replace',
    'Fn::Base64': 'cfn_base64',
    'Fn::MemberListToMap': 'cfn_member_list_to_map',
    'Fn::ResourceFacade': 'cfn_resource_facade',
}


def _removed(*names):
    return dict((n, 'removed') for n in names)


def _build_tables():
    tables = {}
    fns = {
        'get_param': 'get_param',
        'get_resource': 'get_resource',
        'get_attr': 'get_attr_then_select',
        'list_join': 'list_join',
        'str_replace': 'str_replace',
        'resource_facade': 'resource_facade',
        'get_file': 'get_file',
    }
    fns.update(_CFN_2013)
    tables['2013-05-23'] = dict(fns)

    fns.update(_removed(*[n for n in _CFN_2013 if n != 'Fn::Select']))
    fns['get_attr'] = 'get_attr'
    tables['2014-10-16'] = dict(fns)

    fns.update({'repeat': 'repeat', 'digest': 'digest'})
    tables['2015-04-30'] = dict(fns)

    fns.update({'get_attr': 'get_attr_all', 'list_join': 'list_join_multiple',
                'str_replace': 'str_replace_json', 'str_split': 'str_split'})
    fns.update(_removed('Fn::Select'))
    tables['2015-10-15'] = dict(fns)

    fns['map_merge'] = 'map_merge'
    tables['2016-04-08'] = dict(fns)

    fns.update({'repeat': 'repeat_with_map', 'yaql': 'yaql',
                'map_replace': 'map_replace', 'if': 'if'})
    tables['2016-10-14'] = dict(fns)

    fns.update({'filter': 'filter', 'str_replace_strict': 'str_replace_strict'})
    tables['2017-02-24'] = dict(fns)

    fns.update({'repeat': 'repeat_nested', 'make_url': 'make_url',
                'list_concat': 'list_concat', 'list_concat_unique': 'list_concat_unique',
                'str_replace_vstrict': 'str_replace_vstrict', 'contains': 'contains'})
    tables['2017-09-01'] = dict(fns)
    tables['2018-03-02'] = dict(fns)
    tables['2018-08-31'] = dict(fns)

    fns['if'] = 'if_nullable'
    tables['2021-04-16'] = dict(fns)
    return tables


_CONDITION_FNS_2016 = {
    'get_param': 'get_param', 'equals': 'equals', 'not': 'not', 'and': 'and', 'or': 'or',
}
_CONDITION_FNS_2017 = dict(_CONDITION_FNS_2016, yaql='yaql', contains='contains')


def _condition_table(functions, own):
    """In ``conditions``, every other function of the version is refused as
    invalid there, removed ones stay removed, condition functions work."""
    table = {}
    for name, impl in functions.items():
        table[name] = 'removed' if impl == 'removed' else 'invalid'
    table.update(own)
    return table


class VersionInfo(object):
    """What one HOT version holds (all fields are read-only data)."""

    __slots__ = ('date', 'functions', 'condition_functions', 'sections',
                 'resource_keys', 'output_keys', 'deletion_policies', 'has_conditions')

    def __init__(self, date, functions, condition_functions, sections, resource_keys, *,
                 output_keys, deletion_policies):
        self.date = date
        self.functions = functions
        self.condition_functions = condition_functions
        self.sections = sections
        self.resource_keys = resource_keys
        self.output_keys = output_keys
        self.deletion_policies = deletion_policies
        self.has_conditions = 'conditions' in sections

    def __repr__(self):
        return 'VersionInfo(%s)' % self.date


_BASE_SECTIONS = ('heat_template_version', 'description', 'parameter_groups',
                  'parameters', 'resources', 'outputs')
_BASE_RESOURCE_KEYS = ('type', 'properties', 'metadata', 'depends_on',
                       'deletion_policy', 'update_policy', 'description')
_BASE_OUTPUT_KEYS = ('description', 'value')
_POLICIES = {'Delete': 'Delete', 'Retain': 'Retain', 'Snapshot': 'Snapshot'}
_POLICIES_LOWER = dict(_POLICIES, delete='Delete', retain='Retain', snapshot='Snapshot')


def _build_versions():
    tables = _build_tables()
    versions = {}
    for date in DATES:
        newer = date >= '2016-10-14'
        if newer:
            own = _CONDITION_FNS_2017 if date >= '2017-09-01' else _CONDITION_FNS_2016
            cond = _condition_table(tables[date], own)
        else:
            # No conditions section or condition keys yet: nothing parses a
            # condition snippet, every function would be refused in one.
            cond = dict((n, 'invalid') for n in tables[date])
        versions[date] = VersionInfo(
            date, tables[date], cond,
            frozenset(_BASE_SECTIONS + (('conditions',) if newer else ())),
            _BASE_RESOURCE_KEYS + (('external_id', 'condition') if newer else ()),
            output_keys=_BASE_OUTPUT_KEYS + (('condition',) if newer else ()),
            deletion_policies=_POLICIES_LOWER if newer else _POLICIES)
    return versions


VERSIONS = _build_versions()


def known_names():
    """Every accepted version string, sorted (dates first, then aliases)."""
    return sorted(DATES + tuple(ALIASES))


def canonical_version(value, path=(HOT_KEY,), filename=None, line=None):
    """Map a ``heat_template_version`` value (a date or an alias) to its date.

    Raises TemplateError listing the accepted values for anything else."""
    if isinstance(value, str):
        if value in VERSIONS:
            return value
        if value in ALIASES:
            return ALIASES[value]
        raise TemplateError(
            'Unknown template version "%s: %s"; %s must be one of: %s'
            % (HOT_KEY, value, HOT_KEY, ', '.join(known_names())),
            path=path, filename=filename, line=line)
    raise TemplateError('The template version must be a string (a date such as 2018-08-31 '
                        'or an alias such as rocky), not %r' % (value,),
                        path=path, filename=filename, line=line)


def get(version):
    """The VersionInfo of a version string (date or alias)."""
    return VERSIONS[canonical_version(version)]
