// The parts of the MCP SDK (v2, @modelcontextprotocol/server) the /mcp route uses, in one module so that
// the route can load them on first use (core/routes/mcp.ts, loadSdk) instead of at start.
export {
  createMcpHandler,
  isLegacyRequest,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
