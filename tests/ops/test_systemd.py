"""deploy/arcaded.service, checked without a running systemd.

- `systemd-analyze security --offline=true` rates the shipped unit's
  sandbox; the figure is printed and must be 2.0 at most.
- `systemd-analyze verify` checks the unit, on a copy whose ExecStart
  names the built binary (verify wants the program to exist): the only
  change, the path /usr/local/bin/arcaded replaced.
- The daemon starts from the unit's own ExecStart arguments and
  Environment= lines (their /run/arcaded and /var/lib/arcaded folders
  moved into a scratch folder) and sends READY=1, so the variables the
  unit sets are ones the daemon reads and Type=notify is honoured.
- The unit and deploy/nginx.conf name the same socket.

systemd-analyze comes with Debian's systemd package (./dev installs it).
"""
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile

from harness import Tap, binary

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
UNIT = os.path.join(ROOT, 'deploy', 'arcaded.service')
NGINX = os.path.join(ROOT, 'deploy', 'nginx.conf')
INSTALLED = '/usr/local/bin/arcaded'
MAX_EXPOSURE = 2.0


def settings(text):
    """[(key, value)] of the unit, in order (comments dropped)."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(('#', ';', '[')) and '=' in line:
            k, v = line.split('=', 1)
            out.append((k.strip(), v.strip()))
    return out


t = Tap()
analyze = shutil.which('systemd-analyze')
if not t.ok(analyze, 'systemd-analyze is installed (Debian\'s systemd package; ./dev test installs it)'):
    t.done()
with open(UNIT) as f:
    text = f.read()
unit = settings(text)
values = {}
for k, v in unit:
    values.setdefault(k, []).append(v)

p = subprocess.run([analyze, 'security', '--offline=true', '--no-pager', UNIT],
                   capture_output=True, text=True, timeout=60)
m = re.search(r'Overall exposure level for arcaded\.service: ([0-9.]+)', p.stdout + p.stderr)
exposure = float(m.group(1)) if m else None
t.diag('systemd-analyze security --offline=true deploy/arcaded.service: %s' %
       (m.group(0) if m else (p.stdout + p.stderr)[-2000:]))
if t.ok(exposure is not None and exposure <= MAX_EXPOSURE,
        'exposure %s, at most %.1f' % (exposure, MAX_EXPOSURE)):
    for line in p.stdout.splitlines():
        if line.startswith('\u2717'):  # what still counts against it
            t.diag(re.sub(r'\s{2,}', '  ', line))

scratch = tempfile.mkdtemp(prefix='arcaded-systemd-')
proc = None
try:
    t.eq(values.get('ExecStart', [''])[0].split()[0], INSTALLED,
         'ExecStart runs the binary where the unit\'s install notes put it')
    copy = os.path.join(scratch, 'arcaded.service')
    with open(copy, 'w') as f:
        f.write(text.replace(INSTALLED, binary()))
    p = subprocess.run([analyze, 'verify', '--no-pager', copy], capture_output=True, text=True,
                       timeout=60)
    ours = [l for l in (p.stdout + p.stderr).splitlines() if 'arcaded' in l]
    if not t.ok(p.returncode == 0 and not ours,
                'systemd-analyze verify accepts the unit (ExecStart: the built binary)'):
        t.diag((p.stdout + p.stderr)[-2000:])

    # The daemon as the unit starts it, folders moved into the scratch folder.
    run_dir = os.path.join(scratch, 'run')
    state_dir = os.path.join(scratch, 'state')
    os.mkdir(run_dir)
    os.mkdir(state_dir)
    env = {k: v for k, v in os.environ.items() if not k.startswith(('ARCADED_', 'WATCHDOG_'))}
    for assignment in values.get('Environment', []):
        for word in shlex.split(assignment):
            k, v = word.split('=', 1)
            env[k] = v.replace('/run/arcaded/', run_dir + '/').replace(
                '/var/lib/arcaded/', state_dir + '/')
    notify = os.path.join(scratch, 'notify.sock')
    rx = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    rx.bind(notify)
    rx.settimeout(30)
    env['NOTIFY_SOCKET'] = notify
    args = shlex.split(values['ExecStart'][0])[1:]
    proc = subprocess.Popen([binary()] + args, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        ready = rx.recv(4096).decode()
    except socket.timeout:
        ready = ''
    listen = env.get('ARCADED_LISTEN', '')
    t.ok(ready.startswith('READY=1') and listen.startswith('unix:' + run_dir + '/') and
         os.path.exists(listen[len('unix:'):]) and
         os.path.exists(os.path.join(state_dir, 'arcaded.db')),
         'the daemon runs from the unit\'s ExecStart and Environment= and sends READY=1 '
         '(Type=%s)' % values.get('Type', ['simple'])[0])
    proc.send_signal(signal.SIGTERM)
    rc = proc.wait(20)
    err = proc.stderr.read().decode('utf-8', 'replace')
    proc.stderr.close()
    proc = None
    if not t.eq(rc, 0, 'and stops on the unit\'s KillSignal (%s) with status 0' %
                values.get('KillSignal', ['SIGTERM'])[0]):
        t.diag(err[-1500:])
    t.ok(values.get('KillSignal', ['SIGTERM'])[0] == 'SIGTERM' and
         values.get('Type', [''])[0] == 'notify' and values.get('WatchdogSec'),
         'Type=notify with a WatchdogSec, stopped by SIGTERM')
    rx.close()

    # One socket for both files.
    with open(NGINX) as f:
        upstream = re.search(r'^\s*server unix:(\S+)', f.read(), re.M)
    unit_socket = [v for v in values.get('Environment', []) if v.startswith('ARCADED_LISTEN=')]
    runtime = values.get('RuntimeDirectory', [''])[0]
    t.ok(upstream and unit_socket and unit_socket[0] == 'ARCADED_LISTEN=unix:' + upstream.group(1)
         and upstream.group(1).startswith('/run/%s/' % runtime),
         'the unit listens on the socket nginx.conf proxies to, in its RuntimeDirectory (%s)'
         % (upstream.group(1) if upstream else None))
finally:
    if proc is not None:
        proc.kill()
        proc.wait()
    shutil.rmtree(scratch, ignore_errors=True)
t.done()
