// The defaults of MARKET_PRODUCT, CALENDAR_TIME_ZONE and MARKET_WS_URL (docs/configuration.md#variables): the configuration
// falls back to them and the route table names its defaults from them. A module of its own so that the
// CLI's bundle, which reads the route table, takes nothing else of the configuration.
export const DEFAULT_MARKET_PRODUCT = 'MON-USD';
export const DEFAULT_TIME_ZONE = 'America/Toronto';
/** Coinbase Exchange's public market feed: no key, no server of ours (docs/upstreams.md#the-live-feed). */
export const DEFAULT_MARKET_WS_URL = 'wss://ws-feed.exchange.coinbase.com';
