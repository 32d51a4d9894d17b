// The floor for an MCP tool call: a bare stdio server on the same SDK discern uses, with one tool that echoes its
// argument back as text. No input or output validation, no envelope, no Markdown: what is left is the transport,
// JSON-RPC framing and the SDK's dispatch, which any server built on this SDK pays. `pad` lengthens the answer by
// that many characters, so a result as large as discern's can be timed too: the payload's own cost, apart. The peers suite bundles it
// with esbuild, as discern's own server is bundled, and measures its round trip beside discern's.
import { McpServer, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const inputSchema = {
  type: 'object',
  properties: { text: { type: 'string' }, pad: { type: 'integer', minimum: 0 } },
  additionalProperties: false,
};
type EchoInput = { text?: string; pad?: number };

/** A Standard Schema that advertises the JSON Schema and passes the value through, as discern's advertised() does. */
const passThrough: StandardSchemaWithJSON<EchoInput> = {
  '~standard': {
    version: 1,
    vendor: 'bench',
    validate: (value: unknown) => ({ value: (value ?? {}) as EchoInput }),
    jsonSchema: { input: () => inputSchema, output: () => inputSchema },
  },
};

const server = new McpServer({ name: 'echo', version: '0' }, { capabilities: { tools: {} } });
server.registerTool('echo', { description: 'Echo the text back.', inputSchema: passThrough }, async (args) => ({
  content: [{ type: 'text', text: (args.text ?? '') + ' '.repeat(args.pad ?? 0) }],
}));
await server.connect(new StdioServerTransport());
