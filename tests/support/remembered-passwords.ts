// Better Auth's own password hashing (scrypt, a tenth of a second of a core each time), remembered for
// the test process: its tests sign up and sign in a few hundred people, nearly all with one password.
// Every hash is still a real one, made by the real function, so a server process a test starts checks
// it as it checks any other; only people given the same password share their salt.
import { hashPassword, verifyPassword } from "better-auth/crypto";
import type { PasswordHashing } from "../../server/auth/index.ts";

const hashes = new Map<string, Promise<string>>();
const checks = new Map<string, Promise<boolean>>();

function remembered<T>(cache: Map<string, Promise<T>>, key: string, work: () => Promise<T>): Promise<T> {
  let found = cache.get(key);
  if (!found) {
    found = work();
    cache.set(key, found);
  }
  return found;
}

export const rememberedPasswordHashing: PasswordHashing = {
  hash: (password) => remembered(hashes, password, () => hashPassword(password)),
  verify: ({ hash, password }) => remembered(checks, `${hash}\u0000${password}`, () => verifyPassword({ hash, password })),
};
