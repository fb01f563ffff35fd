// A script that exercises child_process as a program would (sync and async forms, exit codes, stdio, stdin, kill,
// timeouts, ENOENT, env, cwd, quoting, promisify), printing what it sees: run by the embedded node and by real Node,
// the two outputs must be the same. Its children are commands both have: sh, echo, cat, sleep, pwd.

export const CHILD_PROCESS_SEMANTICS = String.raw`
const cp = require('child_process');
const { promisify } = require('util');
const log = (...a) => console.log(...a);

const sync = cp.spawnSync('sh', ['-c', 'echo out; echo err >&2; exit 3']);
log('spawnSync', sync.status, sync.signal, JSON.stringify(String(sync.stdout)), JSON.stringify(String(sync.stderr)));
log('input', cp.spawnSync('cat', { input: 'fed in\n', encoding: 'utf8' }).stdout.trim());
log('execSync', Buffer.isBuffer(cp.execSync('echo hi')), cp.execSync('echo hi', { encoding: 'utf8' }).trim());
try {
  cp.execSync('echo partial; echo bad >&2; exit 4', { stdio: 'pipe' });
} catch (error) {
  log('thrown', error.status, error.signal, JSON.stringify(error.message), String(error.stdout).trim(), String(error.stderr).trim());
}
log('quoted', cp.execFileSync('echo', ["it's $HOME", 'a  b', '*'], { encoding: 'utf8' }).trim());
log('env', cp.execSync('echo "[$ONLY][$HOME]"', { env: { ONLY: 'this' }, encoding: 'utf8' }).trim());
log('cwd', cp.execSync('pwd', { cwd: 'sub', encoding: 'utf8' }).trim().endsWith('/sub'));
const missing = cp.spawnSync('no-such-command-here', ['x']);
log('missing sync', missing.error && missing.error.code, missing.error && missing.error.syscall, missing.status);
try {
  cp.execSync('sleep 5', { timeout: 200, stdio: 'pipe' });
} catch (error) {
  log('timeout', error.code, error.signal, error.status);
}

const child = cp.spawn('sh', ['-c', 'echo out; echo err >&2; exit 3']);
let out = '';
let err = '';
child.stdout.on('data', (d) => (out += d));
child.stderr.setEncoding('utf8');
child.stderr.on('data', (d) => (err += d));
child.on('exit', (code, signal) => log('exit', code, signal));
child.on('close', (code, signal) => {
  log('close', code, signal, JSON.stringify(out), JSON.stringify(err));
  const cat = cp.spawn('cat');
  let echoed = '';
  cat.stdout.on('data', (d) => (echoed += d));
  cat.on('close', (code) => {
    log('cat', code, JSON.stringify(echoed));
    const sleeper = cp.spawn('sleep', ['100']);
    sleeper.on('exit', (code, signal) => {
      log('killed', code, signal, sleeper.killed);
      cp.exec('echo via exec; exit 2', (error, stdout) => {
        log('exec', error.code, JSON.stringify(stdout), error.message.split('\n')[0]);
        promisify(cp.exec)('echo promised').then(({ stdout }) => {
          log('promisify', stdout.trim());
          const lost = cp.spawn('no-such-command-here');
          lost.on('error', (error) => log('missing async', error.code, error.syscall));
          lost.on('close', (code) => {
            log('missing close', code);
            cp.exec('sleep 5', { timeout: 100 }, (error) => log('exec timeout', error.killed, error.signal, error.code));
          });
        });
      });
    });
    setTimeout(() => log('kill returned', sleeper.kill()), 50);
  });
  cat.stdin.write('to ');
  cat.stdin.end('cat\n');
});
`;
