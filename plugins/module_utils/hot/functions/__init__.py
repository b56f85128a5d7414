# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Intrinsic functions of HOT, one class per function, split by family.

``IMPLEMENTATIONS`` maps the implementation keys used by ``versions.py`` to
classes; ``table(keys)`` turns a version's ``{name: key}`` table into the
``{name: class}`` map the parser uses.  Every module is imported explicitly
(AnsiballZ only ships what is imported by name).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from . import cfn, conditions, lists, params, resources, strings, yaql_fn
from .base import (Function, Invalid, Macro, Removed, check_functions,  # noqa: F401
                   collect_dependencies, dependencies, recorded_dependencies, resolve,
                   validate)

IMPLEMENTATIONS = {
    'removed': Removed,
    'invalid': Invalid,
    # params.py
    'get_param': params.GetParam,
    'get_file': params.GetFile,
    # resources.py
    'get_resource': resources.GetResource,
    'get_attr_then_select': resources.GetAttThenSelect,
    'get_attr': resources.GetAtt,
    'get_attr_all': resources.GetAttAllAttributes,
    'resource_facade': resources.ResourceFacade,
    # strings.py
    'str_replace': strings.Replace,
    'str_replace_json': strings.ReplaceJson,
    'str_replace_strict': strings.ReplaceJsonStrict,
    'str_replace_vstrict': strings.ReplaceJsonVeryStrict,
    'list_join': strings.Join,
    'list_join_multiple': strings.JoinMultiple,
    'str_split': strings.StrSplit,
    'digest': strings.Digest,
    'make_url': strings.MakeURL,
    # lists.py
    'repeat': lists.Repeat,
    'repeat_with_map': lists.RepeatWithMap,
    'repeat_nested': lists.RepeatWithNestedLoop,
    'map_merge': lists.MapMerge,
    'map_replace': lists.MapReplace,
    'filter': lists.Filter,
    'list_concat': lists.ListConcat,
    'list_concat_unique': lists.ListConcatUnique,
    'contains': lists.Contains,
    # conditions.py
    'equals': conditions.Equals,
    'not': conditions.Not,
    'and': conditions.And,
    'or': conditions.Or,
    'if': conditions.If,
    'if_nullable': conditions.IfNullable,
    # yaql_fn.py
    'yaql': yaql_fn.Yaql,
    # cfn.py
    'cfn_get_azs': cfn.GetAZs,
    'cfn_ref': cfn.Ref,
    'cfn_select': cfn.Select,
    'cfn_join': cfn.Join,
    'cfn_split': cfn.Split,
    'cfn_replace': cfn.Replace,
    'cfn_base64': cfn.Base64,
    'cfn_member_list_to_map': cfn.MemberListToMap,
    'cfn_resource_facade': cfn.ResourceFacade,
}


def table(keys):
    """``{function_name: implementation_key}`` → ``{function_name: class}``."""
    return dict((name, IMPLEMENTATIONS[key]) for name, key in keys.items())
