# Make the repository importable as ansible_collections.stackers.orchestration,
# the way ansible-test and AnsiballZ see it, without installing anything.
import os
import sys

_ROOT = os.path.dirname(os.path.abspath(__file__))
_BUILD = os.path.join(_ROOT, '.build')
_LINK = os.path.join(_BUILD, 'ansible_collections', 'stackers', 'orchestration')
if not os.path.islink(_LINK):
    os.makedirs(os.path.dirname(_LINK), exist_ok=True)
    try:
        os.symlink(os.path.relpath(_ROOT, os.path.dirname(_LINK)), _LINK)
    except FileExistsError:
        pass
if _BUILD not in sys.path:
    sys.path.insert(0, _BUILD)
