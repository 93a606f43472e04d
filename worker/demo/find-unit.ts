/**
 * The units the demo knows, found by symbol or name.
 *
 * @module
 */

/** A unit: its symbol, what it measures, and how it maps to the dimension's base unit. */
export interface Unit {
  symbol: string;
  dimension: "length" | "mass" | "temperature" | "volume" | "speed" | "time" | "area";
  /** Multiply by this to get the base unit (temperatures use `offset` too). */
  factor: number;
  /** Added after the factor, for temperatures: base = value × factor + offset. */
  offset?: number;
  names: readonly string[];
}

const units: readonly Unit[] = [
  { symbol: "m", dimension: "length", factor: 1, names: ["m", "meter", "meters", "metre", "metres"] },
  {
    symbol: "km",
    dimension: "length",
    factor: 1000,
    names: ["km", "kilometer", "kilometers", "kilometre", "kilometres"],
  },
  {
    symbol: "cm",
    dimension: "length",
    factor: 0.01,
    names: ["cm", "centimeter", "centimeters", "centimetre", "centimetres"],
  },
  {
    symbol: "mm",
    dimension: "length",
    factor: 0.001,
    names: ["mm", "millimeter", "millimeters", "millimetre", "millimetres"],
  },
  { symbol: "mi", dimension: "length", factor: 1609.344, names: ["mi", "mile", "miles"] },
  { symbol: "nmi", dimension: "length", factor: 1852, names: ["nmi", "nautical mile", "nautical miles"] },
  { symbol: "yd", dimension: "length", factor: 0.9144, names: ["yd", "yard", "yards"] },
  { symbol: "ft", dimension: "length", factor: 0.3048, names: ["ft", "foot", "feet"] },
  { symbol: "in", dimension: "length", factor: 0.0254, names: ["in", "inch", "inches"] },
  { symbol: "kg", dimension: "mass", factor: 1, names: ["kg", "kilogram", "kilograms", "kilo", "kilos"] },
  { symbol: "g", dimension: "mass", factor: 0.001, names: ["g", "gram", "grams"] },
  { symbol: "mg", dimension: "mass", factor: 0.000001, names: ["mg", "milligram", "milligrams"] },
  { symbol: "t", dimension: "mass", factor: 1000, names: ["t", "tonne", "tonnes", "metric ton", "metric tons"] },
  { symbol: "lb", dimension: "mass", factor: 0.45359237, names: ["lb", "lbs", "pound", "pounds"] },
  { symbol: "oz", dimension: "mass", factor: 0.028349523125, names: ["oz", "ounce", "ounces"] },
  { symbol: "st", dimension: "mass", factor: 6.35029318, names: ["st", "stone", "stones"] },
  {
    symbol: "°C",
    dimension: "temperature",
    factor: 1,
    offset: 273.15,
    names: ["°c", "c", "celsius", "degc", "degrees celsius"],
  },
  {
    symbol: "°F",
    dimension: "temperature",
    factor: 5 / 9,
    offset: 273.15 - (32 * 5) / 9,
    names: ["°f", "f", "fahrenheit", "degf", "degrees fahrenheit"],
  },
  { symbol: "K", dimension: "temperature", factor: 1, offset: 0, names: ["k", "kelvin", "kelvins"] },
  { symbol: "l", dimension: "volume", factor: 1, names: ["l", "liter", "liters", "litre", "litres"] },
  {
    symbol: "ml",
    dimension: "volume",
    factor: 0.001,
    names: ["ml", "milliliter", "milliliters", "millilitre", "millilitres"],
  },
  {
    symbol: "m³",
    dimension: "volume",
    factor: 1000,
    names: ["m³", "m3", "cubic meter", "cubic meters", "cubic metre", "cubic metres"],
  },
  {
    symbol: "gal",
    dimension: "volume",
    factor: 3.785411784,
    names: ["gal", "gallon", "gallons", "us gallon", "us gallons"],
  },
  { symbol: "cup", dimension: "volume", factor: 0.2365882365, names: ["cup", "cups"] },
  { symbol: "fl oz", dimension: "volume", factor: 0.0295735295625, names: ["fl oz", "fluid ounce", "fluid ounces"] },
  { symbol: "m/s", dimension: "speed", factor: 1, names: ["m/s", "meters per second", "metres per second"] },
  {
    symbol: "km/h",
    dimension: "speed",
    factor: 1000 / 3600,
    names: ["km/h", "kmh", "kph", "kilometers per hour", "kilometres per hour"],
  },
  { symbol: "mph", dimension: "speed", factor: 1609.344 / 3600, names: ["mph", "miles per hour"] },
  { symbol: "kn", dimension: "speed", factor: 1852 / 3600, names: ["kn", "knot", "knots"] },
  { symbol: "s", dimension: "time", factor: 1, names: ["s", "sec", "secs", "second", "seconds"] },
  { symbol: "min", dimension: "time", factor: 60, names: ["min", "mins", "minute", "minutes"] },
  { symbol: "h", dimension: "time", factor: 3600, names: ["h", "hr", "hrs", "hour", "hours"] },
  { symbol: "d", dimension: "time", factor: 86_400, names: ["d", "day", "days"] },
  { symbol: "wk", dimension: "time", factor: 604_800, names: ["wk", "week", "weeks"] },
  { symbol: "yr", dimension: "time", factor: 31_557_600, names: ["yr", "year", "years"] },
  {
    symbol: "m²",
    dimension: "area",
    factor: 1,
    names: ["m²", "m2", "square meter", "square meters", "square metre", "square metres", "sq m"],
  },
  {
    symbol: "km²",
    dimension: "area",
    factor: 1_000_000,
    names: ["km²", "km2", "square kilometer", "square kilometers", "square kilometre", "square kilometres", "sq km"],
  },
  {
    symbol: "mi²",
    dimension: "area",
    factor: 2_589_988.110336,
    names: ["mi²", "mi2", "square mile", "square miles", "sq mi"],
  },
  { symbol: "ha", dimension: "area", factor: 10_000, names: ["ha", "hectare", "hectares"] },
  { symbol: "acre", dimension: "area", factor: 4_046.8564224, names: ["acre", "acres", "ac"] },
];

const unitsByName = new Map<string, Unit>(
  units.flatMap((unit) => [
    [unit.symbol.toLowerCase(), unit] as const,
    ...unit.names.map((name) => [name, unit] as const),
  ]),
);

/**
 * Finds a unit by symbol or name, ignoring case, surrounding spaces and a
 * leading "degrees".
 *
 * @param name - e.g. `"km"`, `"Miles"`, `"°F"`.
 * @returns the unit, or `undefined`.
 *
 * @example
 * ```ts
 * findUnit("Feet")?.symbol; // "ft"
 * ```
 */
export function findUnit(name: string): Unit | undefined {
  const key = name.trim().toLowerCase().replace(/\s+/gu, " ");
  return unitsByName.get(key) ?? unitsByName.get(key.replace(/^degrees? /u, ""));
}

/**
 * Every unit name {@link findUnit} knows, longest first (for matching in text).
 *
 * @returns the names.
 *
 * @example
 * ```ts
 * unitNames().includes("miles"); // true
 * ```
 */
export function unitNames(): string[] {
  return [...unitsByName.keys()].sort((a, b) => b.length - a.length);
}

/**
 * The distance and time units a speed unit divides.
 *
 * @param symbol - a speed unit's symbol.
 * @returns its distance and time units, or `undefined` for any other unit.
 *
 * @example
 * ```ts
 * speedUnitParts("mph"); // { distance: "mi", time: "h" }
 * ```
 */
export function speedUnitParts(symbol: string): { distance: string; time: string } | undefined {
  const parts: Readonly<Record<string, { distance: string; time: string }>> = {
    "m/s": { distance: "m", time: "s" },
    "km/h": { distance: "km", time: "h" },
    mph: { distance: "mi", time: "h" },
    kn: { distance: "nmi", time: "h" },
  };
  return Object.hasOwn(parts, symbol) ? parts[symbol] : undefined;
}
