// A handler broke its verb's contract (an advisory kind its policy does not permit, plan and steps together).
// This is a discern bug, so it surfaces as internal_error, never as a result that lies.
export class ContractViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractViolation';
  }
}
