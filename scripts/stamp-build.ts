// The last step of `npm run build`: records which sources the build was made from, so `npm start` does not build again.
import { writeFile } from "node:fs/promises";
import { sourceHash, stampFile } from "./source-hash.ts";

await writeFile(stampFile(), await sourceHash());
