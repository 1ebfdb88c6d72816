// The parts of the MCP SDK the /mcp route uses, in one module so that the route can load them on first
// use (gateway/routes/mcp.ts, loadSdk) instead of at start.
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
export {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
