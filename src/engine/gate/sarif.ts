// A done result for the places CI reads: SARIF 2.1.0 (code scanning and other SARIF readers), GitHub's
// workflow-command annotations, and a step summary. All three are built from the result's diagnostics, so
// they say what the result says and nothing else.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DiscernDiagnostic, DiscernResult } from '../../../generated/types.js';
import { VERSION } from '../../../generated/version.js';

/** Where SARIF readers find the schema this document follows. */
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

interface SarifResult {
  ruleId: string;
  level: 'error' | 'warning';
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region?: object } }[];
}

/** A diagnostic's rule: its tool, and the tool's own rule when it names one (eslint/no-unused-vars). */
function ruleOf(d: DiscernDiagnostic): string {
  return d.rule !== undefined && d.rule !== '' ? `${d.tool}/${d.rule}` : d.tool;
}

/** A project-relative path with forward slashes, which SARIF resolves against %SRCROOT%. */
function relative(file: string, root: string): string {
  const path = file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
  return path.split('\\').join('/');
}

/** A relative URI: each segment percent-encoded, so `#`, `?` and spaces stay part of the path. */
function relativeUri(file: string, root: string): string {
  return relative(file, root).split('/').map(encodeURIComponent).join('/');
}

/**
 * Where a diagnostic is. GitHub code scanning refuses a whole upload holding a result without a location, and a
 * failed build or test often names no file: such a result is placed on discern.toml, which defines the job.
 */
function locationOf(d: DiscernDiagnostic, root: string): NonNullable<SarifResult['locations']>[number] {
  if (d.file === undefined)
    return {
      physicalLocation: { artifactLocation: { uri: 'discern.toml', uriBaseId: '%SRCROOT%' }, region: { startLine: 1 } },
    };
  return {
    physicalLocation: {
      artifactLocation: { uri: relativeUri(d.file, root), uriBaseId: '%SRCROOT%' },
      ...(d.line !== undefined
        ? { region: { startLine: d.line, ...(d.col !== undefined ? { startColumn: d.col } : {}) } }
        : {}),
    },
  };
}

/** `exitCode`: the process's exit status for this result, as the CLI sets it. */
export function sarifOf(result: DiscernResult, root: string, head: string | undefined, exitCode: number): object {
  const diagnostics = result.diagnostics ?? [];
  const results: SarifResult[] = diagnostics.map((d) => ({
    ruleId: ruleOf(d),
    level: d.severity,
    message: { text: `${d.message}${d.reproduce_cmd ? ` (reproduce: ${d.reproduce_cmd})` : ''}` },
    locations: [locationOf(d, root)],
  }));
  const rules = [...new Set(results.map((r) => r.ruleId))].map((id) => ({ id }));
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'discern', version: VERSION, informationUri: 'https://discern.sh', rules } },
        invocations: [
          {
            // A red gate is a successful run that found problems; only a refusal before or instead of it is not.
            executionSuccessful: result.ok || result.error === 'gate_failed',
            exitCode,
            ...(!result.ok && result.message
              ? { toolExecutionNotifications: [{ message: { text: result.message }, level: 'error' }] }
              : {}),
          },
        ],
        originalUriBaseIds: { '%SRCROOT%': { uri: `${pathToFileURL(root).href}/` } },
        ...(head !== undefined ? { properties: { commit: head } } : {}),
        results,
      },
    ],
  };
}

/** GitHub's workflow-command escaping: data escapes %, CR and LF; properties also : and ,. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One `::error file=…,line=…::message` line per diagnostic, as GitHub Actions turns into annotations. */
export function annotationsOf(result: DiscernResult, root: string): string[] {
  return (result.diagnostics ?? []).map((d) => {
    const props = [
      ...(d.file !== undefined ? [`file=${escapeProperty(relative(d.file, root))}`] : []),
      ...(d.line !== undefined ? [`line=${d.line}`] : []),
      ...(d.col !== undefined ? [`col=${d.col}`] : []),
      `title=${escapeProperty(ruleOf(d))}`,
    ];
    return `::${d.severity} ${props.join(',')}::${escapeData(`${d.message} (reproduce: ${d.reproduce_cmd})`)}`;
  });
}

/** Why a SARIF file cannot be written at `path`, checked before the gate runs; undefined when it can. */
export async function sarifTargetProblem(path: string): Promise<string | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) return 'it is a directory';
  // The file is written beside itself and renamed over it: the folder is what must be writable. The nearest
  // folder that exists must be one discern may create files (and folders) in.
  let folder = dirname(path);
  for (;;) {
    const there = await stat(folder).catch(() => undefined);
    if (there !== undefined) {
      if (!there.isDirectory()) return `${folder} is not a folder`;
      return (await writable(folder)) ? undefined : `${folder} is not writable`;
    }
    const up = dirname(folder);
    if (up === folder) return 'no folder on its path exists';
    folder = up;
  }
}

async function writable(path: string): Promise<boolean> {
  return access(path, constants.W_OK).then(
    () => true,
    () => false,
  );
}
