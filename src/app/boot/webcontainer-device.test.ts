import { describe, expect, it } from 'vitest';
import { containerErrorNotice, watchContainerErrors } from './container-errors';
import { isIPhoneOrIPad, mayAutoBootWebContainer } from './webcontainer-device';

describe('where WebContainer boots unasked', () => {
  it('not on iPhone or iPad, including an iPad in desktop mode', () => {
    expect(isIPhoneOrIPad({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15', platform: 'iPhone' })).toBe(true);
    expect(isIPhoneOrIPad({ userAgent: 'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X)', platform: 'iPad', maxTouchPoints: 5 })).toBe(true);
    expect(isIPhoneOrIPad({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Version/17.4 Safari/605.1.15', platform: 'MacIntel', maxTouchPoints: 5 })).toBe(true);
    expect(mayAutoBootWebContainer({ userAgent: 'Mozilla/5.0 (iPhone)', platform: 'iPhone' })).toBe(false);
  });

  it('everywhere else', () => {
    expect(mayAutoBootWebContainer({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Chrome/126.0', platform: 'MacIntel', maxTouchPoints: 0 })).toBe(true);
    expect(mayAutoBootWebContainer({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0', platform: 'Linux x86_64' })).toBe(true);
    expect(mayAutoBootWebContainer({ userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile', platform: 'Linux armv8l', maxTouchPoints: 5 })).toBe(true);
    expect(mayAutoBootWebContainer(undefined)).toBe(true);
  });
});

describe('WebContainer error events', () => {
  it('become a notice naming the error and the usual cause', () => {
    const listeners: ((error: { message: string }) => void)[] = [];
    const notices: string[] = [];
    const stop = watchContainerErrors({ on: (_event, listener) => (listeners.push(listener), () => listeners.splice(0)) }, (n) => notices.push(n));
    listeners[0]({ message: 'Unable to create more instances' });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^WebContainer reported an error: Unable to create more instances\. Privacy blockers and blocked third-party cookies/);
    stop();
    expect(listeners).toHaveLength(0);
    expect(containerErrorNotice('boom')).toContain('reported an error: boom.');
    expect(containerErrorNotice({ message: ' ' })).toContain('reported an error: no details given.');
  });
});
