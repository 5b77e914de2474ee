import { existsSync } from "node:fs";

/**
 * For the operator's commands (npm start, npm run dev, backup, restore): the settings in .env of the
 * folder they run in, under whatever the environment already says. Node's --env-file-if-exists does
 * the same but prints a line on every start without one, in each worker too.
 */
export function loadEnvFile(): void {
  if (existsSync(".env")) process.loadEnvFile(".env");
}
