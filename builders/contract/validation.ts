// Payload validation as the programs use it: a Validator checks a payload against its schema by name and
// throws SchemaValidationError with the first reasons. The checks are made by ajv, either when a program
// starts (builders/contract/schemas.ts, createValidator) or when the Worker's bundle is made (standaloneValidators):
// this module imports no ajv, so the Worker's bundle carries no schema compiler (Workers forbid `new
// Function`, and ajv compiles with it).
import type { SchemaName } from './service.ts';

export class SchemaValidationError extends Error {
  override readonly name = 'SchemaValidationError';
}

export interface Validator {
  validate(name: SchemaName, data: unknown): void;
}

/** One schema's check, as ajv makes it: true, or false with the reasons in `errors`. */
export type CompiledCheck = ((data: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; message?: string }> | null;
};

/** The Validator over checks found by name, compiled at start (createValidator) or at build time (compiledValidator). */
export function validatorOf(checkOf: (name: SchemaName) => CompiledCheck | undefined): Validator {
  return {
    validate(name, data) {
      const check = checkOf(name);
      if (!check) throw new Error(`no schema named ${name} in schemas/`);
      if (!check(data)) {
        const errors = (check.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
        throw new SchemaValidationError(`${name} does not validate: ${errors.join('; ')}`);
      }
    },
  };
}

/** The Validator over checks compiled at build time (standaloneValidators), keyed by schema title. */
export function compiledValidator(checks: Readonly<Record<string, CompiledCheck>>): Validator {
  return validatorOf((name) => (Object.hasOwn(checks, name) ? checks[name] : undefined));
}
