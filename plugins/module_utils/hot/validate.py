# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Entry points: ``validate_template`` (what ``openstack orchestration
template validate`` answers) and ``inspect`` (everything the Heat oracle
reports, in its shape, for differential tests).

The template language knows neither the cloud nor the engine, so the two
things validation needs from them come in as arguments (engine/definition/validation.py
binds them for the modules and the tests):

- ``supported_types``: a container of the type names the collection can
  create (the resource registry's ``PLUGINS``); the others are reported in
  ``UnsupportedTypes``;
- ``dependencies(stack, implicit)``: ``{resource: sorted names it
  requires}`` of a StackDefinition, Heat's implicit dependencies included
  when ``implicit``; it raises DependencyCycle for a cycle.

And ``type_rules(type_name)``, optional: the rule of a type's own validate()
(hot/type_checks.py's RuleInput), applied by strict validation.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ..errors import StackersError, TemplateError
from . import limits, loader, versions
from .parameters import ParameterSchema
from .shown import environment_shown
from .stack import StackDefinition
from .template import Template, detect_version

try:
    from . import environment as _environment
except ImportError:  # pragma: no cover - environment.py is part of the collection
    _environment = None

# heat.conf max_resources_per_stack: template validate refuses bigger ones.
MAX_RESOURCES_PER_STACK = limits.DEFAULT.max_resources_per_stack


def load_environment(environment, files=None, param_types=None, parameters=None):
    """One Environment from a list of environment sources (merged in order as
    with ``-e a -e b``), a single source, an Environment, or nothing."""
    if environment is None or environment == () or environment == []:
        return None
    if _environment is None:
        raise TemplateError('Environments are not supported by this installation')
    if isinstance(environment, _environment.Environment):
        return environment
    if not isinstance(environment, (list, tuple)):
        environment = [environment]
    return _environment.merge_environments(list(environment), files=files,
                                           param_types=param_types, parameters=parameters)


def _param_types(template):
    """name -> parameter type of every parameter Heat knows when it merges
    environment files (its all_param_schemata): those of each template in
    the files map, then the template's own, which win."""
    types = {}
    size = template.limits.max_template_size
    for name, content in sorted(template.files.items(), key=lambda item: str(item[0])):
        types.update(_file_param_types(name, content, size))
    types.update(_declared_types(template.parameters, template.version, template.doc))
    return types


def _file_param_types(name, content, size=loader.MAX_TEMPLATE_SIZE):
    """The parameter types of a files-map entry that is a HOT template;
    nothing for other content (scripts, environments, CFN templates).
    As in Heat, a template there with an unknown version or a bad parameter
    declaration fails the request, and so does any entry above the size
    limit of a template."""
    if not isinstance(content, (str, bytes)):
        return {}
    if len(content) > size:
        raise TemplateError('"%s" in the files map is %d bytes: Heat refuses a request whose '
                            'files exceed the template size limit (%d bytes)'
                            % (name, len(content), size), filename=name)
    try:
        doc = loader.load_text(content, filename=name, max_size=size)
    except StackersError:
        return {}
    if not isinstance(doc.data, dict) or versions.HOT_KEY not in doc.data \
            or any(key in doc.data for key in versions.CFN_KEYS):
        return {}
    version = detect_version(doc)
    section = doc.data.get('parameters') or {}
    if not isinstance(section, dict):
        return {}
    return _declared_types(section, version, doc)


def _declared_types(section, version, doc):
    if not isinstance(section, dict):
        return {}
    return dict((name, ParameterSchema.from_template(name, raw, version, path=('parameters', name),
                                                     doc=doc).type)
                for name, raw in section.items())


def _definition(template, environment, parameters, files, root, *, checker=None, limits=None,
                **kw):
    tmpl = Template.load(template, files=files, root=root, limits=limits)
    # As Heat merges ``-e`` files: the request's parameters first, each
    # file's parameters over them (with its merge strategies).
    env = load_environment(environment, files=tmpl.files, param_types=_param_types(tmpl),
                           parameters=parameters)
    if env is not None:
        parameters = None
    return StackDefinition(tmpl, environment=env, parameters=parameters, files=tmpl.files,
                           checker=checker, limits=limits, **kw)


def _unsupported_types(sd, supported_types):
    """Types Heat knows that the collection cannot create (yet)."""
    names = set()
    for defn in sd.resources.values():
        info = defn.type_info
        plugin = getattr(info, 'plugin', None)
        if plugin and not getattr(info, 'is_none', False) and plugin not in supported_types:
            names.add(plugin)
    return sorted(names)


def validate_template(template, environment=(), parameters=None, files=None, root=None, *,
                      checker=None, max_resources=MAX_RESOURCES_PER_STACK, strict=False,
                      supported_types, dependencies, limits=None, type_rules=None):
    """Validate as ``openstack orchestration template validate`` does and
    answer as it does (Description, Parameters, ParameterGroups), plus
    ``UnsupportedTypes`` and ``NotChecked``.

    Like Heat's template validate, the parameter values given are not
    checked against their types and constraints and a parameter without a
    value is no error (unless the template must use the value: a
    condition in use, an update_policy...); only undeclared ones are
    refused.  ``strict`` validates as stack create does (parameter values,
    every property resolved).  ``ParameterGroups`` is there only when the
    template has groups, as in Heat's answer; ``Environment`` is the
    environment Heat would use (hidden parameter values masked).  Raises a
    StackersError (with file and line where known) for an invalid
    template.  ``supported_types`` and ``dependencies``: see the module
    docstring.  ``limits`` (hot/limits.py, Heat's defaults when None) bound
    sizes and functions; given, its ``max_resources_per_stack`` is the
    resource limit."""
    if limits is not None:
        max_resources = limits.max_resources_per_stack
    with loader.gc_paused():
        return _validate_template(template, environment, parameters, files, root,
                                  checker=checker, max_resources=max_resources, strict=strict,
                                  supported_types=supported_types, dependencies=dependencies,
                                  limits=limits, type_rules=type_rules)


def _validate_template(template, environment, parameters, files, root, *, checker,
                       max_resources, strict, supported_types, dependencies, limits, type_rules):
    sd = _definition(template, environment, parameters, files, root, checker=checker,
                     limits=limits, type_rules=type_rules)
    if limits is not None:
        # the module's path: the request as Heat's API would receive it
        sd.max_nested_depth = limits.max_nested_stack_depth
        _check_body(sd, environment, parameters, files, limits)
    if max_resources is not None and max_resources >= 0 \
            and len(sd.template.resources) > max_resources:
        raise sd.template.error('The template has %d resources; a stack may hold at most %d'
                                % (len(sd.template.resources), max_resources), ('resources',))
    # Heat's template validate orders the resources by their explicit
    # dependencies only: implicit ones (and their cycles) wait for create.
    sd.validate(strict=strict, graph_builder=lambda stack: dependencies(stack, strict))
    answer = {
        'Description': sd.template.description,
        'Parameters': sd.parameters.validate_output(),
    }
    if sd.parameter_groups:
        answer['ParameterGroups'] = sd.parameter_groups
    answer['Environment'] = environment_shown(sd, parameters)
    answer['UnsupportedTypes'] = _unsupported_types(sd, supported_types)
    answer['NotChecked'] = list(sd.parameters.not_checked) + sd.not_checked
    if not strict:
        answer['NotChecked'] += _left_to_stack_create(sd)
    return answer


def _left_to_stack_create(sd):
    """The checks Heat's template validate leaves to stack create, in the
    shape of the service constraints left unchecked: each parameter's value
    (its presence, its type, each of its constraints by its key or custom
    constraint's name) and each enabled resource's properties (the required
    ones present, the values against the type's schema)."""
    left = []
    params = sd.parameters
    for name in getattr(params, 'schemas', ()):
        schema = params.schema(name)
        if not params.has_value(name):
            left.append({'parameter': name, 'constraint': 'required'})
        left.append({'parameter': name, 'constraint': 'type'})
        for con in schema.constraints:
            left.append({'parameter': name, 'constraint': getattr(con, 'constraint', None) or con.key})
    for name in sd.resources:
        where = 'resources.%s.properties' % name
        left.append({'property': where, 'constraint': 'required'})
        left.append({'property': where, 'constraint': 'values'})
    return left


def _check_body(sd, environment, parameters, files, own):
    """Heat's max_json_body_size over the request's parts (the template and
    the environments as data: a close stand-in for the text the client
    sends; an environment given by path counts by its name only)."""
    envs = environment if isinstance(environment, (list, tuple)) else [environment]
    limits.check_body({'template': sd.template.data,
                       'environment': [getattr(e, 'data', e) for e in envs if e is not None],
                       'files': files or {}, 'parameters': parameters or {}},
                      own, filename=sd.template.filename)


def _error(exc, phase):
    return {'phase': phase, 'type': type(exc).__name__, 'message': str(exc)}


def inspect(template, environment=(), parameters=None, files=None, root=None, *, checker=None,
            resource_data=None, stack_name='oracle_stack', stack_id=None, project_id=None,
            dependencies, type_rules=None):
    """What the Heat oracle reports for the same inputs, in its shape:
    ``valid``, ``error`` ({phase, type, message} or None), ``conditions``,
    ``resources`` ({name: {type, requires}}), ``outputs`` ({name: {value} |
    {unresolved: [...]} | {error}}), ``resource_properties`` and
    ``parameters``.  Never raises for an invalid template.
    ``dependencies``: see the module docstring."""
    result = {'valid': False, 'error': None, 'conditions': {}, 'resources': {},
              'outputs': {}, 'resource_properties': {}}
    try:
        sd = _definition(template, environment, parameters, files, root, checker=checker,
                         stack_name=stack_name, stack_id=stack_id, project_id=project_id,
                         type_rules=type_rules)
    except StackersError as exc:
        result['error'] = _error(exc, 'parse')
        return result
    requires = None
    try:
        requires = sd.validate(strict=True, graph_builder=lambda stack: dependencies(stack, True))
        result['valid'] = True
    except StackersError as exc:
        result['error'] = _error(exc, 'validate')
    # As the oracle does: validation never sees live state, resolution does.
    sd.resource_data = resource_data if resource_data is not None else {}
    _inspect_parts(sd, result, requires, dependencies)
    return result


def _requires(sd, requires, dependencies):
    """name -> the resources it requires, Heat's implicit dependencies
    included (explicit ones only when they cannot be computed)."""
    if requires is None:
        try:
            requires = dependencies(sd, True)
        except StackersError:
            requires = None
    if requires is not None:
        return requires
    return dict((name, sorted(defn.requires)) for name, defn in sd.resources.items())


def _inspect_parts(sd, result, requires, dependencies):
    try:
        result['parameters'] = dict((k, sd.parameters[k]) for k in sd.parameters
                                    if not str(k).startswith('OS::'))
    except StackersError as exc:
        result['parameters_error'] = _error(exc, 'parameters')
    try:
        for name in sd.conditions:
            result['conditions'][name] = sd.conditions.value(name)
    except StackersError as exc:
        result['conditions_error'] = _error(exc, 'conditions')
    try:
        sd.compute_references()
        requires = _requires(sd, requires, dependencies)
        for name, defn in sd.resources.items():
            result['resources'][name] = {'type': defn.type, 'requires': requires[name]}
    except StackersError as exc:
        result['dependency_error'] = _error(exc, 'dependencies')
        return
    for name, defn in sd.resources.items():
        if defn.properties is None:
            result['resource_properties'][name] = None
            continue
        try:
            result['resource_properties'][name] = sd.resolve_properties(name)
        except StackersError as exc:
            result['resource_properties'][name] = {'error': _error(exc, 'properties')}
    try:
        outputs = sd.outputs
    except StackersError as exc:
        result['outputs_error'] = _error(exc, 'outputs')
        return
    known = set(sd.resource_data)
    for name, out in outputs.items():
        missing = [r for r in out.required_resources() if r not in known]
        if missing:
            result['outputs'][name] = {'unresolved': missing}
            continue
        try:
            result['outputs'][name] = {'value': out.resolve()}
        except StackersError as exc:
            result['outputs'][name] = {'error': _error(exc, 'output')}
