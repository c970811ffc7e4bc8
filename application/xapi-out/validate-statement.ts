import xapiValidation from 'xapi-validation';

type Warning = { readonly path?: readonly (string | number)[]; readonly typeName?: string; readonly message?: string };

// The package is CommonJS compiled from TypeScript: its function is the module's `default`.
const validate = ((xapiValidation as unknown as { default?: unknown }).default ?? xapiValidation) as (statement: unknown) => Warning[];

/**
 * What xAPI 1.0.3 finds wrong with a statement (Learning Locker's conformance-tested validator), one
 * line per problem (`statement.result.score.raw: Number`); empty when it is valid. Every statement is
 * checked before it is sent: an invalid one is a mistake of ours, recorded and never sent.
 */
export const statementProblems = (statement: unknown): string[] =>
  validate(statement).map((w) => `${(w.path ?? []).join('.')}: ${w.typeName ?? w.message ?? 'neveljavno'}`);
