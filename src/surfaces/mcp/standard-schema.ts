// The SDK takes Standard Schemas. Ours advertise the generated JSON Schema verbatim but pass values through:
// input, so a bad call reaches our generated validator and gets an invalid_arguments envelope instead of the
// SDK's plain-text error; output, because every result is validated by the handler itself, ok or not (the
// SDK would skip failures).
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

export function advertised(schema: Record<string, unknown>): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'discern',
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: {
        input: () => schema,
        output: () => schema,
      },
    },
  };
}
