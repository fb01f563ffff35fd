// The npm packages that provide Node's core modules inside the guest, each loaded on first use.

import { once } from './lazy';

export const bufferModule = once(() => require('buffer/') as typeof import('buffer'));
export const eventsModule = once(() => require('events/') as typeof import('events'));
export const utilModule = once(() => require('util/') as typeof import('util'));
export const assertModule = once(() => require('assert/') as typeof import('assert'));
export const pathModule = once(() => require('path-browserify') as typeof import('path'));
export const streamModule = once(() => require('stream-browserify') as typeof import('stream'));
export const stringDecoderModule = once(() => require('string_decoder/') as typeof import('string_decoder'));
export const legacyUrlModule = once(() => require('url/') as { parse: unknown; format: unknown; resolve: unknown; resolveObject: unknown; Url: unknown });
