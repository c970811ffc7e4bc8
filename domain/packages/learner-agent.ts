/**
 * How a participant appears in xAPI (issue 35): an account on the platform, named by their user id.
 * No e-mail or name leaves the platform in a statement; the id means something only to the platform.
 * The cmi5 launch, the platform's LRS and xAPI out all use this one form, so statements about the
 * same person agree wherever they are read.
 */
export const learnerAgent = (publicUrl: string, userId: number) => ({
  objectType: 'Agent' as const,
  account: { homePage: publicUrl, name: String(userId) },
});

/** The user id a learner agent names on this platform, or null when it is not one of its accounts. */
export const userIdOfAgent = (publicUrl: string, agent: unknown): number | null => {
  const account = (agent as { account?: { homePage?: unknown; name?: unknown } } | null)?.account;
  if (!account || account.homePage !== publicUrl || typeof account.name !== 'string' || !/^[1-9]\d{0,9}$/.test(account.name)) return null;
  return Number(account.name);
};
