// The SDK checks every message against its zod schemas. By default zod compiles a parser for an object schema the
// first time it parses with it (with `new Function`), which pays off only over many parses of one schema; a
// server's first requests paid for compiling parsers they used once, a few milliseconds of every start
// (bench/startup-lines.ts). zod reads the setting when a schema is made, so this module is imported before the SDK.
import { config } from 'zod/v4/core';

config({ jitless: true });
