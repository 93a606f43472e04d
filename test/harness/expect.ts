/**
 * `expect` for the portable test harness: the same chai plugins vitest
 * installs (`@vitest/expect`), without snapshots, mocks, `expect.soft` or
 * `expect.poll`, so matchers and their messages behave as under vitest.
 *
 * @module
 */
import {
  ASYMMETRIC_MATCHERS_OBJECT,
  ChaiStyleAssertions,
  chai,
  customMatchers,
  type ExpectStatic,
  GLOBAL_EXPECT,
  getState,
  JestAsymmetricMatchers,
  JestChaiExpect,
  JestExtend,
  setState,
} from "@vitest/expect";

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(ChaiStyleAssertions);
chai.use(JestAsymmetricMatchers);

/**
 * What the runner hands to `expect` about the test that is running: async
 * assertions (`resolves`/`rejects`) register their promises here so the runner
 * can await them and report the ones the test forgot to await.
 */
export interface ExpectTestRecord {
  promises?: Promise<unknown>[];
  onFinished?: (() => void)[];
}

let currentTest: ExpectTestRecord | undefined;

/**
 * Tells `expect` which test is running, and resets the assertion counters.
 *
 * @param test - the running test's record, or `undefined` between tests.
 * @returns nothing.
 * @example
 * ```ts
 * setExpectTest({}); await body(); setExpectTest(undefined);
 * ```
 */
export function setExpectTest(test: ExpectTestRecord | undefined): void {
  currentTest = test;
  setState(
    {
      assertionCalls: 0,
      isExpectingAssertions: false,
      isExpectingAssertionsError: null,
      expectedAssertionsNumber: null,
      expectedAssertionsNumberErrorGen: null,
    },
    expect,
  );
}

/**
 * Checks `expect.assertions(n)` / `expect.hasAssertions()` for the test that
 * just ran.
 *
 * @returns nothing; throws the error vitest would report.
 * @example
 * ```ts
 * await body(); verifyExpectedAssertions();
 * ```
 */
export function verifyExpectedAssertions(): void {
  const state = getState(expect);
  if (state.expectedAssertionsNumber !== null && state.assertionCalls !== state.expectedAssertionsNumber) {
    throw state.expectedAssertionsNumberErrorGen?.() ?? new Error("unexpected number of assertions");
  }
  if (state.isExpectingAssertions && state.assertionCalls === 0) {
    throw state.isExpectingAssertionsError ?? new Error("expected any number of assertion, but got none");
  }
}

function createExpect(): ExpectStatic {
  const expectFunction = ((value: unknown, message?: string) => {
    const { assertionCalls } = getState(expectFunction);
    setState({ assertionCalls: assertionCalls + 1 }, expectFunction);
    const assertion = chai.expect(value, message) as unknown as { withTest(test: ExpectTestRecord): unknown };
    return currentTest === undefined ? assertion : assertion.withTest(currentTest);
  }) as unknown as ExpectStatic;
  Object.assign(expectFunction, chai.expect);
  Object.assign(expectFunction, (globalThis as Record<symbol, unknown>)[ASYMMETRIC_MATCHERS_OBJECT]);
  const mutable = expectFunction as unknown as Record<string, unknown>;
  mutable["getState"] = () => getState(expectFunction);
  mutable["setState"] = (state: object) => setState(state, expectFunction);
  mutable["assert"] = chai.assert;
  mutable["extend"] = (matchers: object) =>
    (chai.expect as unknown as { extend(expect: unknown, matchers: object): void }).extend(expectFunction, matchers);
  mutable["unreachable"] = (message?: string) => {
    chai.assert.fail(`expected${message ? ` "${message}" ` : " "}not to be reached`);
  };
  mutable["assertions"] = (expected: number) => {
    const errorGen = () =>
      new Error(`expected number of assertions to be ${expected}, but got ${getState(expectFunction).assertionCalls}`);
    setState({ expectedAssertionsNumber: expected, expectedAssertionsNumberErrorGen: errorGen }, expectFunction);
  };
  mutable["hasAssertions"] = () => {
    setState(
      {
        isExpectingAssertions: true,
        isExpectingAssertionsError: new Error("expected any number of assertion, but got none"),
      },
      expectFunction,
    );
  };
  setState({ assertionCalls: 0, isExpectingAssertions: false, expectedAssertionsNumber: null }, expectFunction);
  Object.defineProperty(globalThis, GLOBAL_EXPECT, { value: expectFunction, writable: true, configurable: true });
  return expectFunction;
}

/**
 * Jest-style `expect` backed by `@vitest/expect`: `toEqual`, `toThrow`,
 * `rejects`, `toMatchObject`, asymmetric matchers such as `expect.any`, and
 * `expect.extend`.
 *
 * @example
 * ```ts
 * expect({ a: 1, b: [2] }).toEqual({ a: 1, b: [expect.any(Number)] });
 * await expect(Promise.reject(new Error("no"))).rejects.toThrow("no");
 * ```
 */
export const expect: ExpectStatic = createExpect();
expect.extend(customMatchers);
