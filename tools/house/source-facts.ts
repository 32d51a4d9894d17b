// The facts a reviewer reads off one TypeScript source file, taken from its syntax tree (never from a regular
// expression, which a string or a comment would fool): its lines, its outcome casts, its surface switches, its
// raw git calls, and the modules it imports for their values.
import ts from 'typescript';

export interface SourceFacts {
  /** Lines as the file stands; `npm run lint` keeps every file formatted, so these are formatted lines. */
  lines: number;
  /** `x as SomeOutcome` and `<SomeOutcome>x`: each switches off the rule that a handler refuses only with its slugs. */
  outcomeCasts: number[];
  /** `….surface === 'mcp'` and the like: a verb's wording chosen inline instead of by its presentation. */
  surfaceSwitches: number[];
  /** `git([...])`: a git command line spelled out where it is used instead of behind a named engine function. */
  rawGitCalls: number[];
  /**
   * Relative module specifiers imported or re-exported for values, statically: type-only imports load nothing,
   * and a lazy `import()` runs after both modules have loaded, so neither can make a load-order cycle.
   */
  valueImports: string[];
  /** Relative modules named only for their types, or loaded lazily with `import()`: a dependency, not a load. */
  otherImports: string[];
}

export function sourceFacts(fileName: string, text: string): SourceFacts {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const facts: SourceFacts = {
    lines: lineCount(text),
    outcomeCasts: [],
    surfaceSwitches: [],
    rawGitCalls: [],
    valueImports: [],
    otherImports: [],
  };
  const line = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && namesOutcome(node.type)) {
      facts.outcomeCasts.push(line(node));
    } else if (ts.isBinaryExpression(node) && isSurfaceSwitch(node)) {
      facts.surfaceSwitches.push(line(node));
    } else if (ts.isCallExpression(node) && isRawGitCall(node)) {
      facts.rawGitCalls.push(line(node));
    } else if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      const specifier = node.moduleSpecifier;
      if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
        (loadsValues(node) ? facts.valueImports : facts.otherImports).push(specifier.text);
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const first = node.arguments[0];
      if (first && ts.isStringLiteralLike(first) && first.text.startsWith('.')) facts.otherImports.push(first.text);
    } else if (ts.isImportTypeNode(node)) {
      const literal = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
      if (literal && ts.isStringLiteral(literal) && literal.text.startsWith('.')) facts.otherImports.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return facts;
}

function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** A type reference whose name ends in `Outcome` (`AcceptOutcome`, `AnyOutcome`, `NonNullable<…>` aside). */
function namesOutcome(type: ts.TypeNode): boolean {
  if (!ts.isTypeReferenceNode(type)) return false;
  const name = ts.isIdentifier(type.typeName) ? type.typeName.text : type.typeName.right.text;
  return /Outcome$/.test(name);
}

function isSurfaceSwitch(node: ts.BinaryExpression): boolean {
  const op = node.operatorToken.kind;
  const equality = [
    ts.SyntaxKind.EqualsEqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsEqualsToken,
    ts.SyntaxKind.EqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsToken,
  ];
  if (!equality.includes(op)) return false;
  const isSurface = (side: ts.Expression): boolean =>
    (ts.isPropertyAccessExpression(side) && side.name.text === 'surface') ||
    (ts.isIdentifier(side) && side.text === 'surface');
  const isSurfaceName = (side: ts.Expression): boolean =>
    ts.isStringLiteralLike(side) && (side.text === 'mcp' || side.text === 'cli');
  return (isSurface(node.left) && isSurfaceName(node.right)) || (isSurface(node.right) && isSurfaceName(node.left));
}

function isRawGitCall(node: ts.CallExpression): boolean {
  const first = node.arguments[0];
  return (
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'git' &&
    first !== undefined &&
    ts.isArrayLiteralExpression(first)
  );
}

function loadsValues(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return false;
    const clause = node.exportClause;
    return !(
      clause &&
      ts.isNamedExports(clause) &&
      clause.elements.length > 0 &&
      clause.elements.every((e) => e.isTypeOnly)
    );
  }
  const clause = node.importClause;
  if (!clause) return true; // `import './x.js'` runs the module
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return true;
  // A clause of inline types alone (`import { type A } from`) names types, not values.
  return bindings.elements.length === 0 || bindings.elements.some((e) => !e.isTypeOnly);
}
