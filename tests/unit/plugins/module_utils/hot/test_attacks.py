# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The known attacks on a template engine, one named case each (issue 16,
item 6).  Every case must end in a typed error that names the file and line
(or the limit it hit), within a bounded time and a bounded peak of memory:
the engine runs on the user's host, so a hostile template may not stall or
exhaust it."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import os
import time
import tracemalloc

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import inputs as defs
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import (
    validation as validate)
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    ResourceLimitExceeded, StackersError, TemplateError)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.limits import Limits

HOT = 'heat_template_version: 2018-08-31\n'
SECONDS = 5
MEGABYTES = 64


@contextlib.contextmanager
def bounded(seconds=SECONDS, megabytes=MEGABYTES):
    """The block must end within ``seconds`` of this process's CPU and its
    peak of traced memory stay under ``megabytes``.  CPU time, not the wall
    clock: the work an attack makes the engine do is what is bounded, and
    other processes on a loaded machine do not add to it (the heaviest case
    takes about 1.6 s with tracing on)."""
    tracemalloc.start()
    start = time.process_time()
    try:
        yield
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        took = time.process_time() - start
    assert took < seconds, 'took %.1fs of CPU' % took
    assert peak < megabytes * 2 ** 20, 'peak %.1f MB' % (peak / 2 ** 20)


def refused(path, cls=StackersError, **kw):
    """The error validating the template file ``path`` (as stack create)."""
    kw.setdefault('strict', True)
    with bounded():
        with pytest.raises(cls) as err:
            validate.validate_template(str(path), **kw)
    return err.value


def write(tmp_path, text, name='t.yaml'):
    path = tmp_path / name
    path.write_text(text)
    return path


def value_template(snippet, params=''):
    return HOT + params + 'resources:\n  r:\n    type: OS::Heat::Value\n    properties:\n      value: ' \
        + snippet + '\n'


# -- the document itself ------------------------------------------------------

def test_yaml_alias_bomb_billion_laughs(tmp_path):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(8):
        prev, cur = chr(ord('a') + i), chr(ord('b') + i)
        lines.append('%s: &%s [%s]' % (cur, cur, ','.join(['*' + prev] * 9)))
    path = write(tmp_path, '\n'.join(lines) + '\n')
    err = refused(path, TemplateError)
    assert 'expands to more than' in str(err)
    assert err.filename == str(path) and err.line is not None


def test_recursive_alias_is_refused(tmp_path):
    err = refused(write(tmp_path, HOT + 'outputs: &o {x: *o}\n'), TemplateError)
    assert err.filename and err.line == 2


@pytest.mark.parametrize('shape', ['flow', 'block'])
def test_ten_thousand_deep_nesting(tmp_path, shape):
    if shape == 'flow':
        body = 'outputs: {o: {value: ' + '[' * 10000 + ']' * 10000 + '}}\n'
    else:
        body = 'outputs:\n  o:\n    value: ' + '{a: ' * 10000 + '1' + '}' * 10000 + '\n'
    err = refused(write(tmp_path, HOT + body), TemplateError)
    assert 'nesting depth' in str(err) and err.line is not None
    assert str(err).startswith(str(tmp_path / 't.yaml'))


def test_huge_string_over_the_size_limit_is_refused_before_parsing(tmp_path):
    path = write(tmp_path, HOT + 'description: "' + 'x' * 600000 + '"\n')
    err = refused(path, TemplateError)
    assert 'Request limit exceeded: Template size (600050 bytes) exceeds maximum allowed size ' \
           '(524288 bytes).' in str(err)
    assert err.filename == str(path)


def test_huge_string_under_the_limit_is_fine_and_quick(tmp_path):
    path = write(tmp_path, HOT + 'description: "' + 'x' * 500000 + '"\n')
    with bounded():
        assert validate.validate_template(str(path))['Description'] == 'x' * 500000


def test_one_gigabyte_template_is_refused_by_its_size_unread(tmp_path):
    path = tmp_path / 'huge.yaml'
    with open(path, 'wb') as f:
        f.truncate(2 ** 30)          # sparse: nothing is allocated on disk
    with bounded(megabytes=8):
        with pytest.raises(TemplateError) as err:
            defs.read_inputs(str(path))
    assert 'Template size (1073741824 bytes) exceeds maximum allowed size' in str(err.value)
    assert err.value.filename == str(path)
    # the environment files and validate's own path read as little
    with bounded(megabytes=8):
        with pytest.raises(TemplateError):
            defs.read_inputs(str(write(tmp_path, HOT)), [str(path)])
        with pytest.raises(TemplateError):
            validate.validate_template(str(path))


def test_template_size_limit_is_configurable(tmp_path):
    path = write(tmp_path, HOT + 'description: "' + 'x' * 2000 + '"\n')
    with pytest.raises(TemplateError) as err:
        defs.read_inputs(str(path), limits=Limits(max_template_size=1000))
    assert 'exceeds maximum allowed size (1000 bytes).' in str(err.value)
    assert defs.read_inputs(str(path), limits=Limits(max_template_size=4000))['template']


def test_json_body_size_counts_parameters_and_files(tmp_path):
    path = write(tmp_path, HOT)
    with bounded():
        with pytest.raises(ResourceLimitExceeded) as err:
            defs.read_inputs(str(path), (), {'p': 'x' * 1100000})
    assert 'Request limit exceeded: JSON body size (' in str(err.value)
    assert 'exceeds maximum allowed size (1048576 bytes).' in str(err.value)
    with pytest.raises(ResourceLimitExceeded):
        defs.read_inputs(str(path), (), None, {'f': 'y' * 600}, limits=Limits(max_json_body_size=500))


# -- functions that multiply --------------------------------------------------

def test_repeat_blow_up(tmp_path):
    items = ','.join(str(i) for i in range(200))
    params = 'parameters:\n  l: {type: comma_delimited_list, default: "%s"}\n' % items
    loops = ', '.join('<%%%s%%>: {get_param: l}' % v for v in 'abcd')
    path = write(tmp_path, value_template(
        '{repeat: {template: "<%a%><%b%><%c%><%d%>", for_each: {' + loops + '}}}', params))
    err = refused(path, ResourceLimitExceeded)
    assert '"repeat" would build 1600000000 items' in str(err)
    assert err.line == 8 and err.filename == str(path)


def test_repeat_of_a_big_template_counts_its_size(tmp_path):
    params = 'parameters:\n  l: {type: comma_delimited_list, default: "%s"}\n' \
        % ','.join(['1'] * 3000)
    path = write(tmp_path, value_template(
        '{repeat: {template: "%s", for_each: {x: {get_param: l}}}}' % ('x' * 1000), params))
    err = refused(path, ResourceLimitExceeded)
    assert 'would build a string of' in str(err) and 'max_json_body_size (1048576)' in str(err)


def test_str_replace_blow_up(tmp_path):
    params = 'parameters:\n  big: {type: string, default: "%s"}\n' % ('y' * 200000)
    path = write(tmp_path, value_template(
        '{str_replace: {template: "%s", params: {x: {get_param: big}}}}' % ('x' * 200000), params))
    err = refused(path, ResourceLimitExceeded)
    assert '"str_replace" would build a string of 40000200000 characters' in str(err)
    assert err.line is not None


def test_list_join_of_shared_huge_strings(tmp_path):
    # aliases share one string: joining them would copy it 2000 times
    params = 'parameters:\n  s: {type: string, default: &s "%s"}\n' % ('z' * 100000)
    path = write(tmp_path, value_template('{list_join: [",", [%s]]}' % ', '.join(['*s'] * 2000),
                                          params))
    err = refused(path, ResourceLimitExceeded)
    assert '"list_join" would build a string of' in str(err)


def test_list_concat_of_huge_lists(tmp_path):
    params = 'parameters:\n  l: {type: comma_delimited_list, default: "%s"}\n' \
        % ','.join(['1'] * 150000)
    path = write(tmp_path, value_template('{list_concat: [%s]}' % ', '.join(['{get_param: l}'] * 5),
                                          params))
    err = refused(path, ResourceLimitExceeded)
    assert '"list_concat" would build 750000 items; no value may hold more than 524288' in str(err)


def test_map_merge_of_huge_maps(tmp_path):
    keys = ', '.join('k%d: 1' % i for i in range(300))
    params = 'parameters:\n  m: {type: json, default: {%s}}\n' % keys
    path = write(tmp_path, value_template('{map_merge: [%s]}' % ', '.join(['{get_param: m}'] * 8),
                                          params))
    err = refused(path, ResourceLimitExceeded, limits=Limits(max_json_body_size=4000))
    assert '"map_merge" would build 2400 items; no value may hold more than 2000' in str(err)
    assert err.line == 8
    # the same template within Heat's default limits
    validate.validate_template(str(path), strict=True)


def test_list_concat_unique_is_linear(tmp_path):
    params = 'parameters:\n  l: {type: comma_delimited_list, default: "%s"}\n' \
        % ','.join(str(i) for i in range(60000))
    path = write(tmp_path, value_template(
        '{list_concat_unique: [{get_param: l}, {get_param: l}]}', params))
    with bounded():
        validate.validate_template(str(path), strict=True)


# -- yaql ---------------------------------------------------------------------

@pytest.mark.parametrize('expression, message', [
    ('range(0, 100000000).len()', '"range" went past 524288 items'),
    ('sequence().len()', '"sequence" went past 524288 items'),
    ('1.repeat().len()', '"repeat" went past 524288 items'),
    ('[1, 2].cycle().len()', '"cycle" went past 524288 items'),
    ('range(1000).toList()', 'Collection length exceeds 200 elements'),
    ("'x' * 100000000", 'MemoryQuotaExceededException'),
])
def test_yaql_that_loops_or_allocates(tmp_path, expression, message):
    path = write(tmp_path, value_template('{yaql: {expression: "%s"}}' % expression))
    err = refused(path, TemplateError if 'went past' not in message else ResourceLimitExceeded)
    assert message in str(err) and err.line == 6


def test_yaql_limits_are_configurable(tmp_path):
    path = write(tmp_path, value_template('{yaql: {expression: "range(1000).toList()"}}'))
    refused(path, TemplateError)
    validate.validate_template(str(path), strict=True, limits=Limits(yaql_limit_iterators=2000))
    small = write(tmp_path, value_template('{yaql: {expression: "range(100).toList()"}}'), 's.yaml')
    validate.validate_template(str(small), strict=True)
    err = refused(small, TemplateError, limits=Limits(yaql_limit_iterators=50))
    assert 'exceeds 50 elements' in str(err)


# -- files --------------------------------------------------------------------

def get_file_template(tmp_path, name, where='t.yaml'):
    return write(tmp_path, value_template('{get_file: "%s"}' % name), where)


def test_get_file_reads_a_sibling(tmp_path):
    (tmp_path / 'script.sh').write_text('echo hi\n')
    validate.validate_template(str(get_file_template(tmp_path, 'script.sh')), strict=True)


@pytest.mark.parametrize('name', ['../secret', '/etc/passwd', 'file:///etc/passwd', 'sub/../../secret'])
def test_get_file_outside_the_template_directory(tmp_path, name):
    (tmp_path / 'secret').write_text('s3cr3t')
    (tmp_path / 'in').mkdir()
    path = get_file_template(tmp_path / 'in', name)
    err = refused(path, TemplateError)
    assert 'is outside the directory tree templates may read' in str(err)
    assert err.filename == str(path) and err.line == 6
    assert 's3cr3t' not in str(err)


def test_get_file_through_a_symlink_pointing_out(tmp_path):
    (tmp_path / 'secret').write_text('s3cr3t')
    (tmp_path / 'in').mkdir()
    os.symlink(str(tmp_path / 'secret'), str(tmp_path / 'in' / 'link'))
    err = refused(get_file_template(tmp_path / 'in', 'link'), TemplateError)
    assert 'outside the directory tree' in str(err)


@pytest.mark.parametrize('url', ['http://127.0.0.1:9/x', 'https://127.0.0.1:9/x', 'ftp://127.0.0.1/x'])
def test_get_file_never_fetches_a_url(tmp_path, url):
    err = refused(get_file_template(tmp_path, url), TemplateError)
    assert 'no URL is fetched' in str(err) and err.line == 6


def test_files_allowed_paths_opens_another_tree(tmp_path):
    (tmp_path / 'shared').mkdir()
    (tmp_path / 'shared' / 'a.sh').write_text('echo\n')
    (tmp_path / 'in').mkdir()
    path = get_file_template(tmp_path / 'in', '../shared/a.sh')
    refused(path, TemplateError)
    validate.validate_template(str(path), strict=True,
                               root=[str(tmp_path / 'in'), str(tmp_path / 'shared')])


def test_provider_template_by_absolute_path_is_confined(tmp_path):
    (tmp_path / 'nested.yaml').write_text(HOT)
    (tmp_path / 'in').mkdir()
    path = write(tmp_path / 'in', HOT + 'resources:\n  r:\n    type: %s\n' % (tmp_path / 'nested.yaml'))
    err = refused(path, TemplateError)
    assert 'outside the directory tree' in str(err) and err.line == 4


def test_template_resource_that_includes_itself(tmp_path):
    path = write(tmp_path, HOT + 'resources:\n  again:\n    type: self.yaml\n', 'self.yaml')
    err = refused(path, TemplateError)
    assert 'Request limit exceeded: Recursion depth exceeds 5.' in str(err)


def test_environment_registry_cycle(tmp_path):
    # Environments cannot include files; a registry entry whose template uses
    # the type again is the loop they allow.
    (tmp_path / 'a.yaml').write_text(HOT + 'resources:\n  inner:\n    type: My::A\n')
    env = tmp_path / 'env.yaml'
    env.write_text('resource_registry:\n  My::A: a.yaml\n')
    path = write(tmp_path, HOT + 'resources:\n  top:\n    type: My::A\n')
    err = refused(path, TemplateError, environment=[str(env)])
    assert 'Recursion depth exceeds 5.' in str(err)
    err = refused(path, TemplateError, environment=[str(env)],
                  limits=Limits(max_nested_stack_depth=2))
    assert 'Recursion depth exceeds 2.' in str(err)
