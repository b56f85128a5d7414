# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils import errors


@pytest.mark.parametrize('path, text', [
    ((), ''),
    (('resources',), 'resources'),
    (('resources', 'a', 'properties', 'networks', 0, 'port'), 'resources.a.properties.networks[0].port'),
    ((0, 'x'), '[0].x'),
])
def test_format_path(path, text):
    assert errors.format_path(path) == text


def test_located_error_text_has_the_known_parts():
    assert str(errors.TemplateError('boom')) == 'boom'
    assert str(errors.TemplateError('boom', path=('a', 'b'))) == 'a.b: boom'
    assert str(errors.TemplateError('boom', filename='t.yaml', line=3)) == 't.yaml:3: boom'
    assert str(errors.TemplateError('boom', line=3)) == 'line 3: boom'


def test_locate_uses_the_nearest_known_ancestor_and_keeps_known_values():
    positions = {(): (1, 1), ('resources',): (4, 1), ('resources', 'a'): (5, 3)}
    err = errors.TemplateError('x', path=('resources', 'a', 'properties', 'p')).locate('t.yaml', positions)
    assert (err.filename, err.line) == ('t.yaml', 5)
    err = errors.TemplateError('x', path=('resources',), filename='e.yaml', line=9).locate('t.yaml', positions)
    assert (err.filename, err.line) == ('e.yaml', 9)


def test_cycle_error_lists_its_resources_and_all_errors_share_a_base():
    err = errors.DependencyCycle('cycle', cycle=['a', 'b'])
    assert err.cycle == ['a', 'b']
    for cls in (errors.TemplateError, errors.EnvironmentError_, errors.ParameterError,
                errors.UnknownResourceType, errors.UnsupportedResourceType,
                errors.DependencyCycle, errors.ConstraintNotChecked):
        assert issubclass(cls, errors.StackersError)


def test_an_action_not_supported_says_so_as_heat_does_and_is_no_resource_failure():
    err = errors.ResourceActionNotSupported('Deleting non-empty container (c)', resource='c')
    assert str(err) == 'Deleting non-empty container (c) is not supported for resource.'
    # its own kind in resource_status_reason, not ResourceInError
    assert isinstance(err, errors.StackersError) and not isinstance(err, errors.ResourceFailure)
    assert err.details == {'resource': 'c'}
