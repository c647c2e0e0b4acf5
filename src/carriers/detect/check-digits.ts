/** Check-digit arithmetic shared by the format families (pure: digits in, digit out). */

/** The digits of a string of ASCII digits. */
export function digitsOf(text: string): number[] {
  const digits: number[] = [];
  for (let i = 0; i < text.length; i++) digits.push(text.charCodeAt(i) - 48);
  return digits;
}

/**
 * The GS1 modulo-10 check digit of `body` (every character a digit): weights 3 and 1 alternate from the
 * rightmost digit (which weighs 3), and the check digit brings the sum up to a multiple of ten. Used by
 * SSCC, GTIN, USPS IMpb, FedEx Ground and DHL's 20-digit numbers.
 */
export function gs1CheckDigit(body: string): number {
  const digits = digitsOf(body);
  let sum = 0;
  for (let i = digits.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) sum += digits[i] * weight;
  return (10 - (sum % 10)) % 10;
}

/** The sum of `digits[i] * weights[i % weights.length]`, weights applied from the left. */
export function weightedSum(digits: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  digits.forEach((digit, i) => {
    sum += digit * weights[i % weights.length];
  });
  return sum;
}

/** Whether the last character of `number` is the digit `expected`. */
export function endsWith(number: string, expected: number): boolean {
  return number.charCodeAt(number.length - 1) - 48 === expected;
}
