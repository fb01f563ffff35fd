// Requests the browser engine makes of the host over the fs channel for what QuickJS's worker does itself: types are
// stripped in the host's worker (sucrase loads once there, not in every one-process engine worker).

/** `host:strip-types`: args [filename], data the TypeScript source; the reply is JSON of the JavaScript. */
export const STRIP_TYPES_OP = 'host:strip-types';
/** The prefix of the host ops. */
export const HOST_OP_PREFIX = 'host:';
