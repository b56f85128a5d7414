# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What every service process shares: the plan, SQLite locking, a threaded WSGI server.

Kept free of heavy imports: each service imports this first, before its own code (Nova and
Cinder need their eventlet patching before anything imports requests or urllib3).
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import logging
import os
import socket
import sys
import threading
import time

T0 = time.time()
# set by the supervisor: {service: fd} of the listening sockets it made for this process
LISTEN_FDS = 'LOCALCLOUD_LISTEN_FDS'


def run(main):
    """Run a service's main; a failure is printed in full (some fixtures swallow tracebacks)."""
    import traceback
    try:
        main()
    except BaseException as exc:
        if isinstance(exc, SystemExit) and exc.code in (None, 0):
            raise
        sys.stderr.write('localcloud-service failed:\n' + traceback.format_exc())
        sys.stderr.flush()
        os._exit(1)


def load_plan(argv=None):
    """The supervisor's plan: ports, URLs, credentials, state paths (plan.json)."""
    argv = sys.argv if argv is None else argv
    with open(argv[1]) as f:
        plan = json.load(f)
    # every service parses sys.argv as oslo.config options: leave it nothing to parse
    del sys.argv[1:]
    return plan


def render(template, **values):
    """Fill an ini template (str.format style with {name}; braces in it are not used)."""
    return template.format(**values)


def write_file(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    return path


SQLITE = {'foreign_keys': False, 'installed': False}
# How long a writer may wait for SQLite's write lock before its BEGIN fails.
LOCK_WAIT = 60.0


def _green():
    """True in a service eventlet has monkey-patched (Nova, Heat ...): its 'threads' are green
    threads of one OS thread."""
    patcher = sys.modules.get('eventlet.patcher')
    return bool(patcher and patcher.is_monkey_patched('thread'))


def _busy(exc):
    """SQLite's SQLITE_BUSY, however SQLAlchemy or oslo.db wrapped it."""
    import sqlite3
    while exc is not None:
        if isinstance(exc, sqlite3.OperationalError) and \
                getattr(exc, 'sqlite_errorname', '') in ('SQLITE_BUSY', 'SQLITE_LOCKED'):
            return True
        exc = (getattr(exc, 'orig', None) or getattr(exc, 'inner_exception', None) or
               exc.__cause__ or exc.__context__)
    return False


def _begin_cooperatively(conn):
    """BEGIN IMMEDIATE in a green service. SQLite's own busy wait sleeps in C, which stops every
    green thread of the process, the one holding the lock included: the wait could only end by
    timing out (a frozen Nova, then 'No valid host was found'). So SQLite waits briefly (see
    _pragmas), and between tries this sleeps the green way, letting the holder commit."""
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            conn.exec_driver_sql('BEGIN IMMEDIATE')
            return
        except Exception as exc:    # oslo.db may re-raise SQLITE_BUSY as its own type
            if not _busy(exc) or time.monotonic() > deadline:
                raise
        time.sleep(0.005)


def sqlite_locking(foreign_keys=False, skip_url=None):
    """Make SQLite safe for a multi-threaded service.

    oslo.db issues a deferred BEGIN; two threads that both read then write deadlock on the
    read->write upgrade and one gets 'database is locked' at once (busy_timeout does not help
    there).  So the outermost transaction of a thread takes the write lock up front (BEGIN
    IMMEDIATE).  A transaction that the same thread opens on a second connection while it
    already holds one (Neutron's trunk_details, Octavia's provider calls) must not: it would wait
    on itself.  It uses a deferred BEGIN, which never blocks under WAL.
    """
    SQLITE['foreign_keys'] = foreign_keys
    if SQLITE['installed']:
        return
    SQLITE['installed'] = True
    import sqlalchemy
    local = threading.local()
    green = _green()

    def held():
        if not hasattr(local, 'held'):
            local.held = set()
        return local.held

    @sqlalchemy.event.listens_for(sqlalchemy.engine.Engine, 'connect')
    def _pragmas(dbapi_conn, record):
        if 'sqlite' not in type(dbapi_conn).__module__:
            return
        cur = dbapi_conn.cursor()
        cur.execute('PRAGMA journal_mode=WAL')
        # a green service waits for the lock in _begin_cooperatively, not in SQLite
        cur.execute('PRAGMA busy_timeout=%d' % (20 if green else LOCK_WAIT * 1000))
        cur.execute('PRAGMA synchronous=NORMAL')
        if SQLITE['foreign_keys']:
            # Keystone relies on ON DELETE CASCADE; SQLite ignores foreign keys unless told
            cur.execute('PRAGMA foreign_keys=ON')
        cur.close()

    def _begin(conn):
        if conn.dialect.name != 'sqlite' or (skip_url and skip_url(str(conn.engine.url))):
            return
        key = id(conn.connection.dbapi_connection)
        mine = held()
        if 'in_transaction' not in conn.info:   # oslo.db's own listener checks the same marker
            nested = bool(mine - {key})
            if nested:
                conn.exec_driver_sql('BEGIN')
            elif green:
                _begin_cooperatively(conn)
            else:
                conn.exec_driver_sql('BEGIN IMMEDIATE')
            conn.info['in_transaction'] = True
        mine.add(key)

    def _end(conn):
        try:
            held().discard(id(conn.connection.dbapi_connection))
        except Exception:
            pass

    sqlalchemy.event.listen(sqlalchemy.engine.Engine, 'begin', _begin, insert=True)
    sqlalchemy.event.listen(sqlalchemy.engine.Engine, 'commit', _end)
    sqlalchemy.event.listen(sqlalchemy.engine.Engine, 'rollback', _end)

    @sqlalchemy.event.listens_for(sqlalchemy.pool.Pool, 'checkin')
    def _checkin(dbapi_conn, record):
        held().discard(id(dbapi_conn))


def read_chunked(rfile):
    """A chunked request body (Transfer-Encoding: chunked), read whole from ``rfile``."""
    chunks = []
    while True:
        size = int(rfile.readline().split(b';')[0].strip() or b'0', 16)
        if size == 0:
            # the trailer, up to its empty line
            while rfile.readline() not in (b'\r\n', b'\n', b''):
                pass
            return b''.join(chunks)
        chunks.append(rfile.read(size))
        rfile.readline()


def dechunked(app):
    """``app`` given chunked request bodies as plain ones (wsgi.input + CONTENT_LENGTH), as
    uWSGI or eventlet's server give them: wsgiref hands the raw chunked stream on, and an app
    reading it to its end waits forever.  Calls between services go straight to a service's
    port, not through the front door (which de-chunks too): Nova's image upload of a server's
    snapshot is chunked (glanceclient streams the file)."""
    import io

    def handle(environ, start_response):
        if 'chunked' in environ.get('HTTP_TRANSFER_ENCODING', '').lower():
            body = read_chunked(environ['wsgi.input'])
            environ['wsgi.input'] = io.BytesIO(body)
            environ['CONTENT_LENGTH'] = str(len(body))
            del environ['HTTP_TRANSFER_ENCODING']
        return app(environ, start_response)
    return handle


def prefixed(app, prefix, script_name=True):
    """Serve ``app`` under a path prefix (/compute, /networking ...), as a web server would mount it.

    The front door forwards the full path and the client's Host header, so the links a service
    builds from SCRIPT_NAME and the host point back at the front door; direct (internal) callers
    get links to the service's own port.
    """
    prefix = prefix.rstrip('/')

    def mounted(environ, start_response):
        path = environ.get('PATH_INFO', '')
        if prefix and (path == prefix or path.startswith(prefix + '/')):
            if script_name:
                environ['SCRIPT_NAME'] = environ.get('SCRIPT_NAME', '') + prefix
            environ['PATH_INFO'] = path[len(prefix):]
        elif prefix:
            start_response('404 Not Found', [('Content-Type', 'text/plain'), ('Content-Length', '9')])
            return [b'not found']
        return app(environ, start_response)
    return mounted


def serve(app, port, prefix='', name='service', host='127.0.0.1', background=False):
    """Serve a WSGI app on a threaded wsgiref server; print the ready line; never return
    (unless ``background``: then serve from a daemon thread and return it)."""
    from socketserver import ThreadingMixIn
    from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

    class Handler(WSGIRequestHandler):
        def log_message(self, *args):
            pass

        def setup(self):
            WSGIRequestHandler.setup(self)
            try:
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass

    class Server(ThreadingMixIn, WSGIServer):
        daemon_threads = True
        allow_reuse_address = True
        request_queue_size = 128

    sock = inherited(name)
    if sock is None:
        httpd = make_server(host, port, dechunked(prefixed(app, prefix)), server_class=Server,
                            handler_class=Handler)
    else:
        # the supervisor's socket, already bound and listening (plan.listen says why)
        httpd = Server(sock.getsockname(), Handler, bind_and_activate=False)
        httpd.socket.close()
        httpd.socket = sock
        httpd.server_address = sock.getsockname()
        httpd.server_name = socket.getfqdn(httpd.server_address[0])
        httpd.server_port = httpd.server_address[1]
        httpd.setup_environ()
        httpd.set_app(dechunked(prefixed(app, prefix)))
        port = httpd.server_port
    ready(name, port)
    if background:
        thread = threading.Thread(target=httpd.serve_forever, name=name, daemon=True)
        thread.start()
        return thread
    httpd.serve_forever()


def inherited(name, environ=None):
    """The listening socket the supervisor handed this process for service ``name``, or None
    (a service started by hand binds its plan's port itself)."""
    fds = json.loads((os.environ if environ is None else environ).get(LISTEN_FDS) or '{}')
    if name not in fds:
        return None
    return socket.socket(fileno=fds[name])


def ready(name, port):
    print('localcloud-service %s listening on %d (%.1fs)' % (name, port, time.time() - T0), flush=True)


def quiet_logging(level=logging.WARNING):
    root = logging.getLogger()
    root.setLevel(level)
    for h in root.handlers:
        h.setLevel(level)


def knobs(plan):
    """The runtime knobs (build seconds ...): a small JSON file the supervisor rewrites."""
    path = plan['knobs_file']
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def build_seconds(plan, kind, default=0.0):
    return float(knobs(plan).get('build_seconds', {}).get(kind, default) or 0.0)


def authtoken_section(plan, extra=''):
    """A [keystone_authtoken] section validating tokens against the local Keystone directly."""
    ks = plan['services']['keystone']['internal']
    s = plan['service_user']
    return (
        '[keystone_authtoken]\n'
        'www_authenticate_uri = {pub}\n'
        'auth_url = {ks}\n'
        'auth_type = password\n'
        'username = {user}\n'
        'password = {pw}\n'
        'project_name = service\n'
        'user_domain_id = default\n'
        'project_domain_id = default\n'
        'interface = internal\n'
        'service_token_roles_required = true\n'
        'memcached_servers =\n'
        'token_cache_time = 600\n'
        '{extra}\n'
    ).format(pub=plan['services']['keystone']['public'], ks=ks, user=s['username'], pw=s['password'],
             extra=extra)


def service_auth_section(plan, group, extra=''):
    """A keystoneauth password section ([neutron], [nova], [placement] ...) as the service user."""
    s = plan['service_user']
    return (
        '[{group}]\n'
        'auth_type = password\n'
        'auth_url = {ks}\n'
        'username = {user}\n'
        'password = {pw}\n'
        'project_name = service\n'
        'user_domain_id = default\n'
        'project_domain_id = default\n'
        'region_name = RegionOne\n'
        '{extra}\n'
    ).format(group=group, ks=plan['services']['keystone']['internal'], user=s['username'],
             pw=s['password'], extra=extra)
