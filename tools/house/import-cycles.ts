// Import cycles among a tree's modules: the strongly connected components (Tarjan) of the graph of static value
// imports. A cycle makes load order decide which module sees the other half-initialised, and it is the first thing
// that stops a layer from being read, tested or moved on its own.
import { dirname, join, normalize } from 'node:path';

/** Module → the modules it imports, both as paths relative to the tree's root with a `.ts` suffix. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** `./x.js` imported by `src/a/b.ts` is `src/a/x.ts`, when that file is in the graph. */
export function resolveImport(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const target = normalize(join(dirname(from), specifier));
  for (const candidate of [target.replace(/\.js$/, '.ts'), target.replace(/\.cjs$/, '.cts'), `${target}.ts`]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** Every cycle as its member modules, each sorted, the cycles sorted by their first member. */
export function importCycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];

  // Iterative, so a deep chain of imports cannot overflow the call stack.
  const strongConnect = (start: string): void => {
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== frame.node);
      const selfImport = members.length === 1 && (graph.get(frame.node) ?? []).includes(frame.node);
      if (members.length > 1 || selfImport) cycles.push(members.sort());
    }
  };

  for (const node of [...graph.keys()].sort()) if (!index.has(node)) strongConnect(node);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
