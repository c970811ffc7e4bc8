import xapiValidation from 'xapi-validation';
import { ZodError } from 'zod';

type Validate = (statement: unknown) => readonly unknown[];
/** The package is CommonJS with `exports.default`: Node hands over the exports object, some loaders (vitest) its default already. */
const validateStatement: Validate =
  typeof xapiValidation === 'function' ? (xapiValidation as unknown as Validate) : (xapiValidation as unknown as { default: Validate }).default;

/** What `xapi-validation` calls each kind of problem, in words a client's developer reads. */
const PROBLEMS: Readonly<Record<string, string>> = {
  RequiredWarning: 'je obvezen',
  TypeWarning: 'ni veljaven',
  RestrictedKeysWarning: 'ima nedovoljene lastnosti',
  NoIfiWarning: 'nima identifikatorja (mbox, mbox_sha1sum, openid ali account)',
  TooManyIfisWarning: 'ima več kot en identifikator',
};

/**
 * A statement checked against xAPI 1.0.3 with Learning Locker's `xapi-validation` (conformance
 * tested). Every problem it finds is one error of the 400 answer, named by its path in the statement
 * (`statement.verb.id`) and by the validator's own name for it.
 */
export const statementProblems = (statement: unknown, path: readonly (string | number)[] = []) =>
  validateStatement(statement).map((warning) => {
    const w = warning as unknown as { name?: string; path?: readonly (string | number)[]; typeName?: string };
    const kind = w.name ?? 'Warning';
    const words = PROBLEMS[kind] ?? 'ni veljaven';
    const where = (w.path ?? []).slice(1);
    return {
      code: 'custom' as const,
      path: [...path, ...where],
      message: `${['statement', ...where].join('.')} ${words}${w.typeName ? ` (${w.typeName})` : ''} [${kind}].`,
      input: undefined,
    };
  });

/** Throws the platform's 400 (one error per problem) when any statement is not valid xAPI. */
export const assertValidStatements = (statements: readonly unknown[], batch: boolean) => {
  const issues = statements.flatMap((statement, index) => statementProblems(statement, batch ? [index] : []));
  if (issues.length > 0) throw new ZodError(issues.slice(0, 50));
};
