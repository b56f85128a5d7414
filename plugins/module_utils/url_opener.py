# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The opener of the files a template names by URL, for the modules that
fetch them (heat_stack, heat_template_validate): Ansible's ``open_url``.

A file of its own, beside base.py, so that only those modules ship
Ansible's urls.py: AnsiballZ ships every module_utils file a module's
imports name, and heat_stack_info, which fetches nothing, imports base.py.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils import urls


def url_opener(params):
    """``opener(url, timeout)`` for the files a template names by URL
    (engine/definition/remote_files.py): Ansible's ``open_url`` with the task's TLS
    options (certificates verified unless ``validate_certs`` is false,
    ``ca_cert``, ``client_cert`` / ``client_key``).  Its own failures come
    back as OSError, the one kind the engine expects of an opener."""

    def opener(url, timeout):
        verify = params.get('validate_certs')
        try:
            return urls.open_url(url, timeout=timeout, validate_certs=verify is not False,
                                 ca_path=params.get('ca_cert'), client_cert=params.get('client_cert'),
                                 client_key=params.get('client_key'), http_agent='stackers.orchestration')
        except (urls.ConnectionError, urls.SSLValidationError) as exc:
            raise OSError(str(exc)) from None
    return opener
