// Apart from the repository, so a screen can tell these errors apart before the first write loads it.
import { ApiError } from '../net/apiClient';

/** A local rule broken before anything is written (the screen shows it like a 422). */
export class ValidationError extends Error {
  readonly errors: Record<string, string[]>;
  constructor(errors: Record<string, string[]>) {
    super(Object.values(errors).flat()[0] ?? 'Invalid input.');
    this.name = 'ValidationError';
    this.errors = errors;
  }
}

export class NotFoundError extends Error {
  constructor(id: number) {
    super(`Item ${id} not found.`);
    this.name = 'NotFoundError';
  }
}

/** A write the server or the local rules refused as invalid input (the spec's 'Invalid input' toast). */
export function isInvalidInput(error: unknown): boolean {
  return (error instanceof ApiError && error.status === 422) || error instanceof ValidationError;
}
