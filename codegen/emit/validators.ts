// Ajv standalone validators: per verb, its input (the exact schema MCP advertises) and its result (the
// published definition), plus the discern.toml, setup recipe and DISCERN_PROGRESS line validators. Generated
// once here so nothing compiles a schema at run time. Ajv's "ESM" standalone output still calls require() for its runtime helpers; those calls are
// rewritten into imports so the modules load under plain Node ESM and bundle cleanly.
import { createHash } from 'node:crypto';
import standaloneCode from 'ajv/dist/standalone/index.js';
import type { JsonSchema, SpecModel } from '../spec/types.js';
import { createAjv } from '../spec/ajv.js';
import type { Contracts } from '../schemas/contracts.js';
import { RESULTS_ID } from '../schemas/contracts.js';
import { vocabularyKey } from '../schemas/names.js';
import { SCHEMA_BASE } from '../schemas/names.js';
import { publishSchema } from './json-artifacts.js';
import { standaloneSetupConfig } from '../schemas/setup-config.js';
import { withCodeHeader } from './provenance.js';

const standalone = standaloneCode as unknown as (ajv: unknown, refs: Record<string, string>) => string;

export function emitValidators(model: SpecModel, contracts: Contracts): Map<string, string> {
  const out = new Map<string, string>();
  const ajv = createAjv({
    standalone: true,
    keywords: contracts.vocabularies.filter((v) => v.open).map((v) => vocabularyKey(v.name)),
  });
  ajv.addSchema(contracts.resultsSchema, RESULTS_ID);
  const configId = `${SCHEMA_BASE}discern-config.schema.json`;
  ajv.addSchema(publishSchema(model.config, 'discern-config.schema.json', contracts), configId);
  const progressLineId = `${SCHEMA_BASE}discern-progress-line.schema.json`;
  ajv.addSchema(publishSchema(model.progressLine, 'discern-progress-line.schema.json', contracts), progressLineId);
  const setupConfigId = `${SCHEMA_BASE}discern-setup-config.schema.json`;
  ajv.addSchema(
    publishSchema(
      standaloneSetupConfig(model.setupConfig, model.config),
      'discern-setup-config.schema.json',
      contracts,
    ),
    setupConfigId,
  );

  for (const c of contracts.verbs) {
    const inputId = `${SCHEMA_BASE}inputs/${c.verb.id}.json`;
    const cliInputId = `${SCHEMA_BASE}inputs/${c.verb.id}-cli.json`;
    ajv.addSchema({ ...c.wireInput, $id: inputId } as JsonSchema, inputId);
    ajv.addSchema({ ...c.cliInput, $id: cliInputId } as JsonSchema, cliInputId);
    // Input and result validators live apart: the CLI loads only the small input one. MCP arguments are checked
    // against the advertised schema; the CLI's also admit the CLI-only keys.
    const inputSources = [`${c.verb.dir}/input.schema.json`];
    // Most verbs have no CLI-only keys: one validator then serves both surfaces (half the code to load).
    const same = JSON.stringify(c.wireInput) === JSON.stringify(c.cliInput);
    const inputCode = same
      ? `${esmHelpers(standalone(ajv, { validateInput: inputId }))}\nexport const validateCliInput = validateInput;\n`
      : esmHelpers(standalone(ajv, { validateInput: inputId, validateCliInput: cliInputId }));
    out.set(`generated/validators/${c.verb.id}-input.js`, withCodeHeader(inputSources, inputCode));
    out.set(
      `generated/validators/${c.verb.id}-input.d.ts`,
      withCodeHeader(
        inputSources,
        dts(
          [
            `validateInput: StandaloneValidator<${c.inputName}>`,
            `validateCliInput: StandaloneValidator<${c.inputName}>`,
          ],
          [c.inputName],
        ),
      ),
    );
    const resultSources = [`${c.verb.dir}/data.schema.json`, 'spec/envelope.schema.json', 'spec/vocabularies.yaml'];
    const resultCode = standalone(ajv, { validateResult: `${RESULTS_ID}#/$defs/${c.resultName}` });
    out.set(`generated/validators/${c.verb.id}-result.js`, withCodeHeader(resultSources, esmHelpers(resultCode)));
    out.set(
      `generated/validators/${c.verb.id}-result.d.ts`,
      withCodeHeader(resultSources, dts([`validateResult: StandaloneValidator<${c.resultName}>`], [c.resultName])),
    );
  }
  const configCode = standalone(ajv, { validateConfig: configId });
  // What a configuration was validated against: a text known valid under this digest needs no validator.
  const configDigest = createHash('sha256')
    .update(JSON.stringify(publishSchema(model.config, 'discern-config.schema.json', contracts)))
    .digest('hex');
  out.set(
    'generated/config-schema-digest.ts',
    withCodeHeader(
      ['spec/config.schema.json'],
      `/** sha256 of the published discern.toml schema; it changes whenever the validator would. */\nexport const CONFIG_SCHEMA_DIGEST = ${JSON.stringify(configDigest)};\n`,
    ),
  );
  // The schema itself, for `discern config explain` (descriptions, types, defaults, enums of every key).
  const configSchema = JSON.stringify(
    JSON.stringify(publishSchema(model.config, 'discern-config.schema.json', contracts)),
  );
  out.set(
    'generated/config-schema.ts',
    withCodeHeader(
      ['spec/config.schema.json'],
      `/** The published discern.toml schema (schema/discern-config.schema.json) as data. */\nexport const CONFIG_SCHEMA: Readonly<Record<string, unknown>> = JSON.parse(${configSchema}) as Readonly<Record<string, unknown>>;\n`,
    ),
  );
  out.set('generated/validators/config.js', withCodeHeader(['spec/config.schema.json'], esmHelpers(configCode)));
  out.set(
    'generated/validators/config.d.ts',
    withCodeHeader(
      ['spec/config.schema.json'],
      dts(['validateConfig: StandaloneValidator<DiscernConfig>'], ['DiscernConfig']),
    ),
  );
  const progressCode = standalone(ajv, { validateProgressLine: progressLineId });
  out.set(
    'generated/validators/progress-line.js',
    withCodeHeader(['spec/progress-line.schema.json'], esmHelpers(progressCode)),
  );
  out.set(
    'generated/validators/progress-line.d.ts',
    withCodeHeader(
      ['spec/progress-line.schema.json'],
      dts(['validateProgressLine: StandaloneValidator<DiscernProgressLine>'], ['DiscernProgressLine']),
    ),
  );
  // The setup recipe's validator loads only with `setup begin --config`.
  const setupSources = ['spec/setup-config.schema.json', 'spec/config.schema.json'];
  out.set(
    'generated/validators/setup-config.js',
    withCodeHeader(setupSources, esmHelpers(standalone(ajv, { validateSetupConfig: setupConfigId }))),
  );
  out.set(
    'generated/validators/setup-config.d.ts',
    withCodeHeader(
      setupSources,
      dts(['validateSetupConfig: StandaloneValidator<DiscernSetupConfig>'], ['DiscernSetupConfig']),
    ),
  );
  return out;
}

/** Rewrites `require("x")` calls into hoisted imports, so the module is pure ESM. */
export function esmHelpers(code: string): string {
  const imports = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)/g, (_m, spec: string) => {
    let name = imports.get(spec);
    if (!name) {
      name = `helper${imports.size}`;
      imports.set(spec, name);
    }
    return name;
  });
  const header = [...imports.entries()].map(
    ([spec, name]) =>
      `import * as ${name}Module from ${JSON.stringify(withJs(spec))};\nconst ${name} = ${name}Module.default ?? ${name}Module;`,
  );
  return `${header.join('\n')}\n${body.replace(/^"use strict";\n?/, '')}`;
}

function withJs(spec: string): string {
  return spec.endsWith('.js') ? spec : `${spec}.js`;
}

function dts(exports: string[], types: string[]): string {
  return validatorDts(exports, types, '../types.js');
}

/** The declaration file beside a standalone validator module: its validators, typed. */
export function validatorDts(exports: string[], types: string[], typesModule: string): string {
  const typeImport = types.length > 0 ? `import type { ${types.join(', ')} } from '${typesModule}';\n` : '';
  return `import type { ErrorObject } from 'ajv';\n${typeImport}\nexport interface StandaloneValidator<T> {\n  (data: unknown): data is T;\n  errors?: ErrorObject[] | null;\n}\n${exports.map((e) => `export declare const ${e};`).join('\n')}\n`;
}
