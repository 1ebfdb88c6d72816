// The headers every response of the gateway carries (builders/contract/service.ts), as a flat name/value list for
// a Prepared answer: files, problems, the MCP endpoint and OPTIONS answers all start from it.
import { COMMON_RESPONSE_HEADERS } from '../../../builders/contract/service.ts';

export const COMMON_HEADERS: readonly string[] = Object.entries(COMMON_RESPONSE_HEADERS).flat();
