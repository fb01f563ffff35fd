// The `t` a node:test test receives: its name, diagnostics, skip/todo, subtests and hooks, and Node 20.15's
// `t.plan(count)` with `t.assert` (node:assert's functions, each call counted towards the plan, as subtests are).

import { assertModule } from '../modules/packages';
import { nodeError } from '../node-error';
import type { HookFn, TestNode, TestRunner } from './test-runner';

export class TestContext {
  readonly signal: AbortSignal;
  private planned: number | undefined;
  private counted = 0;
  private assertions: Record<string, unknown> | undefined;

  constructor(
    private readonly node: TestNode,
    private readonly runner: TestRunner,
  ) {
    this.signal = new AbortController().signal;
  }
  get name(): string {
    return this.node.name;
  }
  get fullName(): string {
    const names: string[] = [];
    for (let node: TestNode | undefined = this.node; node && node.kind !== 'root'; node = node.parent) names.unshift(node.name);
    return names.join(' > ');
  }
  /** node:assert's functions; each call counts towards `plan`. */
  get assert(): Record<string, unknown> {
    if (this.assertions) return this.assertions;
    const assert = assertModule() as unknown as Record<string, unknown>;
    const counted: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(assert)) {
      if (typeof value !== 'function' || name === 'AssertionError' || name === 'CallTracker' || name === 'strict') continue;
      const fn = value as (...args: unknown[]) => unknown;
      counted[name] = (...args: unknown[]) => {
        this.counted++;
        return fn(...args);
      };
    }
    this.assertions = counted;
    return counted;
  }
  plan(count: number): void {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "count" argument must be a non-negative integer. Received ${String(count)}`);
    }
    if (this.planned !== undefined) throw nodeError(Error, 'ERR_TEST_FAILURE', 'cannot set plan more than once');
    this.planned = count;
  }
  /** Throws Node's plan failure when the test ran a different number of assertions and subtests than planned. */
  checkPlan(): void {
    if (this.planned === undefined || this.planned === this.counted) return;
    throw Object.assign(new Error(`plan expected ${this.planned} assertions but received ${this.counted}`), { failureType: 'testCodeFailure', code: 'ERR_TEST_FAILURE' });
  }
  diagnostic(message: string): void {
    this.runner.diagnostics.set(this.node, [...(this.runner.diagnostics.get(this.node) ?? []), String(message)]);
  }
  skip(message?: string): void {
    this.runner.lateDirectives.set(this.node, message ? `SKIP ${message}` : 'SKIP');
  }
  todo(message?: string): void {
    this.runner.lateDirectives.set(this.node, message ? `TODO ${message}` : 'TODO');
  }
  test(name: unknown, options?: unknown, fn?: unknown): Promise<void> {
    this.counted++;
    const node = this.runner.add('test', this.node, name, options, fn);
    const running = this.runner.runChild(node, this.runner.depthOf(node));
    this.runner.pendingSubtests.set(this.node, [...(this.runner.pendingSubtests.get(this.node) ?? []), running]);
    return running;
  }
  before(fn: HookFn): void {
    this.node.hooks.before.push(fn);
  }
  after(fn: HookFn): void {
    this.node.hooks.after.push(fn);
  }
  beforeEach(fn: HookFn): void {
    this.node.hooks.beforeEach.push(fn);
  }
  afterEach(fn: HookFn): void {
    this.node.hooks.afterEach.push(fn);
  }
}
