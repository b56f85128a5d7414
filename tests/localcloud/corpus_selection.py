# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which corpus templates the collection can run: every resource type they use, nested ones
looked into, is supported.

Pure functions of the files under a base directory and of ``supported`` (a predicate on a type
name), so that they can be tried on a few files made for the purpose.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os

import yaml

TEMPLATE_SUFFIXES = ('.yaml', '.yml', '.template')
STACK = 'OS::Heat::Stack'
GROUP = 'OS::Heat::ResourceGroup'
CHAIN = 'OS::Heat::ResourceChain'
ASG = 'OS::Heat::AutoScalingGroup'
# a deployment group -> its members' type (a group of single deployments, one per server)
DEPLOYMENT_GROUPS = {
    'OS::Heat::SoftwareDeploymentGroup': 'OS::Heat::SoftwareDeployment',
    'OS::Heat::SoftwareDeployments': 'OS::Heat::SoftwareDeployment',
    'OS::Heat::StructuredDeploymentGroup': 'OS::Heat::StructuredDeployment',
    'OS::Heat::StructuredDeployments': 'OS::Heat::StructuredDeployment',
}
NESTED = (STACK, GROUP, CHAIN, ASG) + tuple(DEPLOYMENT_GROUPS)


class NotRunnable(Exception):
    """A type (or a file it names) the collection cannot run; the message says which."""


def _is_template(name):
    return isinstance(name, str) and name.endswith(TEMPLATE_SUFFIXES)


def _read(base, rel):
    full = os.path.join(base, rel)
    if rel.startswith('..') or os.path.isabs(rel) or not os.path.isfile(full):
        raise NotRunnable('%s is not in the corpus' % rel)
    with open(full) as handle:
        try:
            return yaml.safe_load(handle)
        except yaml.YAMLError as exc:
            raise NotRunnable('%s does not parse: %s' % (rel, exc))


def _beside(referrer, name):
    return os.path.normpath(os.path.join(os.path.dirname(referrer), name))


def registry_of(base, env_rel):
    """type name -> what it maps to in the environment's resource_registry: a file (the corpus
    path, resolved against the environment) as ('file', path), or another type name."""
    if not env_rel:
        return {}
    env = _read(base, env_rel) or {}
    out = {}
    for name, value in ((env.get('resource_registry') or {}) if isinstance(env, dict)
                        else {}).items():
        if not isinstance(value, str):
            continue    # a resource-specific section: Heat applies it to one resource only
        out[name] = ('file', _beside(env_rel, value)) if _is_template(value) else value
    return out


def _inner(rel, name, rtype, props):
    """What a nested type holds: (type, properties) of its members, or a ('file', name) or
    ('text', template) of an OS::Heat::Stack."""
    props = props if isinstance(props, dict) else {}
    if rtype in (GROUP, ASG):
        member = props.get('resource_def' if rtype == GROUP else 'resource')
        member = member if isinstance(member, dict) else {}
        inner = [(member.get('type'), member.get('properties'))]
    elif rtype in DEPLOYMENT_GROUPS:
        inner = [(DEPLOYMENT_GROUPS[rtype], props)]
    elif rtype == CHAIN:
        types = props.get('resources')
        inner = [(t, props.get('resource_properties'))
                 for t in (types if isinstance(types, list) else [types])]
    else:
        template = props.get('template')
        if isinstance(template, dict) and list(template) == ['get_file']:
            return [('file', template['get_file'])]
        if isinstance(template, str):
            return [('text', template)]
        raise NotRunnable('%s: the template of %s is not a literal file or text' % (rel, name))
    if not all(isinstance(t, str) for t, _props in inner):
        raise NotRunnable('%s: %s (%s) holds a type that is not a literal' % (rel, name, rtype))
    return inner


def _walk(base, rel, data, registry, supported, found, chain):
    resources = data.get('resources') if isinstance(data, dict) else None
    if not isinstance(resources, dict) or not resources:
        raise NotRunnable('%s has no resources' % rel)
    for name, res in resources.items():
        rtype = res.get('type') if isinstance(res, dict) else None
        if not isinstance(rtype, str):
            raise NotRunnable('%s: resource %s has no type' % (rel, name))
        _type(base, rel, name, rtype, res.get('properties'), registry, supported, found, chain)


def _type(base, rel, name, rtype, props, registry, supported, found, chain):
    mapped = registry.get(rtype, rtype) if not _is_template(rtype) else rtype
    if isinstance(mapped, tuple):
        _file(base, mapped[1], registry, supported, found, chain)
    elif _is_template(mapped):
        _file(base, _beside(rel, mapped), registry, supported, found, chain)
    elif mapped in NESTED:
        found.add(mapped)
        for kind, what in _inner(rel, name, mapped, props):
            if kind == 'file':
                _file(base, _beside(rel, what), registry, supported, found, chain)
            elif kind == 'text':
                try:
                    data = yaml.safe_load(what)
                except yaml.YAMLError as exc:
                    raise NotRunnable('%s: the template of %s does not parse: %s' % (rel, name, exc))
                _walk(base, rel, data, registry, supported, found, chain)
            else:
                _type(base, rel, name, kind, what, registry, supported, found, chain)
    elif supported(mapped):
        found.add(mapped)
    else:
        raise NotRunnable('%s: %s is not supported' % (rel, mapped))


def _file(base, rel, registry, supported, found, chain):
    if rel in chain:
        raise NotRunnable('%s names itself (through %s)' % (rel, ' -> '.join(chain)))
    found.add(os.path.basename(rel))
    _walk(base, rel, _read(base, rel), registry, supported, found, chain + (rel,))


def runnable_types(base, rel, supported, env_rel=None):
    """The sorted types the template ``rel`` (a path under ``base``) uses, nested ones looked
    into and template files named by their base name, when the collection supports them all;
    else None."""
    found = set()
    try:
        _walk(base, rel, _read(base, rel), registry_of(base, env_rel), supported, found, (rel,))
    except NotRunnable:
        return None
    return sorted(found)
