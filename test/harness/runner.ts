/**
 * A small portable test runner with vitest's collection and hook semantics,
 * used to run the portable behaviour suites in Deno and in browsers, where
 * vitest itself does not run. Every test file gets its own API bound to its
 * file name (see {@link createTestApi}); {@link runTests} runs everything
 * registered so far and returns a JSON-serialisable report.
 *
 * Supported: `describe` (nested, async factories), `it`/`test` (async, a
 * timeout as a number or `{ timeout }`), `beforeAll`/`afterAll`/`beforeEach`/
 * `afterEach` (a returned function runs as cleanup), `expect.assertions`.
 * Not supported, on purpose: `.skip`, `.only`, `.each`, `.todo`, `vi`, snapshots.
 *
 * @module
 */
import { type ExpectTestRecord, expect, setExpectTest, verifyExpectedAssertions } from "./expect.ts";

type Callback = (context: TestContext) => unknown;
type HookKind = "beforeAll" | "afterAll" | "beforeEach" | "afterEach";

/** The context object passed to tests and hooks. */
export interface TestContext {
  /** The shared `expect`. */
  expect: typeof expect;
  /** Aborted when the test or hook times out. */
  signal: AbortSignal;
  /** The test being run (hooks of `beforeAll`/`afterAll` see the suite). */
  task: { name: string };
}

interface Suite {
  kind: "suite";
  name: string;
  file: string;
  parent: Suite | undefined;
  factory: Callback | undefined;
  children: (Suite | TestCase)[];
  hooks: Record<HookKind, { fn: Callback; timeoutMs: number }[]>;
}

interface TestCase {
  kind: "test";
  name: string;
  file: string;
  parent: Suite;
  fn: Callback;
  timeoutMs: number;
}

/** One test's outcome. */
export interface HarnessTestResult {
  /** Suite names and the test name, joined with " > ". */
  name: string;
  /** The test file, relative to the repository root. */
  file: string;
  status: "passed" | "failed";
  durationMs: number;
  /** The failure message, when the test failed. */
  error?: string;
}

/** Everything a run produced. */
export interface HarnessReport {
  /** The runtime that ran the tests (`deno`, `chromium`, …). */
  runtime: string;
  /** Every test file that registered with the harness, in load order. */
  files: string[];
  tests: HarnessTestResult[];
  /** Failures outside any single test: collection, `afterAll`, unhandled rejections. */
  errors: string[];
  durationMs: number;
}

/** The vitest-compatible functions a test file imports from "vitest". */
export interface TestApi {
  describe(name: string, factory: () => unknown): void;
  it(name: string, fn: Callback, options?: number | { timeout?: number }): void;
  test(name: string, fn: Callback, options?: number | { timeout?: number }): void;
  beforeAll(fn: Callback, timeout?: number): void;
  afterAll(fn: Callback, timeout?: number): void;
  beforeEach(fn: Callback, timeout?: number): void;
  afterEach(fn: Callback, timeout?: number): void;
  expect: typeof expect;
}

const defaultTimeoutMs = 10_000;
const fileSuites: Suite[] = [];
let collecting: Suite | undefined;
let running = false;

function createSuite(name: string, file: string, parent: Suite | undefined, factory: Callback | undefined): Suite {
  return {
    kind: "suite",
    name,
    file,
    parent,
    factory,
    children: [],
    hooks: { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] },
  };
}

function timeoutOf(options: number | { timeout?: number } | undefined): number {
  if (typeof options === "number") return options;
  return options?.timeout ?? defaultTimeoutMs;
}

/**
 * Creates the "vitest" API for one test file. Outside a `describe` factory,
 * registrations go to the file's root suite; inside one, to that suite.
 *
 * @param file - the test file's path relative to the repository root.
 * @returns the functions the file imports from "vitest".
 * @example
 * ```ts
 * export const { describe, it, test, expect, beforeEach, afterEach, beforeAll, afterAll } =
 *   createTestApi("test/errors/plankit-error.test.ts");
 * ```
 */
export function createTestApi(file: string): TestApi {
  const root = createSuite("", file, undefined, undefined);
  fileSuites.push(root);
  const target = (what: string): Suite => {
    if (running) throw new Error(`${what}() was called while tests were running (${file})`);
    return collecting ?? root;
  };
  const addTest = (name: string, fn: Callback, options?: number | { timeout?: number }) => {
    const parent = target("it");
    if (typeof fn !== "function") throw new TypeError(`test "${name}" in ${file} has no function`);
    parent.children.push({ kind: "test", name, file, parent, fn, timeoutMs: timeoutOf(options) });
  };
  const addHook = (kind: HookKind) => (fn: Callback, timeout?: number) => {
    target(kind).hooks[kind].push({ fn, timeoutMs: timeout ?? defaultTimeoutMs });
  };
  return {
    describe(name, factory) {
      const parent = target("describe");
      parent.children.push(createSuite(name, file, parent, factory));
    },
    it: addTest,
    test: addTest,
    beforeAll: addHook("beforeAll"),
    afterAll: addHook("afterAll"),
    beforeEach: addHook("beforeEach"),
    afterEach: addHook("afterEach"),
    expect,
  };
}

function describeError(error: unknown): string {
  let text: string;
  if (error instanceof Error) {
    text = error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
  } else {
    try {
      text = typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
    } catch {
      text = String(error);
    }
  }
  // Strip terminal colours that matcher messages may carry.
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}

async function callWithTimeout(fn: Callback, timeoutMs: number, label: string, name: string): Promise<unknown> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`${label} timed out in ${timeoutMs}ms.`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([
      Promise.resolve().then(() => fn({ expect, signal: controller.signal, task: { name } })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function collect(suite: Suite): Promise<void> {
  if (suite.factory !== undefined) {
    const previous = collecting;
    collecting = suite;
    try {
      await suite.factory({ expect, signal: new AbortController().signal, task: { name: suite.name } });
    } finally {
      collecting = previous;
    }
  }
  for (const child of suite.children) {
    if (child.kind === "suite") await collect(child);
  }
}

function pathOf(suite: Suite): Suite[] {
  const path: Suite[] = [];
  for (let current: Suite | undefined = suite; current !== undefined; current = current.parent) path.unshift(current);
  return path;
}

function fullName(test: TestCase): string {
  return [
    ...pathOf(test.parent)
      .map((suite) => suite.name)
      .filter((name) => name !== ""),
    test.name,
  ].join(" > ");
}

function testsOf(suite: Suite): TestCase[] {
  return suite.children.flatMap((child) => (child.kind === "test" ? [child] : testsOf(child)));
}

/**
 * `@vitest/expect` removes an async assertion's promise from the test's list
 * once it settles; this list keeps them all, so one the test forgot to await
 * still fails the test with its own error, as under vitest.
 */
class RetainedPromises extends Array<Promise<unknown>> {
  override splice(): Promise<unknown>[] {
    return [];
  }
}

async function runTest(test: TestCase, report: HarnessReport): Promise<void> {
  const started = performance.now();
  const errors: unknown[] = [];
  const record: ExpectTestRecord = { promises: new RetainedPromises() };
  const cleanups: (() => unknown)[] = [];
  const suites = pathOf(test.parent);
  setExpectTest(record);
  try {
    for (const suite of suites) {
      for (const hook of suite.hooks.beforeEach) {
        const cleanup = await callWithTimeout(hook.fn, hook.timeoutMs, "Hook", test.name);
        if (typeof cleanup === "function") cleanups.push(cleanup as () => unknown);
      }
    }
    await callWithTimeout(test.fn, test.timeoutMs, "Test", test.name);
    await Promise.all(record.promises ?? []);
    verifyExpectedAssertions();
  } catch (error) {
    errors.push(error);
  }
  for (const finished of record.onFinished ?? []) {
    try {
      finished();
    } catch (error) {
      errors.push(error);
    }
  }
  for (const suite of [...suites].reverse()) {
    for (const hook of [...suite.hooks.afterEach].reverse()) {
      try {
        await callWithTimeout(hook.fn, hook.timeoutMs, "Hook", test.name);
      } catch (error) {
        errors.push(error);
      }
    }
  }
  for (const cleanup of cleanups.reverse()) {
    try {
      await callWithTimeout(cleanup, defaultTimeoutMs, "Hook", test.name);
    } catch (error) {
      errors.push(error);
    }
  }
  setExpectTest(undefined);
  const result: HarnessTestResult = {
    name: fullName(test),
    file: test.file,
    status: errors.length === 0 ? "passed" : "failed",
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  };
  if (errors.length > 0) result.error = errors.map(describeError).join("\n");
  report.tests.push(result);
}

async function runSuite(suite: Suite, report: HarnessReport): Promise<void> {
  const tests = testsOf(suite);
  if (tests.length === 0) return;
  const label =
    suite.name === ""
      ? suite.file
      : `${suite.file} > ${pathOf(suite)
          .map((s) => s.name)
          .filter(Boolean)
          .join(" > ")}`;
  const cleanups: (() => unknown)[] = [];
  let setupError: unknown;
  let setupFailed = false;
  for (const hook of suite.hooks.beforeAll) {
    try {
      const cleanup = await callWithTimeout(hook.fn, hook.timeoutMs, "Hook", suite.name);
      if (typeof cleanup === "function") cleanups.push(cleanup as () => unknown);
    } catch (error) {
      setupError = error;
      setupFailed = true;
      break;
    }
  }
  if (setupFailed) {
    for (const test of tests) {
      report.tests.push({
        name: fullName(test),
        file: test.file,
        status: "failed",
        durationMs: 0,
        error: `beforeAll failed: ${describeError(setupError)}`,
      });
    }
  } else {
    for (const child of suite.children) {
      if (child.kind === "test") await runTest(child, report);
      else await runSuite(child, report);
    }
  }
  const teardown = [
    ...[...suite.hooks.afterAll].reverse().map((hook) => hook),
    ...cleanups.reverse().map((fn) => ({ fn, timeoutMs: defaultTimeoutMs })),
  ];
  for (const hook of teardown) {
    try {
      await callWithTimeout(hook.fn, hook.timeoutMs, "Hook", suite.name);
    } catch (error) {
      report.errors.push(`afterAll in ${label}: ${describeError(error)}`);
    }
  }
}

/**
 * Collects and runs every test registered through {@link createTestApi}, one
 * at a time in definition order, and reports each outcome. Unhandled promise
 * rejections while tests run are reported as run errors.
 *
 * @param options - `runtime`: the name recorded in the report.
 * @returns the report; it never throws for a failing test.
 * @example
 * ```ts
 * const report = await runTests({ runtime: "deno" });
 * console.log(report.tests.filter((test) => test.status === "failed"));
 * ```
 */
export async function runTests(options: { runtime: string }): Promise<HarnessReport> {
  const started = performance.now();
  const report: HarnessReport = { runtime: options.runtime, files: [], tests: [], errors: [], durationMs: 0 };
  const onRejection = (event: Event) => {
    event.preventDefault();
    report.errors.push(`Unhandled rejection: ${describeError((event as PromiseRejectionEvent).reason)}`);
  };
  const onError = (event: Event) => {
    event.preventDefault();
    report.errors.push(
      `Uncaught error: ${describeError((event as ErrorEvent).error ?? (event as ErrorEvent).message)}`,
    );
  };
  globalThis.addEventListener("unhandledrejection", onRejection);
  globalThis.addEventListener("error", onError);
  try {
    for (const root of fileSuites) {
      report.files.push(root.file);
      try {
        await collect(root);
      } catch (error) {
        report.errors.push(`Collecting ${root.file} failed: ${describeError(error)}`);
        continue;
      }
      running = true;
      try {
        await runSuite(root, report);
      } finally {
        running = false;
      }
    }
    // Let rejections from the last test surface before the report is sealed.
    await new Promise((resolve) => setTimeout(resolve, 0));
  } finally {
    globalThis.removeEventListener("unhandledrejection", onRejection);
    globalThis.removeEventListener("error", onError);
  }
  report.durationMs = Math.round(performance.now() - started);
  return report;
}
