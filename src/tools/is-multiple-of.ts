/**
 * The `multipleOf` check, in decimal as JSON writes numbers.
 *
 * @module
 */

/**
 * A finite number as an integer and a power of ten, from its shortest
 * decimal text (the text JSON would hold): `0.3` is 3 × 10⁻¹, not the binary
 * fraction nearest to it.
 *
 * @param value - a finite number.
 * @returns `[digits, exponent]`.
 */
function decimalOf(value: number): [bigint, number] {
  const [mantissa = "", exponent = "0"] = String(value).split("e");
  const [whole = "", fraction = ""] = mantissa.split(".");
  return [BigInt(whole + fraction), Number(exponent) - fraction.length];
}

/**
 * Whether dividing a number by a divisor gives an integer, computed on their
 * decimal values so that binary rounding neither accepts a near miss
 * (`0.30000000000000004` is no multiple of `0.01`) nor refuses a multiple
 * (`0.3` is one of `0.1`, `1e308` one of `0.5`).
 *
 * @param value - the number.
 * @param divisor - the divisor, greater than 0.
 * @returns the check; `false` for infinities and a divisor that is not positive.
 *
 * @example
 * ```ts
 * isMultipleOf(19.99, 0.01); // true
 * isMultipleOf(1.005, 0.01); // false
 * ```
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!(Number.isFinite(value) && Number.isFinite(divisor) && divisor > 0)) return false;
  const [digits, exponent] = decimalOf(value);
  const [divisorDigits, divisorExponent] = decimalOf(divisor);
  const scale = 10n ** BigInt(Math.abs(exponent - divisorExponent));
  return exponent < divisorExponent ? digits % (divisorDigits * scale) === 0n : (digits * scale) % divisorDigits === 0n;
}
