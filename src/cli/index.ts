// Stage 7, cli: the `mcp-ld` command line, one module per command under commands/, loaded when it runs; usage
// errors exit 2 and core errors (McpLdError) exit 1, translated once in main.ts. An adapter over the core and the API.
export { main, loadCommands } from './main.js';
