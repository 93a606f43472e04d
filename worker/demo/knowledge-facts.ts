/**
 * The demo knowledge base: a few dozen facts with their sources.
 *
 * @module
 */

/** One fact of the demo knowledge base. */
export interface KnowledgeFact {
  /** A stable id, e.g. `"tokyo-population"`. */
  id: string;
  /** What the fact is about, e.g. `"Tokyo"`. */
  subject: string;
  /** Other names of the subject, e.g. `["NYC"]`. */
  aliases: readonly string[];
  /** Which property, e.g. `"population"`, `"height"`, `"time zone"`. */
  attribute: string;
  /** The value: a number (in `unit`) or a text. */
  value: number | string;
  /** The unit of a numeric value (`"people"`, `"m"`, `"km"`, …); empty for text values. */
  unit: string;
  /** The year the value refers to, when it changes over time. */
  year?: number;
  /** The fact as one sentence. */
  text: string;
  /** Where it comes from. */
  source: string;
}

/**
 * The facts the demo tools search. Numbers are rounded as published by the
 * source named with each fact; populations are for the city proper unless
 * the subject says otherwise.
 *
 * @example
 * ```ts
 * knowledgeFacts.find((fact) => fact.id === "paris-population")?.value; // 2133111
 * ```
 */
export const knowledgeFacts: readonly KnowledgeFact[] = [
  { id: "tokyo-population", subject: "Tokyo", aliases: ["Tokyo Metropolis"], attribute: "population", value: 14_040_000, unit: "people", year: 2023, text: "Tokyo (the Tokyo Metropolis) has about 14,040,000 inhabitants (2023).", source: "Tokyo Metropolitan Government, population estimate 2023" },
  { id: "paris-population", subject: "Paris", aliases: [], attribute: "population", value: 2_133_111, unit: "people", year: 2021, text: "Paris has 2,133,111 inhabitants (2021).", source: "INSEE, legal populations 2021" },
  { id: "london-population", subject: "London", aliases: ["Greater London"], attribute: "population", value: 8_799_800, unit: "people", year: 2021, text: "London (Greater London) has about 8,799,800 inhabitants (2021).", source: "Office for National Statistics, Census 2021" },
  { id: "new-york-population", subject: "New York City", aliases: ["New York", "NYC"], attribute: "population", value: 8_804_190, unit: "people", year: 2020, text: "New York City has 8,804,190 inhabitants (2020).", source: "U.S. Census Bureau, 2020 Census" },
  { id: "berlin-population", subject: "Berlin", aliases: [], attribute: "population", value: 3_755_251, unit: "people", year: 2022, text: "Berlin has 3,755,251 inhabitants (end of 2022).", source: "Amt für Statistik Berlin-Brandenburg" },
  { id: "beijing-population", subject: "Beijing", aliases: ["Peking"], attribute: "population", value: 21_893_095, unit: "people", year: 2020, text: "Beijing has 21,893,095 inhabitants (2020).", source: "National Bureau of Statistics of China, Seventh National Population Census" },
  { id: "shanghai-population", subject: "Shanghai", aliases: [], attribute: "population", value: 24_870_895, unit: "people", year: 2020, text: "Shanghai has 24,870,895 inhabitants (2020).", source: "National Bureau of Statistics of China, Seventh National Population Census" },
  { id: "mumbai-population", subject: "Mumbai", aliases: ["Bombay"], attribute: "population", value: 12_442_373, unit: "people", year: 2011, text: "Mumbai has 12,442,373 inhabitants (2011).", source: "Census of India 2011" },
  { id: "sao-paulo-population", subject: "São Paulo", aliases: ["Sao Paulo"], attribute: "population", value: 11_451_245, unit: "people", year: 2022, text: "São Paulo has 11,451,245 inhabitants (2022).", source: "IBGE, 2022 Census" },
  { id: "sydney-population", subject: "Sydney", aliases: ["Greater Sydney"], attribute: "population", value: 5_231_150, unit: "people", year: 2021, text: "Greater Sydney has 5,231,150 inhabitants (2021).", source: "Australian Bureau of Statistics, 2021 Census" },
  { id: "toronto-population", subject: "Toronto", aliases: [], attribute: "population", value: 2_794_356, unit: "people", year: 2021, text: "Toronto has 2,794,356 inhabitants (2021).", source: "Statistics Canada, 2021 Census" },
  { id: "mexico-city-population", subject: "Mexico City", aliases: ["Ciudad de México", "CDMX"], attribute: "population", value: 9_209_944, unit: "people", year: 2020, text: "Mexico City has 9,209,944 inhabitants (2020).", source: "INEGI, 2020 Census" },
  { id: "japan-population", subject: "Japan", aliases: [], attribute: "population", value: 124_352_000, unit: "people", year: 2023, text: "Japan has about 124,352,000 inhabitants (October 2023).", source: "Statistics Bureau of Japan, population estimates" },
  { id: "france-population", subject: "France", aliases: [], attribute: "population", value: 68_373_000, unit: "people", year: 2024, text: "France has about 68,373,000 inhabitants (January 2024).", source: "INSEE, population estimates" },
  { id: "japan-area", subject: "Japan", aliases: [], attribute: "area", value: 377_975, unit: "km²", text: "Japan covers 377,975 km².", source: "Geospatial Information Authority of Japan" },
  { id: "eiffel-tower-height", subject: "Eiffel Tower", aliases: ["Tour Eiffel"], attribute: "height", value: 330, unit: "m", text: "The Eiffel Tower is 330 m tall, antennas included.", source: "Société d'Exploitation de la Tour Eiffel" },
  { id: "eiffel-tower-completed", subject: "Eiffel Tower", aliases: ["Tour Eiffel"], attribute: "year completed", value: 1889, unit: "year", text: "The Eiffel Tower was completed in 1889, for the Exposition Universelle.", source: "Société d'Exploitation de la Tour Eiffel" },
  { id: "burj-khalifa-height", subject: "Burj Khalifa", aliases: [], attribute: "height", value: 828, unit: "m", text: "The Burj Khalifa in Dubai is 828 m tall.", source: "Council on Tall Buildings and Urban Habitat" },
  { id: "tokyo-skytree-height", subject: "Tokyo Skytree", aliases: ["Skytree"], attribute: "height", value: 634, unit: "m", text: "The Tokyo Skytree is 634 m tall.", source: "Tobu Tower Skytree Co." },
  { id: "statue-of-liberty-height", subject: "Statue of Liberty", aliases: [], attribute: "height", value: 93, unit: "m", text: "The Statue of Liberty is 93 m tall from the ground to the tip of the torch.", source: "U.S. National Park Service" },
  { id: "elizabeth-tower-height", subject: "Elizabeth Tower", aliases: ["Big Ben"], attribute: "height", value: 96, unit: "m", text: "The Elizabeth Tower (Big Ben) is 96 m tall.", source: "UK Parliament" },
  { id: "everest-height", subject: "Mount Everest", aliases: ["Everest", "Qomolangma", "Sagarmatha"], attribute: "height", value: 8_848.86, unit: "m", text: "Mount Everest is 8,848.86 m high.", source: "China–Nepal joint survey, 2020" },
  { id: "fuji-height", subject: "Mount Fuji", aliases: ["Fuji", "Fujisan"], attribute: "height", value: 3_776, unit: "m", text: "Mount Fuji is 3,776 m high.", source: "Geospatial Information Authority of Japan" },
  { id: "moon-distance", subject: "Moon", aliases: ["the Moon"], attribute: "distance from Earth", value: 384_400, unit: "km", text: "The Moon is on average 384,400 km from Earth.", source: "NASA, Moon fact sheet" },
  { id: "sun-distance", subject: "Sun", aliases: ["astronomical unit", "au"], attribute: "distance from Earth", value: 149_597_870.7, unit: "km", text: "The Sun is on average 149,597,870.7 km from Earth (one astronomical unit).", source: "International Astronomical Union, 2012 resolution B2" },
  { id: "light-speed", subject: "Light", aliases: ["speed of light"], attribute: "speed", value: 299_792_458, unit: "m/s", text: "Light travels at 299,792,458 m/s in a vacuum.", source: "SI Brochure, definition of the metre" },
  { id: "earth-circumference", subject: "Earth", aliases: ["the Earth"], attribute: "circumference", value: 40_075, unit: "km", text: "The Earth's equatorial circumference is about 40,075 km.", source: "NASA, Earth fact sheet" },
  { id: "earth-radius", subject: "Earth", aliases: ["the Earth"], attribute: "radius", value: 6_371, unit: "km", text: "The Earth's mean radius is about 6,371 km.", source: "NASA, Earth fact sheet" },
  { id: "water-boiling-point", subject: "Water", aliases: [], attribute: "boiling point", value: 100, unit: "°C", text: "Water boils at about 100 °C at standard atmospheric pressure.", source: "NIST Chemistry WebBook" },
  { id: "marathon-distance", subject: "Marathon", aliases: [], attribute: "distance", value: 42.195, unit: "km", text: "A marathon is 42.195 km long.", source: "World Athletics, Competition Rules" },
  { id: "nile-length", subject: "Nile", aliases: ["Nile River", "the Nile"], attribute: "length", value: 6_650, unit: "km", text: "The Nile is about 6,650 km long.", source: "Encyclopaedia Britannica" },
  { id: "amazon-length", subject: "Amazon River", aliases: ["Amazon"], attribute: "length", value: 6_400, unit: "km", text: "The Amazon River is about 6,400 km long.", source: "Encyclopaedia Britannica" },
  { id: "great-wall-length", subject: "Great Wall of China", aliases: ["Great Wall"], attribute: "length", value: 21_196, unit: "km", text: "The Great Wall of China, all sections together, is 21,196 km long.", source: "State Administration of Cultural Heritage of China, 2012 survey" },
  { id: "tokyo-time-zone", subject: "Tokyo", aliases: ["Tokyo Metropolis"], attribute: "time zone", value: "Asia/Tokyo", unit: "", text: "Tokyo uses the Asia/Tokyo time zone (UTC+9).", source: "IANA time zone database" },
  { id: "paris-time-zone", subject: "Paris", aliases: [], attribute: "time zone", value: "Europe/Paris", unit: "", text: "Paris uses the Europe/Paris time zone (UTC+1, UTC+2 in summer).", source: "IANA time zone database" },
  { id: "london-time-zone", subject: "London", aliases: ["Greater London"], attribute: "time zone", value: "Europe/London", unit: "", text: "London uses the Europe/London time zone (UTC, UTC+1 in summer).", source: "IANA time zone database" },
  { id: "new-york-time-zone", subject: "New York City", aliases: ["New York", "NYC"], attribute: "time zone", value: "America/New_York", unit: "", text: "New York City uses the America/New_York time zone (UTC−5, UTC−4 in summer).", source: "IANA time zone database" },
  { id: "berlin-time-zone", subject: "Berlin", aliases: [], attribute: "time zone", value: "Europe/Berlin", unit: "", text: "Berlin uses the Europe/Berlin time zone (UTC+1, UTC+2 in summer).", source: "IANA time zone database" },
  { id: "beijing-time-zone", subject: "Beijing", aliases: ["Peking"], attribute: "time zone", value: "Asia/Shanghai", unit: "", text: "Beijing uses China Standard Time, the Asia/Shanghai time zone (UTC+8).", source: "IANA time zone database" },
  { id: "shanghai-time-zone", subject: "Shanghai", aliases: [], attribute: "time zone", value: "Asia/Shanghai", unit: "", text: "Shanghai uses the Asia/Shanghai time zone (UTC+8).", source: "IANA time zone database" },
  { id: "mumbai-time-zone", subject: "Mumbai", aliases: ["Bombay"], attribute: "time zone", value: "Asia/Kolkata", unit: "", text: "Mumbai uses India Standard Time, the Asia/Kolkata time zone (UTC+5:30).", source: "IANA time zone database" },
  { id: "sao-paulo-time-zone", subject: "São Paulo", aliases: ["Sao Paulo"], attribute: "time zone", value: "America/Sao_Paulo", unit: "", text: "São Paulo uses the America/Sao_Paulo time zone (UTC−3).", source: "IANA time zone database" },
  { id: "sydney-time-zone", subject: "Sydney", aliases: ["Greater Sydney"], attribute: "time zone", value: "Australia/Sydney", unit: "", text: "Sydney uses the Australia/Sydney time zone (UTC+10, UTC+11 in summer).", source: "IANA time zone database" },
  { id: "toronto-time-zone", subject: "Toronto", aliases: [], attribute: "time zone", value: "America/Toronto", unit: "", text: "Toronto uses the America/Toronto time zone (UTC−5, UTC−4 in summer).", source: "IANA time zone database" },
  { id: "mexico-city-time-zone", subject: "Mexico City", aliases: ["Ciudad de México", "CDMX"], attribute: "time zone", value: "America/Mexico_City", unit: "", text: "Mexico City uses the America/Mexico_City time zone (UTC−6).", source: "IANA time zone database" },
];
