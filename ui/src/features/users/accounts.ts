/**
 * The account switcher's list (spec §3: stored locally under "users", entries id, email, username,
 * fullName, savePassword, jwt). An entry keeps its jwt only when the user chose "save password".
 */
export type Account = {
  readonly id: number;
  readonly email: string;
  readonly username: string;
  readonly fullName: string;
  readonly savePassword: boolean;
  readonly jwt: string | null;
};

const KEY = 'users';

const isAccount = (value: unknown): value is Account => {
  const a = value as Account;
  return (
    typeof a?.id === 'number' &&
    typeof a.username === 'string' &&
    typeof a.email === 'string' &&
    typeof a.fullName === 'string' &&
    typeof a.savePassword === 'boolean'
  );
};

export const accounts = {
  list(): Account[] {
    try {
      const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter(isAccount).map((a) => ({ ...a, jwt: typeof a.jwt === 'string' ? a.jwt : null })) : [];
    } catch {
      return [];
    }
  },
  save(list: readonly Account[]) {
    localStorage.setItem(KEY, JSON.stringify(list));
  },
  /** Adds or refreshes the signed-in account; a saved password keeps the newest jwt. */
  remember(user: { id: number; email: string; username: string; fullName: string }, token: string, savePassword?: boolean) {
    const list = accounts.list();
    const existing = list.find((a) => a.id === user.id);
    const keep = savePassword ?? existing?.savePassword ?? false;
    const entry: Account = { id: user.id, email: user.email, username: user.username, fullName: user.fullName, savePassword: keep, jwt: keep ? token : null };
    accounts.save(existing ? list.map((a) => (a.id === user.id ? entry : a)) : [...list, entry]);
  },
  forget(id: number) {
    accounts.save(accounts.list().filter((a) => a.id !== id));
  },
};
