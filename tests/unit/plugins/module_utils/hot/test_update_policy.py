# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.stack import StackDefinition


RG = '  a:\n    type: OS::Heat::ResourceGroup\n    properties: {resource_def: {type: OS::Heat::None}}\n'
VAL = '  v: {type: OS::Heat::Value, properties: {value: 0}}\n'


# update_policy against the type's schema; verdicts measured with the Heat oracle.
@pytest.mark.parametrize('resources, message, path', [
    (RG + '    update_policy: {rolling_update: {min_in_service: 1, max_batch_size: 2, pause_time: 1.5},'
     ' batch_create: {max_batch_size: 3}}\n', None, None),
    (RG + '    update_policy: {rolling_update: null}\n', None, None),
    (RG + '    update_policy: {rolling_update: {bogus: 1}}\n', 'Unknown Property bogus',
     ('update_policy', 'rolling_update', 'bogus')),
    (RG + '    update_policy: {batch_create: {max_batch_size: 0}}\n', 'out of range',
     ('update_policy', 'batch_create', 'max_batch_size')),
    (RG + '    update_policy: {rolling_update: {pause_time: abc}}\n', 'is not a number',
     ('update_policy', 'rolling_update', 'pause_time')),
    (RG + '    update_policy: {rolling_update: [1]}\n', 'is not a map', ('update_policy', 'rolling_update')),
    (RG + '    update_policy: {rolling_update: {}, bogus: 1}\n', 'Unknown Property bogus', ('update_policy',)),
    # A placeholder is converted (the name is not an integer); constraints wait.
    (VAL + RG + '    update_policy: {batch_create: {max_batch_size: {get_resource: v}}}\n',
     "Value 'v' is not an integer", ('update_policy', 'batch_create', 'max_batch_size')),
    # Types without a schema refuse every key (provider templates and None too).
    ('  a: {type: OS::Heat::None, update_policy: {bogus: 1}}\n', 'Unknown Property bogus', ('update_policy',)),
    ('  a: {type: OS::Heat::None, update_policy: {}}\n', None, None),
    ('  a: {type: OS::Heat::AutoScalingGroup, properties: {min_size: 1, max_size: 2, resource: '
     '{type: OS::Heat::None}}, update_policy: {rolling_update: {}}}\n',
     'Unknown Property rolling_update', ('update_policy',)),
    ('  a: {type: t.yaml, update_policy: {rolling_update: {}}}\n', 'Unknown Property rolling_update',
     ('update_policy',)),
    ('  a: {type: AWS::AutoScaling::AutoScalingGroup, properties: {AvailabilityZones: [nova], MinSize: 1,'
     ' MaxSize: 2, LaunchConfigurationName: x}, update_policy: {AutoScalingRollingUpdate: {PauseTime: PT1M}}}\n',
     None, None),
    # Not checked where Heat does not look: disabled or adopted resources.
    ('  a: {type: OS::Heat::None, condition: false, update_policy: {bogus: 1}}\n', None, None),
    ('  a: {type: OS::Heat::None, external_id: x, update_policy: {bogus: 1}}\n', None, None),
    # A function in place of the whole section fails in Heat.
    ('  a: {type: OS::Heat::None, update_policy: {get_param: p}}\n', 'must be a map', ('update_policy',)),
    # get_attr there works only for attributes something else asks for.
    (VAL + RG + '    update_policy: {batch_create: {max_batch_size: {get_attr: [v, value]}}}\n',
     'cannot be used in an update_policy',
     ('update_policy', 'batch_create', 'max_batch_size', 'get_attr')),
    (VAL + '  w: {type: OS::Heat::Value, properties: {value: {get_attr: [v, value]}}}\n'
     + RG + '    update_policy: {batch_create: {max_batch_size: {get_attr: [v, value]}}}\n', None, None),
    (VAL + RG + '    update_policy: {batch_create: {max_batch_size: {get_attr: [v, value]}}}\n'
     'outputs:\n  o: {value: {get_attr: [v, value]}}\n', None, None),
    (VAL + '  w: {type: OS::Heat::None, condition: false, metadata: {m: {get_attr: [v, value]}}}\n'
     + RG + '    update_policy: {batch_create: {max_batch_size: {get_attr: [v, value]}}}\n',
     'cannot be used in an update_policy',
     ('update_policy', 'batch_create', 'max_batch_size', 'get_attr')),
    (VAL + '  w: {type: OS::Heat::None, metadata: {m: {get_attr: [v]}}}\n'
     + RG + '    update_policy: {batch_create: {max_batch_size: {get_attr: [v, value]}}}\n', None, None),
    (VAL + '  w: {type: OS::Heat::None, metadata: {m: {get_attr: [v]}}}\n'
     + RG + '    update_policy: {batch_create: {max_batch_size: {get_attr: [v, show]}}}\n',
     'cannot be used in an update_policy',
     ('update_policy', 'batch_create', 'max_batch_size', 'get_attr')),
])
@pytest.mark.parametrize('strict', [False, True])
def test_update_policy_checked_against_the_type_schema(resources, message, path, strict):
    sd = StackDefinition('heat_template_version: 2016-10-14\nparameters:\n  p: {type: json, default: {}}\n'
                         'resources:\n' + resources,
                         files={'t.yaml': 'heat_template_version: 2016-10-14\n'})
    if message is None:
        sd.validate(strict=strict)
        return
    with pytest.raises(TemplateError) as err:
        sd.validate(strict=strict)
    assert message in err.value.message
    assert err.value.path == ('resources', 'a') + path


def test_update_policy_adds_no_dependency():
    sd = StackDefinition('heat_template_version: 2016-10-14\nresources:\n' + VAL + RG
                         + '    update_policy: {batch_create: {max_batch_size: {get_resource: v}}}\n')
    sd.compute_references()
    assert sd.resources['a'].requires == frozenset()
