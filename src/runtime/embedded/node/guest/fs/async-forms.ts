// fs's callback and promise forms: each runs its sync call on a later tick and reports there, as Node's report
// after the call returned (a callback never runs before the caller's next statement).

import { nodeError } from '../node-error';

/** Each async call and the sync call it runs. */
const ASYNC_FORMS = [
  ['access', 'accessSync'],
  ['stat', 'statSync'],
  ['lstat', 'lstatSync'],
  ['readFile', 'readFileSync'],
  ['writeFile', 'writeFileSync'],
  ['appendFile', 'appendFileSync'],
  ['readdir', 'readdirSync'],
  ['mkdir', 'mkdirSync'],
  ['mkdtemp', 'mkdtempSync'],
  ['rm', 'rmSync'],
  ['rmdir', 'rmdirSync'],
  ['unlink', 'unlinkSync'],
  ['rename', 'renameSync'],
  ['copyFile', 'copyFileSync'],
  ['cp', 'cpSync'],
  ['realpath', 'realpathSync'],
  ['readlink', 'readlinkSync'],
  ['symlink', 'symlinkSync'],
  ['link', 'linkSync'],
  ['chmod', 'chmodSync'],
  ['chown', 'chownSync'],
  ['utimes', 'utimesSync'],
  ['truncate', 'truncateSync'],
  ['open', 'openSync'],
  ['close', 'closeSync'],
  ['fstat', 'fstatSync'],
  ['fsync', 'fsyncSync'],
  ['read', 'readSync'],
  ['write', 'writeSync'],
] as const;

/** Node's fs.promises has no fd calls (its open gives a FileHandle, which is not offered here). */
const NO_PROMISE_FORM = ['open', 'close', 'fstat', 'fsync', 'read', 'write'];

type SyncName = (typeof ASYNC_FORMS)[number][1];

/** The callback forms (fs.readFile, ...) and the promise forms (fs.promises.readFile, ...) of the sync calls. */
export function asyncForms(sync: Record<SyncName, unknown>): { callbacks: Record<string, unknown>; promises: Record<string, unknown> } {
  const callbacks: Record<string, unknown> = {};
  const promises: Record<string, unknown> = {};
  for (const [name, syncName] of ASYNC_FORMS) {
    const fn = sync[syncName] as (...args: unknown[]) => unknown;
    callbacks[name] = callbackForm(fn);
    if (!NO_PROMISE_FORM.includes(name)) promises[name] = promiseForm(fn);
  }
  return { callbacks, promises };
}

function callbackForm(fn: (...args: unknown[]) => unknown) {
  return function (...args: unknown[]) {
    const callback = args[args.length - 1];
    if (typeof callback !== 'function') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "cb" argument must be of type function. Received undefined');
    const rest = args.slice(0, -1);
    setTimeout(() => {
      let result: unknown;
      try {
        result = fn(...rest);
      } catch (error) {
        callback(error);
        return;
      }
      callback(null, result);
    }, 0);
  };
}

function promiseForm(fn: (...args: unknown[]) => unknown) {
  return (...args: unknown[]) =>
    new Promise((resolvePromise, reject) => {
      setTimeout(() => {
        try {
          resolvePromise(fn(...args));
        } catch (error) {
          reject(error);
        }
      }, 0);
    });
}
