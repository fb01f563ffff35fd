// Errors shaped as Node's: a message, a `code`, and for system errors errno, syscall and path.

/** An Error (or TypeError/RangeError) with Node's `code` property. */
export function nodeError<E extends ErrorConstructor>(Kind: E, code: string, message: string): InstanceType<E> & { code: string } {
  const error = new Kind(message) as InstanceType<E> & { code: string };
  error.code = code;
  return error;
}

const ERRNO: Record<string, number> = { ENOENT: -2, EEXIST: -17, EISDIR: -21, ENOTDIR: -20, ENOTEMPTY: -39, EACCES: -13, EPERM: -1, EINVAL: -22, EBADF: -9, ENOSYS: -38, EIO: -5 };

/** A system error as fs throws it: `code`, `errno`, `syscall`, `path`. */
export function systemError(code: string, message: string, syscall: string, path?: string, dest?: string): Error {
  const error = new Error(message) as Error & Record<string, unknown>;
  error.errno = ERRNO[code] ?? -5;
  error.code = code;
  error.syscall = syscall;
  if (path !== undefined) error.path = path;
  if (dest !== undefined) error.dest = dest;
  return error;
}
