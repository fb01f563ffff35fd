// `node:test` inside the guest: test/it, describe/suite, hooks, skip/todo/only, subtests through the context, and
// Node 20's TAP report with its summary lines. Top-level tests start on a later tick, one after another, as in Node;
// the summary is printed when the event loop has nothing else to do (the engine's beforeExit).

import type { TestCounts } from '../../engine/protocol';
import { errorYaml } from './tap';
import { TestContext } from './test-context';

type TestFn = (context: TestContext, done?: (error?: unknown) => void) => unknown;
export type HookFn = (context?: unknown, done?: (error?: unknown) => void) => unknown;
export type Options = { skip?: boolean | string; todo?: boolean | string; only?: boolean; timeout?: number; concurrency?: unknown };
export type Hooks = { before: HookFn[]; after: HookFn[]; beforeEach: HookFn[]; afterEach: HookFn[] };
type Outcome = { ok: boolean; directive?: string; error?: unknown; failureType?: string; duration: number };

export class TestNode {
  readonly children: TestNode[] = [];
  readonly hooks: Hooks = { before: [], after: [], beforeEach: [], afterEach: [] };
  /** A suite's body may be async: its subtests are known once this settles. */
  ready: Promise<unknown> = Promise.resolve();
  bodyError: unknown;
  constructor(
    readonly name: string,
    readonly kind: 'test' | 'suite' | 'root',
    readonly fn: TestFn | undefined,
    readonly options: Options,
    readonly parent: TestNode | undefined,
    readonly location: string | undefined,
  ) {}
}

export type TestRunnerOptions = {
  write(text: string): void;
  /** node --test: numbering continues after this; no header, plan or summary (the host prints them). */
  fileMode: boolean;
  numberOffset: number;
  testOnly: boolean;
  reportCounts(counts: TestCounts): void;
  setFailed(): void;
  now(): number;
};

export class TestRunner {
  readonly root = new TestNode('<root>', 'root', undefined, {}, undefined, undefined);
  private current: TestNode = this.root;
  private readonly counts: TestCounts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0, topLevel: 0 };
  private readonly started: number;
  private nextTopLevel = 0;
  private running = false;
  private summarized = false;
  private headerWritten = false;
  readonly diagnostics = new Map<TestNode, string[]>();
  readonly lateDirectives = new Map<TestNode, string>();
  readonly pendingSubtests = new Map<TestNode, Promise<void>[]>();
  private readonly numbers = new Map<TestNode, number>();

  constructor(private readonly options: TestRunnerOptions) {
    this.started = options.now();
  }

  /** Registers a test or suite under `parent` (the suite being declared when none is given). */
  add(kind: 'test' | 'suite', parent: TestNode | undefined, nameArg: unknown, optionsArg: unknown, fnArg: unknown): TestNode {
    let name = nameArg;
    let options = optionsArg;
    let fn = fnArg;
    if (typeof name === 'function') [fn, options, name] = [name, {}, (name as { name?: string }).name || '<anonymous>'];
    else if (typeof name === 'object' && name !== null) [fn, options, name] = [options, name, '<anonymous>'];
    if (typeof options === 'function') [fn, options] = [options, {}];
    const owner = parent ?? this.current;
    const node = new TestNode(String(name ?? '<anonymous>'), kind, fn as TestFn | undefined, (options ?? {}) as Options, owner, callerLocation());
    owner.children.push(node);
    if (kind === 'suite') this.declareSuite(node);
    if (owner === this.root) this.schedule();
    return node;
  }

  private declareSuite(node: TestNode): void {
    const previous = this.current;
    this.current = node;
    try {
      const result = node.fn?.call(undefined, new TestContext(node, this));
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        node.ready = (result as Promise<unknown>).then(undefined, (error: unknown) => {
          node.bodyError = error;
        });
      }
    } catch (error) {
      node.bodyError = error;
    } finally {
      this.current = previous;
    }
  }

  hook(kind: keyof Hooks, fn: HookFn): void {
    this.current.hooks[kind].push(fn);
  }

  private schedule(): void {
    if (this.running) return;
    this.running = true;
    setTimeout(() => void this.drain(), 0);
  }

  private async drain(): Promise<void> {
    if (!this.options.fileMode && !this.headerWritten) {
      this.headerWritten = true;
      this.options.write('TAP version 13\n');
    }
    const ready = this.root.hooks.before.length > 0 && this.nextTopLevel === 0 ? this.runHooks(this.root.hooks.before, undefined) : undefined;
    if (ready) await ready;
    while (this.nextTopLevel < this.root.children.length) {
      const node = this.root.children[this.nextTopLevel++];
      await this.runChild(node, 0);
    }
    this.running = false;
  }

  /** The event loop is empty: run what was registered late, else close the report. True when more work was started. */
  finish(): boolean {
    if (this.running) return true;
    if (this.nextTopLevel < this.root.children.length) {
      this.schedule();
      return true;
    }
    if (this.summarized || this.root.children.length === 0) return false;
    this.summarized = true;
    for (const hook of this.root.hooks.after) hook();
    if (this.counts.fail > 0) this.options.setFailed();
    this.counts.topLevel = this.root.children.length;
    if (this.options.fileMode) {
      this.options.reportCounts(this.counts);
      return false;
    }
    const c = this.counts;
    this.options.write(
      `1..${this.root.children.length}\n# tests ${c.tests}\n# suites ${c.suites}\n# pass ${c.pass}\n# fail ${c.fail}\n` +
        `# cancelled ${c.cancelled}\n# skipped ${c.skipped}\n# todo ${c.todo}\n# duration_ms ${(this.options.now() - this.started).toFixed(6)}\n`,
    );
    return false;
  }

  depthOf(node: TestNode): number {
    let depth = -1;
    for (let at: TestNode | undefined = node.parent; at; at = at.parent) depth++;
    return depth;
  }

  async runChild(node: TestNode, depth: number): Promise<void> {
    const indent = '    '.repeat(depth);
    const siblings = node.parent?.children ?? [];
    const number = depth === 0 ? this.options.numberOffset + siblings.indexOf(node) + 1 : siblings.indexOf(node) + 1;
    this.numbers.set(node, number);
    this.options.write(`${indent}# Subtest: ${node.name}\n`);
    const outcome = node.kind === 'suite' ? await this.runSuite(node, depth) : await this.runTest(node, depth);
    this.record(node, outcome);
    this.report(node, outcome, indent, number);
  }

  private excludedByOnly(node: TestNode): boolean {
    if (!this.options.testOnly || node.options.only) return false;
    const siblings = node.parent?.children ?? [];
    return node.parent?.kind === 'root' || siblings.some((sibling) => sibling.options.only) ? !hasOnly(node) : false;
  }

  private async runTest(node: TestNode, depth: number): Promise<Outcome> {
    const start = this.options.now();
    const skip = node.options.skip;
    if (skip || this.excludedByOnly(node)) {
      const reason = this.excludedByOnly(node) ? "'only' option not set" : typeof skip === 'string' ? skip : '';
      return { ok: true, directive: reason ? `SKIP ${reason}` : 'SKIP', duration: this.options.now() - start };
    }
    const todo = node.options.todo;
    const directive = todo ? (typeof todo === 'string' ? `TODO ${todo}` : 'TODO') : undefined;
    const context = new TestContext(node, this);
    const suites = ancestors(node);
    let error: unknown;
    let failureType: string | undefined;
    try {
      for (const suite of suites) await this.runHooks(suite.hooks.beforeEach, context);
      if (node.fn) await this.invoke(node, context);
      for (const pending of this.pendingSubtests.get(node) ?? []) await pending;
      context.checkPlan();
    } catch (caught) {
      error = caught;
      failureType = (caught as { failureType?: string })?.failureType ?? 'testCodeFailure';
    }
    try {
      for (const suite of [...suites].reverse()) await this.runHooks(suite.hooks.afterEach, context);
    } catch (caught) {
      error ??= caught;
      failureType ??= 'hookFailed';
    }
    const subtestFailed = node.children.some((child) => this.failed.has(child));
    if (!error && subtestFailed) {
      error = new Error(`${node.children.filter((child) => this.failed.has(child)).length} subtest failed`);
      failureType = 'subtestsFailed';
    }
    void depth;
    const late = this.lateDirectives.get(node);
    return { ok: error === undefined, directive: late ?? directive, error, failureType, duration: this.options.now() - start };
  }

  private readonly failed = new Set<TestNode>();

  private async invoke(node: TestNode, context: TestContext): Promise<void> {
    const fn = node.fn!;
    const run =
      fn.length >= 2
        ? new Promise<void>((resolve, reject) => {
            fn.call(context, context, (error?: unknown) => (error ? reject(error) : resolve()));
          })
        : Promise.resolve(fn.call(context, context));
    const timeout = node.options.timeout;
    if (timeout === undefined || !Number.isFinite(timeout)) {
      await run;
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      const fail = () => reject(Object.assign(new Error(`test timed out after ${timeout}ms`), { failureType: 'testTimeoutFailure', code: 'ERR_TEST_FAILURE' }));
      timer = setTimeout(fail, timeout);
    });
    try {
      await Promise.race([run, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async runSuite(node: TestNode, depth: number): Promise<Outcome> {
    const start = this.options.now();
    await node.ready;
    const skip = node.options.skip || this.excludedByOnly(node);
    let error: unknown = node.bodyError;
    let failureType: string | undefined = error === undefined ? undefined : 'testCodeFailure';
    if (!error && !skip) {
      try {
        await this.runHooks(node.hooks.before, undefined);
      } catch (caught) {
        error = caught;
        failureType = 'hookFailed';
      }
    }
    for (const child of node.children) {
      if (skip || error) child.options.skip = skip ? (typeof node.options.skip === 'string' ? node.options.skip : true) : true;
      await this.runChild(child, depth + 1);
    }
    this.options.write(`${'    '.repeat(depth + 1)}1..${node.children.length}\n`);
    if (!error && !skip) {
      try {
        await this.runHooks(node.hooks.after, undefined);
      } catch (caught) {
        error = caught;
        failureType = 'hookFailed';
      }
    }
    const failures = node.children.filter((child) => this.failed.has(child)).length;
    if (!error && failures > 0) {
      error = new Error(`${failures} subtest${failures === 1 ? '' : 's'} failed`);
      failureType = 'subtestsFailed';
    }
    return { ok: error === undefined, directive: skip ? 'SKIP' : undefined, error, failureType, duration: this.options.now() - start };
  }

  private async runHooks(hooks: HookFn[], context: unknown): Promise<void> {
    for (const hook of hooks) {
      const done = (resolve: () => void, reject: (error: unknown) => void) => (error?: unknown) => (error ? reject(error) : resolve());
      await (hook.length >= 2 ? new Promise<void>((resolve, reject) => hook(context, done(resolve, reject))) : hook(context));
    }
  }

  private record(node: TestNode, outcome: Outcome): void {
    const todo = outcome.directive?.startsWith('TODO');
    const skipped = outcome.directive?.startsWith('SKIP');
    if (!outcome.ok && !todo) this.failed.add(node);
    if (node.kind === 'suite') {
      this.counts.suites++;
      return;
    }
    this.counts.tests++;
    if (skipped) this.counts.skipped++;
    else if (todo) this.counts.todo++;
    else if (outcome.ok) this.counts.pass++;
    else this.counts.fail++;
  }

  private report(node: TestNode, outcome: Outcome, indent: string, number: number): void {
    const directive = outcome.directive ? ` # ${outcome.directive}` : '';
    const lines = [`${indent}${outcome.ok ? 'ok' : 'not ok'} ${number} - ${node.name}${directive}`];
    for (const message of this.diagnostics.get(node) ?? []) lines.unshift(`${indent}# ${message}`);
    const yaml = [`duration_ms: ${outcome.duration.toFixed(6)}`];
    if (node.kind === 'suite') yaml.push("type: 'suite'");
    if (!outcome.ok) {
      if (node.location) yaml.push(`location: '${node.location}'`);
      yaml.push(`failureType: '${outcome.failureType ?? 'testCodeFailure'}'`);
      yaml.push(...errorYaml(outcome.error));
    }
    lines.push(`${indent}  ---`, ...yaml.map((line) => `${indent}  ${line}`), `${indent}  ...`);
    this.options.write(lines.join('\n') + '\n');
  }
}

function hasOnly(node: TestNode): boolean {
  return node.options.only === true || node.children.some(hasOnly);
}

function ancestors(node: TestNode): TestNode[] {
  const chain: TestNode[] = [];
  for (let at = node.parent; at; at = at.parent) chain.unshift(at);
  return chain;
}

/** Where test() was called from: the first frame in a workspace file. */
function callerLocation(): string | undefined {
  const frames = (new Error().stack ?? '').split('\n');
  for (const frame of frames) {
    const match = /\(?((?:file:\/\/)?\/[^():]+):(\d+)(?::(\d+))?\)?\s*$/.exec(frame);
    if (match) return `${match[1].replace(/^file:\/\//, '')}:${match[2]}:${match[3] ?? 1}`;
  }
  return undefined;
}

/** Builds the node:test module for one process; `finish` is for the engine's beforeExit. */
export function createTestModule(options: TestRunnerOptions): { module: Record<string, unknown>; finish(): boolean } {
  const runner = new TestRunner(options);
  const variants = (kind: 'test' | 'suite') => {
    const declare = (name?: unknown, opts?: unknown, fn?: unknown) => {
      const node = runner.add(kind, undefined, name, opts, fn);
      return kind === 'test' ? Promise.resolve() : node && undefined;
    };
    const withOption = (option: Options) => (name?: unknown, opts?: unknown, fn?: unknown) => {
      if (typeof name === 'function') return declare(name.name || '<anonymous>', option, name);
      if (typeof opts === 'function') return declare(name, option, opts);
      return declare(name, { ...(opts as object), ...option }, fn);
    };
    return Object.assign(declare, { skip: withOption({ skip: true }), todo: withOption({ todo: true }), only: withOption({ only: true }) });
  };
  const test = variants('test');
  const suite = variants('suite');
  const hooks = {
    before: (fn: HookFn) => runner.hook('before', fn),
    after: (fn: HookFn) => runner.hook('after', fn),
    beforeEach: (fn: HookFn) => runner.hook('beforeEach', fn),
    afterEach: (fn: HookFn) => runner.hook('afterEach', fn),
  };
  const module = Object.assign(test, { test, it: test, describe: suite, suite, ...hooks, default: test }) as unknown as Record<string, unknown>;
  return { module, finish: () => runner.finish() };
}
