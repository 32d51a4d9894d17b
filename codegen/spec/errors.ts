// A spec problem names the file and the JSON pointer inside it, so the author can go straight to it.

export interface SpecProblem {
  file: string;
  pointer: string;
  message: string;
}

export class SpecError extends Error {
  readonly problems: SpecProblem[];
  constructor(problems: SpecProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'SpecError';
    this.problems = problems;
  }
}

export function formatProblem(problem: SpecProblem): string {
  return `${problem.file}${problem.pointer === '' ? '' : `#${problem.pointer}`}: ${problem.message}`;
}

/** Collects problems and throws them together, so one run reports everything wrong at once. */
export class ProblemList {
  readonly items: SpecProblem[] = [];
  add(file: string, pointer: string, message: string): void {
    this.items.push({ file, pointer, message });
  }
  throwIfAny(): void {
    if (this.items.length > 0) throw new SpecError(this.items);
  }
}
