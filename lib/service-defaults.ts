// The defaults of MARKET_PRODUCT and CALENDAR_TIME_ZONE (docs/configuration.md#variables): the configuration
// falls back to them and the route table names its defaults from them. A module of its own so that the
// CLI's bundle, which reads the route table, takes nothing else of the configuration.
export const DEFAULT_MARKET_PRODUCT = 'MON-USD';
export const DEFAULT_TIME_ZONE = 'America/Toronto';
