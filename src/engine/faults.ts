// Test-only fault injection (docs/decisions/0007-fault-injection.md): DISCERN_FAULT names points, separated by
// commas, where discern misbehaves on purpose so its crash and validation paths can be tested end to end.
// Points: `verb:<id>` throws before the handler runs; `result:<id>` makes the MCP server's result break its
// own schema before the server-side check; `config:write` and `tidy:write` make the write of discern.toml (or
// a tidied file) fail with EACCES after every check passed; `desk:key` makes the desk throw from its key handler,
// outside any awaited call, as an uncaught exception would.

export function faultRequested(env: Readonly<Record<string, string | undefined>>, point: string): boolean {
  return (env['DISCERN_FAULT'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .includes(point);
}
